import { and, desc, eq } from "drizzle-orm";
import type { Hex } from "viem";
import { deposit, type DepositStatus } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import type { Asset } from "~/modules/ledger/assets";

/** One deposit as the Balance screen shows it: `pending (confirmations/required)`, then `credited`. */
export type DepositRow = {
  id: string;
  chainId: number;
  txHash: Hex;
  asset: Asset;
  amount: bigint;
  status: DepositStatus;
  confirmations: number;
  required: number;
  createdAt: Date;
  creditedAt: Date | null;
};

/** A member's deposits, newest first; only those of `status` when given. */
export async function listDeposits({
  db,
  userId,
  status,
  limit = 20,
}: {
  db: Db;
  userId: string;
  status?: DepositStatus;
  limit?: number;
}): Promise<DepositRow[]> {
  const rows = await db
    .select({
      id: deposit.id,
      chainId: deposit.chainId,
      txHash: deposit.txHash,
      asset: deposit.asset,
      amount: deposit.amount,
      status: deposit.status,
      confirmations: deposit.confirmations,
      required: deposit.required,
      createdAt: deposit.createdAt,
      creditedAt: deposit.creditedAt,
    })
    .from(deposit)
    .where(and(eq(deposit.userId, userId), status && eq(deposit.status, status)))
    .orderBy(desc(deposit.createdAt), desc(deposit.blockNumber), desc(deposit.logIndex))
    .limit(limit);
  return rows.map((row) => ({ ...row, txHash: row.txHash as Hex, asset: row.asset as Asset }));
}
