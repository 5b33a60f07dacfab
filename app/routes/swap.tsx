import { ArrowLeftRight, Wallet } from "lucide-react";
import type { Route } from "./+types/swap";
import { EmptyState } from "~/components/empty-state";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { SwitchNetworkButton } from "~/components/wallet/switch-network-button";
import { pageTitle } from "~/lib/meta";
import { SWAP_CHAIN_IDS } from "~/wallet/chain-config";
import { CHAIN_NAMES, shortAddress } from "~/wallet/chains";
import { useWallet } from "~/wallet/wallet-provider";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Swap") }];
}

/**
 * Swap: the wallet modal's swap view for the connected account, where the network supports it.
 * Without the wallet service (no REOWN_PROJECT_ID) swaps cannot work: the page says so, and no
 * navigation links to it.
 */
export default function Swap() {
  const wallet = useWallet();
  const swapNetworks = SWAP_CHAIN_IDS.map((id) => CHAIN_NAMES[id] ?? `chain ${id}`).join(", ");
  return (
    <div className="grid gap-6">
      <PageHeader title="Swap" description="Trade one token for another from your wallet, at the best route the wallet service finds." />
      {!wallet.cloud ? (
        <EmptyState icon={ArrowLeftRight} title="Swaps are not set up on this server">
          Swaps run through the wallet service, which this installation has no project id for. Its operators can turn them on with REOWN_PROJECT_ID.
        </EmptyState>
      ) : !wallet.address ? (
        <EmptyState
          icon={Wallet}
          title="Connect a wallet to swap"
          action={
            <Button pending={wallet.status === "loading"} onClick={() => void wallet.open("Connect")}>
              <Wallet aria-hidden /> Connect wallet
            </Button>
          }
        >
          Swaps run from your own wallet: nothing passes through your balance here.
        </EmptyState>
      ) : !wallet.chainId || !SWAP_CHAIN_IDS.includes(wallet.chainId) ? (
        <EmptyState
          icon={ArrowLeftRight}
          title="Network not supported for Swaps"
          action={SWAP_CHAIN_IDS.map((id) => (
            <SwitchNetworkButton key={id} chainId={id} variant="outline" />
          ))}
        >
          {shortAddress(wallet.address)} is connected to {CHAIN_NAMES[wallet.chainId ?? 0] ?? "another network"}. Swaps work on {swapNetworks}.
        </EmptyState>
      ) : (
        <EmptyState
          icon={ArrowLeftRight}
          title={`Ready to swap on ${CHAIN_NAMES[wallet.chainId]}`}
          action={
            <Button variant="brand" onClick={() => void wallet.open("Swap")}>
              <ArrowLeftRight aria-hidden /> Open swap
            </Button>
          }
        >
          From {shortAddress(wallet.address)}. You confirm every swap in your wallet.
        </EmptyState>
      )}
    </div>
  );
}
