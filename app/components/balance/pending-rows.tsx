import { RotateCcw, X } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { TxHash } from "~/components/chain/tx-progress";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toaster";
import type { BalanceActionData, BalancePage } from "~/modules/balance/balance-page";
import { formatAmount } from "~/lib/token-amounts";

type Props = Pick<BalancePage, "deposits" | "withdrawals" | "paused">;

/** Deposits waiting for confirmations and withdrawals not finished yet, with Retry and Cancel. */
export function PendingRows({ deposits, withdrawals, paused }: Props) {
  // One fetcher for every row, so its answer is still heard after the row itself is gone (a cancelled withdrawal).
  const fetcher = useFetcher<BalanceActionData>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result || result.intent === "withdraw") return;
    if (result.ok) toast.success(result.intent === "retry" ? "Withdrawal sent again" : "Withdrawal cancelled: the amount is back in your balance");
    else toast.error(result.error ?? "That did not work.");
  }, [result]);
  const busy = fetcher.state !== "idle" ? { id: String(fetcher.formData?.get("id")), intent: String(fetcher.formData?.get("intent")) } : null;
  const act = (id: string, intent: "retry" | "cancel") => fetcher.submit({ intent, id }, { method: "post" });
  if (deposits.length === 0 && withdrawals.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Under way</CardTitle>
        <CardDescription>Deposits waiting for the network and withdrawals being paid.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-xl border" aria-label="Deposits and withdrawals under way">
          {deposits.map((d) => (
            <li key={d.id} className="grid gap-1 p-3" data-deposit={d.id}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">
                  Deposit of {formatAmount(BigInt(d.amount), { decimals: d.decimals })} {d.symbol}
                </span>
                <Badge variant="warning">
                  pending ({Math.min(d.confirmations, d.required)}/{d.required} confirmations)
                </Badge>
              </div>
              <TxHash hash={d.txHash} chainId={d.chainId} />
            </li>
          ))}
          {withdrawals.map((w) => (
            <WithdrawalRow key={w.id} row={w} paused={paused} busy={busy && busy.id === w.id ? busy.intent : busy ? "other" : null} act={act} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

const STATUS: Record<string, { label: string; variant: "warning" | "secondary" | "destructive" | "success" }> = {
  requested: { label: "requested", variant: "secondary" },
  sending: { label: "sending", variant: "warning" },
  sent: { label: "sent", variant: "warning" },
  failed: { label: "failed", variant: "destructive" },
};

type RowProps = {
  row: BalancePage["withdrawals"][number];
  paused: boolean;
  /** What is being done to this row (`retry`, `cancel`), `other` while another row is busy, else null. */
  busy: string | null;
  act: (id: string, intent: "retry" | "cancel") => void;
};

function WithdrawalRow({ row, paused, busy, act }: RowProps) {
  const status = STATUS[row.status] ?? { label: row.status, variant: "secondary" as const };
  return (
    <li className="grid gap-2 p-3" data-withdrawal={row.id} data-status={row.status}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">
          Withdrawal of {formatAmount(BigInt(row.amount), { decimals: row.decimals })} {row.symbol}
        </span>
        <Badge variant={status.variant}>{status.label}</Badge>
        <span className="min-w-0 truncate font-mono text-xs text-muted-foreground">to {row.toAddress}</span>
      </div>
      {row.status === "requested" && (row.waiting || paused) && (
        <p className="text-sm text-muted-foreground" role="status">
          Waiting: withdrawals are paused by the operators. It goes out when they resume.
        </p>
      )}
      {row.failure && row.status === "failed" && (
        <p className="text-sm text-destructive" role="alert">
          {row.failure}
        </p>
      )}
      {row.txHash && <TxHash hash={row.txHash} chainId={row.chainId} />}
      {(row.canRetry || row.canCancel) && (
        <div className="flex flex-wrap gap-2">
          {row.canRetry && (
            <Button type="button" size="sm" variant="brand" pending={busy === "retry"} disabled={busy !== null} onClick={() => act(row.id, "retry")}>
              <RotateCcw aria-hidden /> Retry
            </Button>
          )}
          {row.canCancel && (
            <Button type="button" size="sm" variant="outline" pending={busy === "cancel"} disabled={busy !== null} onClick={() => act(row.id, "cancel")}>
              <X aria-hidden /> Cancel
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
