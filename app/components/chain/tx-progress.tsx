import { CircleAlert, CircleCheck, ExternalLink, Info, Loader2, Wallet } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { TxState } from "~/modules/chain/tx-machine";
import { explorerTxUrl } from "~/wallet/chain-details";

/** The transaction hash, linked to the network's explorer when it has one; `short` shows its ends only (the whole hash is its title). */
export function TxHash({ hash, chainId, short = false }: { hash: string; chainId: number; short?: boolean }) {
  const url = explorerTxUrl(chainId, hash);
  const text = (
    <span className="font-mono text-xs break-all" title={short ? hash : undefined}>
      {short ? `${hash.slice(0, 10)}…${hash.slice(-8)}` : hash}
    </span>
  );
  return url ? (
    <a href={url} target="_blank" rel="noreferrer" className="inline-flex items-start gap-1 underline underline-offset-2">
      {text}
      <ExternalLink className="mt-0.5 size-3 shrink-0" aria-hidden />
      <span className="sr-only">(opens the explorer)</span>
    </a>
  ) : (
    <span title="The local chain has no explorer">{text}</span>
  );
}

/** Where a transaction stands: wallet prompt → pending (hash) → confirmed or failed (with "Try again" unless a retry cannot help). */
export function TxProgress({ state, label, onReset }: { state: TxState; label: string; onReset: () => void }) {
  if (state.status === "idle") {
    return state.notice ? (
      <p role="status" className="flex items-start gap-2 rounded-md border bg-muted/50 p-3 text-sm" data-tx="idle">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden /> {state.notice}
      </p>
    ) : null;
  }
  const box = "grid gap-2 rounded-md border p-3 text-sm";
  switch (state.status) {
    case "prompt":
      return (
        <div role="status" className={box} data-tx="prompt">
          <p className="flex items-center gap-2 font-medium">
            <Wallet className="size-4" aria-hidden /> Confirm in your wallet…
          </p>
          <p className="text-muted-foreground">{label}. Nothing is sent until you confirm.</p>
        </div>
      );
    case "pending":
      return (
        <div role="status" className={box} data-tx="pending">
          <p className="flex items-center gap-2 font-medium">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Transaction pending…
          </p>
          <p className="text-muted-foreground">{label}. Waiting for the network to confirm it.</p>
          <TxHash hash={state.hash} chainId={state.chainId} />
        </div>
      );
    case "confirmed":
      return (
        <div role="status" className={`${box} border-emerald-500/40 bg-emerald-500/10`} data-tx="confirmed">
          <p className="flex items-center gap-2 font-medium text-emerald-700 dark:text-emerald-400">
            <CircleCheck className="size-4" aria-hidden /> Transaction confirmed
          </p>
          <p>{label}.</p>
          <TxHash hash={state.hash} chainId={state.chainId} />
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={onReset}>
            Done
          </Button>
        </div>
      );
    case "failed":
      return (
        <div role="alert" className={`${box} border-destructive/40 bg-destructive/10`} data-tx="failed">
          <p className="flex items-center gap-2 font-medium text-destructive">
            <CircleAlert className="size-4" aria-hidden /> Transaction failed
          </p>
          <p>{state.message}</p>
          {state.hash && state.chainId !== undefined && <TxHash hash={state.hash} chainId={state.chainId} />}
          {!state.final && (
            <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={onReset}>
              Try again
            </Button>
          )}
        </div>
      );
  }
}
