import { createHash } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { deposit, journalEntry, PLATFORM } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import type { Asset } from "~/modules/ledger/assets";
import { ledgerKey } from "~/modules/ledger/keys";
import { credit, move, projectTreasury, transfer } from "~/modules/ledger/ledger.server";
import { emitEvent } from "~/modules/events/emit.server";
import { ownerOfRef } from "./deposit-refs.server";

/**
 * The state changes of one deposit, each with its ledger posting. Every function here runs
 * inside the caller's transaction and changes a row only from the status it expects (a
 * conditional update), so two scanners racing post each movement once; the idempotency keys
 * guard a second time.
 *
 *   seen      onchain → deposits_in_transit        (pending)
 *   assigned  onchain → deposits_in_transit        (an operator names the member of an unmatched one: pending)
 *   reorged   deposits_in_transit → onchain        (its block left the chain)
 *   credited  deposits_in_transit → member         (enough confirmations)
 */

export type DepositRecord = typeof deposit.$inferSelect;

/** A `Deposited` log as the scanner read it (parsed). */
export type DepositLog = {
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hex;
  from: Address;
  ref: Hex;
  amount: bigint;
};

/** The deposit's id: derived from where it happened, so it is the same whoever records it. */
export function depositIdOf(chainId: number, txHash: Hex, logIndex: number): string {
  return `dep_${createHash("sha256").update(`${chainId}:${txHash.toLowerCase()}:${logIndex}`).digest("hex").slice(0, 24)}`;
}

/** How often this deposit was reorged out before (0 the first time); keeps a flip-flopping deposit's keys unique. */
async function reorgsOf(tx: Db, depositId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(journalEntry)
    .where(and(eq(journalEntry.reference, depositId), eq(journalEntry.kind, "deposit_reorg")));
  return Number(row?.n ?? 0);
}

function postSeen(
  tx: Db,
  row: Pick<DepositRecord, "id" | "chainId" | "txHash" | "logIndex" | "blockHash" | "asset" | "amount">,
  reorgs: number,
  memo: string | null = null,
) {
  return transfer({
    db: tx,
    key: ledgerKey.depositSeen(row.chainId, row.txHash, row.logIndex, row.blockHash, reorgs),
    kind: "deposit_seen",
    reference: row.id,
    memo,
    asset: row.asset as Asset,
    amount: row.amount,
    from: "onchain",
    to: "deposits_in_transit",
  });
}

/**
 * Records one log: a new deposit becomes `pending` (its "seen" entry posted) or `unmatched` when
 * its reference is nobody's. A known deposit found in another block than the one stored was
 * reorged out of it and included again: it is reversed (if still pending) and pending again in
 * the new block. Returns whether a "seen" entry was posted.
 */
export async function recordDepositLog(
  tx: Db,
  { chainId, asset, required, confirmations, log }: { chainId: number; asset: Asset; required: number; confirmations: number; log: DepositLog },
): Promise<boolean> {
  const id = depositIdOf(chainId, log.txHash, log.logIndex);
  const owner = await ownerOfRef({ db: tx, ref: log.ref });
  const [inserted] = await tx
    .insert(deposit)
    .values({
      id,
      chainId,
      txHash: log.txHash,
      logIndex: log.logIndex,
      blockNumber: Number(log.blockNumber),
      blockHash: log.blockHash,
      fromAddress: log.from,
      ref: log.ref,
      userId: owner?.userId ?? null,
      projectId: owner?.projectId ?? null,
      asset,
      amount: log.amount,
      status: owner ? "pending" : "unmatched",
      confirmations,
      required,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) {
    if (inserted.status === "pending") await postSeen(tx, inserted, 0);
    return inserted.status === "pending";
  }
  const [known] = await tx.select().from(deposit).where(eq(deposit.id, id));
  if (!known || known.blockHash === log.blockHash || (known.status !== "pending" && known.status !== "reorged")) return false;
  if (known.status === "pending") await reorgDeposit(tx, known);
  return reincludeDeposit(tx, known, { log, required, confirmations });
}

/** Marks a pending deposit whose block left the chain `reorged` and takes its amount out of transit. */
export async function reorgDeposit(tx: Db, row: DepositRecord): Promise<boolean> {
  const [updated] = await tx
    .update(deposit)
    .set({ status: "reorged", updatedAt: sql`now()` })
    .where(and(eq(deposit.id, row.id), eq(deposit.status, "pending"), eq(deposit.blockHash, row.blockHash)))
    .returning({ id: deposit.id });
  if (!updated) return false;
  await transfer({
    db: tx,
    key: ledgerKey.depositReorg(row.id, row.blockHash, await reorgsOf(tx, row.id)),
    kind: "deposit_reorg",
    reference: row.id,
    asset: row.asset as Asset,
    amount: row.amount,
    from: "deposits_in_transit",
    to: "onchain",
  });
  return true;
}

/** A reorged deposit seen again in a new block: pending again there, with a new "seen" entry. */
async function reincludeDeposit(
  tx: Db,
  row: DepositRecord,
  { log, required, confirmations }: { log: DepositLog; required: number; confirmations: number },
): Promise<boolean> {
  const [updated] = await tx
    .update(deposit)
    .set({ status: "pending", blockNumber: Number(log.blockNumber), blockHash: log.blockHash, confirmations, required, updatedAt: sql`now()` })
    .where(and(eq(deposit.id, row.id), eq(deposit.status, "reorged")))
    .returning();
  if (!updated) return false;
  await postSeen(tx, updated, await reorgsOf(tx, row.id));
  return true;
}

/** Credits a pending deposit to its member or its project's treasury, once: only the update that finds it pending posts. */
export async function creditDeposit(tx: Db, row: DepositRecord, confirmations: number): Promise<boolean> {
  if (!row.userId && !row.projectId) return false;
  const [updated] = await tx
    .update(deposit)
    .set({ status: "credited", confirmations, creditedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(deposit.id, row.id), eq(deposit.status, "pending"), eq(deposit.blockHash, row.blockHash)))
    .returning({ id: deposit.id });
  if (!updated) return false;
  const posting = {
    db: tx,
    key: ledgerKey.depositCredit(row.chainId, row.txHash, row.logIndex),
    reference: row.id,
    asset: row.asset as Asset,
    amount: row.amount,
  };
  if (row.userId) {
    await credit({ ...posting, from: "deposits_in_transit", kind: "deposit", userId: row.userId });
    // A member's own money: no project's webhook hears of it.
    await emitEvent(tx, {
      type: "deposit.credited",
      key: `deposit.credited:${row.id}`,
      projectId: null,
      data: { depositId: row.id, userId: row.userId, asset: row.asset, amount: row.amount.toString(), chainId: row.chainId, txHash: row.txHash },
    });
  } else await move({ ...posting, kind: "project_deposit", from: { holder: PLATFORM, name: "deposits_in_transit" }, to: projectTreasury(row.projectId!) });
  return true;
}

/**
 * An operator names the member an unmatched deposit was meant for: it becomes theirs and
 * `pending`, and the scanner credits it as any other (after checking its block is still the
 * chain's). Only the update that finds it unmatched posts; the memo says who assigned it.
 */
export async function assignDeposit(tx: Db, { depositId, userId, memo }: { depositId: string; userId: string; memo: string }): Promise<boolean> {
  const [updated] = await tx
    .update(deposit)
    .set({ status: "pending", userId, updatedAt: sql`now()` })
    .where(and(eq(deposit.id, depositId), eq(deposit.status, "unmatched")))
    .returning();
  if (!updated) return false;
  await postSeen(tx, updated, 0, memo);
  return true;
}
