import { ReceiptText } from "lucide-react";
import { TxHash } from "~/components/chain/tx-progress";
import { EmptyState } from "~/components/empty-state";
import { Pagination } from "~/components/pagination";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { BalancePage } from "~/modules/balance/balance-page";
import { formatAmount } from "~/lib/token-amounts";
import { LocalTime } from "~/components/campaigns/local-time";

/** Every movement of the member's balance, newest first, a page at a time. */
export function TransactionTable({ rows, page, hasMore }: { rows: BalancePage["transactions"]; page: number; hasMore: boolean }) {
  return (
    <section className="grid gap-3" aria-labelledby="transactions-title">
      <h2 id="transactions-title" className="text-lg font-semibold">
        Transactions
      </h2>
      {rows.length === 0 && page === 1 ? (
        <EmptyState icon={ReceiptText} title="No transactions yet">
          Your deposits and withdrawals show here.
        </EmptyState>
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Type</TableHead>
                <TableHead className="text-right">Amount</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Time</TableHead>
                <TableHead>Transaction</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell className="font-medium">{row.label}</TableCell>
                  <TableCell className="text-right whitespace-nowrap tabular-nums">
                    <Movement available={BigInt(row.available)} held={BigInt(row.held)} gross={BigInt(row.gross)} symbol={row.symbol} decimals={row.decimals} />
                  </TableCell>
                  <TableCell>
                    <Badge
                      variant={
                        row.status === "failed" || row.status === "reorged"
                          ? "destructive"
                          : row.status === "credited" || row.status === "confirmed" || row.status === "done"
                            ? "success"
                            : "secondary"
                      }
                    >
                      {row.status}
                    </Badge>
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">
                    <LocalTime value={row.createdAt} />
                  </TableCell>
                  <TableCell>
                    {row.txHash ? <TxHash hash={row.txHash} chainId={row.chainId} short /> : <span className="text-muted-foreground">—</span>}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pagination page={page} hasMore={hasMore} />
        </>
      )}
    </section>
  );
}

/** What an entry did: to the available balance, or (when only that moved) to the held part, or what it moved on the member's behalf. */
function Movement({ available, held, gross, symbol, decimals }: { available: bigint; held: bigint; gross: bigint; symbol: string; decimals: number }) {
  if (available === 0n && held === 0n) {
    return (
      <span className="text-muted-foreground">
        {formatAmount(gross, { decimals })} {symbol}
      </span>
    );
  }
  const amount = available !== 0n ? available : held;
  const sign = amount > 0n ? "+" : "";
  return (
    <span className={amount > 0n ? "text-emerald-700 dark:text-emerald-400" : undefined}>
      {sign}
      {formatAmount(amount, { decimals })} {symbol}
      {available === 0n && held !== 0n && <span className="text-xs text-muted-foreground"> held</span>}
    </span>
  );
}
