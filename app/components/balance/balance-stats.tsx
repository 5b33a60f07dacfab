import { Stat } from "~/components/chain/wallet-gate";
import { formatAmount } from "~/lib/token-amounts";
import type { BalancePage } from "~/modules/balance/balance-page";

type Props = Pick<BalancePage, "balances" | "chain" | "asset">;

/** The chosen network's figures (available, held, in the wallet), then the member's other assets. */
export function BalanceStats({ balances, chain, asset }: Props) {
  const current = balances.find((b) => b.asset === asset);
  const others = balances.filter((b) => b.asset !== asset);
  const wallet = chain.ok ? chain.facts.member : null;
  const symbol = current?.symbol ?? "QUEST";
  return (
    <section aria-label="Your balances" className="grid gap-3">
      {current && (
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Stat
            label="Available"
            value={`${formatAmount(BigInt(current.available), { decimals: current.decimals })} ${symbol}`}
            hint={`On ${current.chainName}`}
          />
          <Stat
            label="Held"
            value={`${formatAmount(BigInt(current.held), { decimals: current.decimals })} ${symbol}`}
            hint="Set aside for withdrawals under way"
          />
          <Stat
            label="In your wallet"
            value={wallet ? `${formatAmount(BigInt(wallet.balance), { decimals: current.decimals })} ${symbol}` : "—"}
            hint={wallet ? `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}, on chain` : "Connect your wallet to see"}
          />
        </dl>
      )}
      {others.length > 0 && (
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {others.map((b) => (
            <Stat
              key={b.asset}
              label={`${b.symbol} on ${b.chainName}`}
              value={`${formatAmount(BigInt(b.available), { decimals: b.decimals })} ${b.symbol}`}
              hint={`${formatAmount(BigInt(b.held), { decimals: b.decimals })} held`}
            />
          ))}
        </dl>
      )}
    </section>
  );
}
