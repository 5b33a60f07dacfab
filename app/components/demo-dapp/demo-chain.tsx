import { ServerCrash } from "lucide-react";
import { Fragment } from "react";
import { Stat } from "~/components/chain/wallet-gate";
import { EmptyState } from "~/components/empty-state";
import { formatAmount } from "~/lib/token-amounts";
import { DEMO_ITEM_IDS, type DemoChainReading } from "~/modules/chain/demo-dapp";
import { useWallet } from "~/wallet/wallet-provider";
import { MintExplorerCard, MintItemsCard } from "./mint-cards";
import { SwapCard } from "./swap-card";

/** One local chain's demo contracts: what the connected wallet holds of them, and the three things to do with them. */
export function DemoChain({ chain }: { chain: DemoChainReading }) {
  const headingId = `demo-chain-${chain.chainId}`;
  if (!chain.ok) {
    return (
      <section aria-labelledby={headingId} className="grid gap-4">
        <h2 id={headingId} className="text-lg font-semibold">
          {chain.chainName}
        </h2>
        <EmptyState icon={ServerCrash} title={`${chain.chainName} is not answering`}>
          The network&apos;s node did not answer, so its demo contracts cannot be shown. Try again in a moment.
        </EmptyState>
      </section>
    );
  }
  return (
    <section aria-labelledby={headingId} className="grid gap-4" data-chain={chain.chainId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {chain.chainName}
      </h2>
      <Holdings chain={chain} />
      <div className="grid gap-4 lg:grid-cols-3">
        <MintExplorerCard chain={chain} />
        <MintItemsCard chain={chain} />
        <SwapCard chain={chain} />
      </div>
    </section>
  );
}

/** What the connected wallet holds of the demo contracts on this chain ("—" until a wallet is known). */
function Holdings({ chain }: { chain: Extract<DemoChainReading, { ok: true }> }) {
  const wallet = useWallet();
  const member = chain.member && wallet.address?.toLowerCase() === chain.member.address.toLowerCase() ? chain.member : null;
  const hint = member ? undefined : "Connect your wallet to see";
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label={`Your wallet on ${chain.chainName}`}>
      <Stat label="Explorers" value={member ? member.explorers : "—"} hint={hint ?? "QLX, ERC-721"} />
      <Stat
        label="Items"
        value={
          member
            ? DEMO_ITEM_IDS.map((id, i) => (
                <Fragment key={id}>
                  {i > 0 && " · "}
                  <span className="whitespace-nowrap">
                    #{id}: {member.items[i]}
                  </span>
                </Fragment>
              ))
            : "—"
        }
        hint={hint ?? "Questline Items, ERC-1155"}
      />
      <Stat label={chain.tokenA.symbol} value={member ? formatAmount(BigInt(member.a), { decimals: chain.tokenA.decimals }) : "—"} hint={hint} />
      <Stat label={chain.tokenB.symbol} value={member ? formatAmount(BigInt(member.b), { decimals: chain.tokenB.decimals }) : "—"} hint={hint} />
    </dl>
  );
}
