import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { withdrawal } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";

/** A withdrawal in flight this long has an operator look at it. */
const SLOW_MS = 15 * 60 * 1000;

/**
 * Withdrawals that need an operator's attention, newest first: failed ones, ones waiting while
 * withdrawals are paused, and ones sending or sent for over 15 minutes.
 */
export async function withdrawalsNeedingAttention({ db, now = new Date(), limit = 100 }: { db: Db; now?: Date; limit?: number }) {
  const slow = new Date(now.getTime() - SLOW_MS);
  return db
    .select({
      id: withdrawal.id,
      status: withdrawal.status,
      amount: withdrawal.amount,
      chainId: withdrawal.chainId,
      toAddress: withdrawal.toAddress,
      txHash: withdrawal.txHash,
      failure: withdrawal.failure,
      waiting: withdrawal.waiting,
      attempts: withdrawal.attempts,
      updatedAt: withdrawal.updatedAt,
      member: user.email,
    })
    .from(withdrawal)
    .innerJoin(user, eq(user.id, withdrawal.userId))
    .where(
      or(
        eq(withdrawal.status, "failed"),
        and(eq(withdrawal.status, "requested"), eq(withdrawal.waiting, true)),
        and(inArray(withdrawal.status, ["sending", "sent"]), lt(withdrawal.updatedAt, slow)),
      ),
    )
    .orderBy(desc(withdrawal.updatedAt))
    .limit(limit);
}
