import { ServerCrash, Wallet, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { EmptyState } from "~/components/empty-state";
import { Button } from "~/components/ui/button";
import { SwitchNetworkButton } from "~/components/wallet/switch-network-button";
import { CHAIN_NAMES } from "~/wallet/chains";
import { useWallet } from "~/wallet/wallet-provider";
import { NetworkPicker } from "~/components/wallet/network-picker";

/** The network picker of a token screen: its own network first, then every network members sign in on. */
export function NetworkSwitches({ chainId }: { chainId: number }) {
  return <NetworkPicker first={[chainId]} />;
}

/** Its children once a wallet is connected on `chainId`; else what to do first. */
export function WalletGate({ chainId, action, children }: { chainId: number; action: string; children: ReactNode }) {
  const wallet = useWallet();
  const name = CHAIN_NAMES[chainId] ?? `chain ${chainId}`;
  if (!wallet.address) {
    return (
      <div className="grid justify-items-start gap-3">
        <p className="text-sm text-muted-foreground">Connect a wallet to {action}.</p>
        <Button pending={wallet.status === "loading"} onClick={() => void wallet.open("Connect")}>
          <Wallet aria-hidden /> Connect wallet
        </Button>
      </div>
    );
  }
  if (wallet.chainId !== chainId) {
    return (
      <div className="grid justify-items-start gap-3">
        <p className="text-sm" role="status">
          Your wallet is on {CHAIN_NAMES[wallet.chainId ?? 0] ?? "another network"}. Switch to {name} to {action}.
        </p>
        <SwitchNetworkButton chainId={chainId} variant="brand" />
      </div>
    );
  }
  return <>{children}</>;
}

/** A labelled figure of a token screen. */
export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-1 rounded-xl border bg-card p-4">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums wrap-anywhere">{value}</dd>
      {hint && <dd className="text-xs text-muted-foreground">{hint}</dd>}
    </div>
  );
}

/** What a token screen shows when it cannot show its facts: no network has our contracts, or the node did not answer. */
export function TokenScreenUnavailable({
  state,
  icon: Icon,
  what,
}: {
  state: { reason: "none" } | { reason: "node"; chainId: number; chainName: string };
  icon: LucideIcon;
  /** "mint", "sale": what cannot be shown. */
  what: string;
}) {
  if (state.reason === "node") {
    return (
      <EmptyState icon={ServerCrash} title={`${state.chainName} is not answering`} action={<NetworkSwitches chainId={state.chainId} />}>
        The network&apos;s node did not answer, so the {what} cannot be shown. Try again in a moment.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={Icon} title={`No ${what} on these networks`}>
      Questline&apos;s {what} is not deployed on a network this installation can reach.
    </EmptyState>
  );
}
