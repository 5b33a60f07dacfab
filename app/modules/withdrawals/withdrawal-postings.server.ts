import { and, eq } from "drizzle-orm";
import { PLATFORM, withdrawal } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import type { Asset } from "~/modules/ledger/assets";
import { post, settle, transfer } from "~/modules/ledger/ledger.server";
import { ledgerKey } from "~/modules/ledger/keys";
import { emitEvent } from "~/modules/events/emit.server";

/**
 * The withdrawal's state changes that move money, each with its ledger postings in one
 * transaction, under the row's lock, with idempotency keys derived from the id and attempt.
 */

export type WithdrawalRow = typeof withdrawal.$inferSelect;
/** The transaction of an attempt, as the operator's outbox stored it. */
export type SignedAttempt = { txHash: string; nonce: number };

const asDb = (tx: unknown) => tx as Db;

/** Records a signed attempt (`sending`) and moves the held amount in flight, before any broadcast. */
export async function recordSigned(db: Db, row: WithdrawalRow, signed: SignedAttempt): Promise<number> {
  const attempt = row.attempts + 1;
  await db
    .update(withdrawal)
    .set({
      status: "sending",
      txHash: signed.txHash,
      nonce: signed.nonce,
      attempts: attempt,
      failure: null,
      waiting: false,
      sentAt: null,
      updatedAt: new Date(),
    })
    .where(eq(withdrawal.id, row.id));
  await settle({
    db,
    key: ledgerKey.withdrawalSent(row.id, attempt),
    kind: "withdrawal_sent",
    userId: row.userId,
    reference: row.id,
    asset: row.asset as Asset,
    amount: row.amount,
    to: "withdrawals_in_flight",
  });
  return attempt;
}

/**
 * Fails a `requested` withdrawal before anything was signed: nothing is posted, the amount stays
 * held. False when it is no longer requested (another run signed it, or its member cancelled it).
 */
export async function failUnsigned(db: Db, id: string, failure: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [failed] = await tx
      .update(withdrawal)
      .set({ status: "failed", failure, waiting: false, updatedAt: new Date() })
      .where(and(eq(withdrawal.id, id), eq(withdrawal.status, "requested")))
      .returning();
    // Nothing was signed: the failure of the attempt it was to be, once per time it was requested (its last change).
    if (failed) await emitFailed(asDb(tx), failed, `${failed.attempts + 1}:unsigned:${failed.updatedAt.getTime()}`);
    return Boolean(failed);
  });
}

/** `withdrawal.failed`, with the failure the member reads, once per `round` (the attempt that failed). */
async function emitFailed(db: Db, row: WithdrawalRow, round: string) {
  await emitEvent(db, {
    type: "withdrawal.failed",
    key: `withdrawal.failed:${row.id}:${round}`,
    projectId: null,
    data: {
      withdrawalId: row.id,
      userId: row.userId,
      asset: row.asset,
      amount: row.amount.toString(),
      chainId: row.chainId,
      reason: (row.failure ?? "The withdrawal failed; nothing was paid.").slice(0, 2000),
    },
  });
}

/** Marks a `sending` attempt as accepted by the node (only if that attempt is still the one sending). */
export async function markSent(db: Db, id: string, txHash: string, now: Date): Promise<void> {
  await db
    .update(withdrawal)
    .set({ status: "sent", sentAt: now, updatedAt: now })
    .where(and(eq(withdrawal.id, id), eq(withdrawal.status, "sending"), eq(withdrawal.txHash, txHash)));
}

async function lockRow(db: Db, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(withdrawal).where(eq(withdrawal.id, id)).for("update");
  return row;
}

/**
 * The vault has paid the withdrawal: converges to `confirmed`, posting whatever is missing (a held
 * amount goes in flight first, then in flight goes on chain, less the fee, which goes to `fees`).
 */
export async function confirmPaid(db: Db, id: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await lockRow(asDb(tx), id);
    if (!row || row.status === "confirmed" || row.status === "cancelled") return false;
    let attempts = row.attempts;
    if (row.status === "requested" || row.status === "failed") {
      attempts += 1;
      await settle({
        db: asDb(tx),
        key: ledgerKey.withdrawalSent(id, attempts),
        kind: "withdrawal_sent",
        userId: row.userId,
        reference: id,
        asset: row.asset as Asset,
        amount: row.amount,
        to: "withdrawals_in_flight",
      });
    }
    const asset = row.asset as Asset;
    const base = { db: asDb(tx), asset, reference: id, userId: row.userId, from: "withdrawals_in_flight" as const };
    await transfer({ ...base, key: ledgerKey.withdrawalConfirmed(id), kind: "withdrawal_confirmed", to: "onchain", amount: row.amount - row.fee });
    if (row.fee > 0n) await transfer({ ...base, key: ledgerKey.withdrawalFee(id), kind: "withdrawal_fee", to: "fees", amount: row.fee });
    await tx
      .update(withdrawal)
      .set({ status: "confirmed", attempts, confirmedAt: now, sentAt: row.sentAt ?? now, failure: null, waiting: false, updatedAt: now })
      .where(eq(withdrawal.id, id));
    await emitEvent(asDb(tx), {
      type: "withdrawal.confirmed",
      key: `withdrawal.confirmed:${id}`,
      projectId: null,
      data: { withdrawalId: id, userId: row.userId, asset: row.asset, amount: row.amount.toString(), chainId: row.chainId, txHash: row.txHash },
    });
    return true;
  });
}

/**
 * A sent attempt that can never pay: its amount comes back from in flight to held and the
 * withdrawal is `failed` with `failure` (Retry sends it again under the same id).
 */
export async function returnAttempt(db: Db, id: string, attempt: number, failure: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await lockRow(asDb(tx), id);
    if (!row || (row.status !== "sending" && row.status !== "sent") || row.attempts !== attempt) return false;
    const asset = row.asset as Asset;
    await post({
      db: asDb(tx),
      key: ledgerKey.withdrawalReturned(id, attempt),
      kind: "withdrawal_returned",
      userId: row.userId,
      reference: id,
      lines: [
        { holder: PLATFORM, name: "withdrawals_in_flight", asset, amount: -row.amount },
        { holder: row.userId, name: "held", asset, amount: row.amount },
      ],
    });
    await tx.update(withdrawal).set({ status: "failed", failure, updatedAt: new Date() }).where(eq(withdrawal.id, id));
    await emitFailed(asDb(tx), { ...row, failure }, String(attempt));
    return true;
  });
}
