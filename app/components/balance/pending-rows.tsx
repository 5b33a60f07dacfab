import { RotateCcw, X } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { TxHash } from "~/components/chain/tx-progress";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toaster";
import type { BalancePage } from "~/modules/balance/balance-page.server";
import { formatAmount } from "~/modules/chain/amounts";
import type { BalanceActionData } from "~/routes/balance";

type Props = Pick<BalancePage, "deposits" | "withdrawals" | "paused">;

/** Deposits waiting for confirmations and withdrawals not finished yet, with Retry and Cancel. */
export function PendingRows({ deposits, withdrawals, paused }: Props) {
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
                <span className="font-medium">Deposit of {formatAmount(BigInt(d.amount))} QUEST</span>
                <Badge variant="warning">
                  pending ({Math.min(d.confirmations, d.required)}/{d.required} confirmations)
                </Badge>
              </div>
              <TxHash hash={d.txHash} chainId={d.chainId} />
            </li>
          ))}
          {withdrawals.map((w) => (
            <WithdrawalRow key={w.id} row={w} paused={paused} />
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

function WithdrawalRow({ row, paused }: { row: BalancePage["withdrawals"][number]; paused: boolean }) {
  const fetcher = useFetcher<BalanceActionData>();
  const busy = fetcher.state !== "idle" ? String(fetcher.formData?.get("intent")) : null;
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result || result.intent === "withdraw") return;
    if (result.ok) toast.success(result.intent === "retry" ? "Withdrawal sent again" : "Withdrawal cancelled: the amount is back in your balance");
    else toast.error(result.error ?? "That did not work.");
  }, [result]);
  const status = STATUS[row.status] ?? { label: row.status, variant: "secondary" as const };
  const act = (intent: "retry" | "cancel") => fetcher.submit({ intent, id: row.id }, { method: "post" });
  return (
    <li className="grid gap-2 p-3" data-withdrawal={row.id} data-status={row.status}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Withdrawal of {formatAmount(BigInt(row.amount))} QUEST</span>
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
            <Button type="button" size="sm" variant="brand" pending={busy === "retry"} disabled={busy !== null} onClick={() => act("retry")}>
              <RotateCcw aria-hidden /> Retry
            </Button>
          )}
          {row.canCancel && (
            <Button type="button" size="sm" variant="outline" pending={busy === "cancel"} disabled={busy !== null} onClick={() => act("cancel")}>
              <X aria-hidden /> Cancel
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
