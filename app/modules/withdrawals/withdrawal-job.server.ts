import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { TransactionReceiptNotFoundError, type Hex, type TransactionReceipt } from "viem";
import { withdrawal } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { isNodeUnreachable } from "~/modules/chain/node-errors.server";
import { lockOperatorSigner, prepareOperatorCall, signPrepared, type PreparedCall } from "~/modules/chain/operator-signer.server";
import { describeWithdrawalRevert, NODE_DOWN, nonceUsed, paidState, type WithdrawalChain, type WithdrawalChains } from "./withdrawal-chain.server";
import { confirmPaid, failUnsigned, markSent, recordSigned, returnAttempt, type SignedAttempt, type WithdrawalRow } from "./withdrawal-postings.server";
import { withdrawalsPaused } from "./withdrawal-pause.server";

/**
 * The withdrawal job: sends `requested` withdrawals through `DepositVault.withdraw` signed by the
 * operator, and follows `sending`/`sent` ones to `confirmed` or, only when an attempt provably
 * cannot land, to `failed`. A signed transaction is stored (with the ledger's held → in flight
 * posting) before it is broadcast, so a crash after that point re-broadcasts the same transaction.
 */

export type JobSummary = { sent: number; confirmed: number; failed: number; waiting: number };
type Run = {
  db: Db;
  chainId: number;
  chain: WithdrawalChain;
  now: Date;
  timeoutMs: number;
  summary: JobSummary;
  onError: (id: string, error: unknown) => void;
};

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** One run of the job over every chain (signing is serialized per chain, across processes and with airdrop rounds, so nonces never collide). */
export async function processWithdrawals({
  db,
  chains,
  now = new Date(),
  timeoutMs = DEFAULT_TIMEOUT_MS,
  onError = () => {},
}: {
  db: Db;
  chains: WithdrawalChains;
  now?: Date;
  timeoutMs?: number;
  /** A withdrawal whose step threw (it is left as it was, for the next run). */
  onError?: (id: string, error: unknown) => void;
}): Promise<JobSummary> {
  const summary: JobSummary = { sent: 0, confirmed: 0, failed: 0, waiting: 0 };
  const ready = [...chains].filter(([, chain]) => chain.operator).map(([chainId]) => chainId);
  // Paused by the operators: nothing new leaves (requests wait, a signed transaction is not
  // broadcast), but what is already on the network is still followed to its end.
  const paused = await withdrawalsPaused({ db });
  summary.waiting = await markWaiting(db, paused ? null : ready);
  for (const chainId of ready) {
    const run: Run = { db, chainId, chain: chains.get(chainId)!, now, timeoutMs, summary, onError };
    await followInFlight(run, { broadcastSigned: !paused });
    if (!paused) await sendRequested(run);
  }
  return summary;
}

/** Marks `requested` withdrawals on chains that cannot send (all when `ready` is null) as waiting, and the others not. */
async function markWaiting(db: Db, ready: number[] | null): Promise<number> {
  const requested = eq(withdrawal.status, "requested");
  if (ready?.length)
    await db
      .update(withdrawal)
      .set({ waiting: false })
      .where(and(requested, eq(withdrawal.waiting, true), inArray(withdrawal.chainId, ready)));
  const stays = ready?.length ? notInArray(withdrawal.chainId, ready) : undefined;
  await db
    .update(withdrawal)
    .set({ waiting: true })
    .where(and(requested, eq(withdrawal.waiting, false), stays));
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(withdrawal)
    .where(and(requested, eq(withdrawal.waiting, true)));
  return Number(row?.n ?? 0);
}

/**
 * Sends the run's chain's `requested` withdrawals one at a time: what the chain says about one is
 * read with no database transaction open (whether it was paid, the simulated call, gas and fees),
 * then it is claimed, signed and stored in one short transaction that asks no node anything, and
 * broadcast after that commits. A node that hangs holds no database connection.
 */
async function sendRequested(run: Run) {
  const seen: string[] = [];
  for (;;) {
    const [row] = await run.db
      .select()
      .from(withdrawal)
      .where(and(eq(withdrawal.status, "requested"), eq(withdrawal.chainId, run.chainId), seen.length ? notInArray(withdrawal.id, seen) : undefined))
      .orderBy(asc(withdrawal.createdAt))
      .limit(1);
    if (!row) return;
    seen.push(row.id);
    try {
      const outcome = await startAttempt(run, row);
      if (outcome.kind === "signed") await broadcast(run, outcome.id, outcome.attempt, outcome.signed);
      if (outcome.kind === "paid" && (await confirmPaid(run.db, outcome.id, run.now))) run.summary.confirmed += 1;
    } catch (error) {
      run.onError(row.id, error);
    }
  }
}

type Started =
  { kind: "signed"; id: string; attempt: number; signed: SignedAttempt } | { kind: "paid"; id: string } | { kind: "failed" | "wait" | "taken"; id: string };

/**
 * A paid id converges; otherwise the call is simulated (a revert fails the attempt in words,
 * nothing posted) and prepared, then, under the signer lock and the row's, signed (or a stored
 * transaction whose nonce is still free is reused) and recorded as `sending` with its held → in
 * flight posting. A row another run took or a member cancelled meanwhile is left alone.
 */
async function startAttempt(run: Run, row: WithdrawalRow): Promise<Started> {
  const id = row.id as Hex;
  const signer = { chainId: run.chainId, client: run.chain.client, wallet: run.chain.operator! };
  let prepared: { reuse: SignedAttempt } | { call: PreparedCall };
  try {
    const paid = await paidState(run.chain, id);
    if (paid !== "no") return { kind: paid === "confirmed" ? "paid" : "wait", id };
    prepared =
      row.rawTx && row.txHash && row.nonce !== null && !(await nonceUsed(run.chain, row.nonce))
        ? { reuse: { txHash: row.txHash, nonce: row.nonce, rawTx: row.rawTx } }
        : { call: await prepareOperatorCall(signer, { address: run.chain.vault, abi: depositVaultAbi, functionName: "withdraw", args: withdrawArgs(row) }) };
  } catch (error) {
    const reason = describeWithdrawalRevert(error) ?? (isNodeUnreachable(error) ? NODE_DOWN : null);
    if (!reason) run.onError(row.id, error);
    if (!(await failUnsigned(run.db, row.id, reason ?? "The withdrawal could not be prepared; nothing was paid. Retry later.")))
      return { kind: "taken", id: row.id };
    run.summary.failed += 1;
    return { kind: "failed", id: row.id };
  }
  const recorded = await run.db.transaction(async (tx) => {
    const signed = "reuse" in prepared ? (await lockOperatorSigner(tx, run.chainId), prepared.reuse) : await signPrepared(tx, signer, prepared.call);
    const [current] = await tx
      .select()
      .from(withdrawal)
      .where(and(eq(withdrawal.id, row.id), eq(withdrawal.status, "requested")))
      .for("update");
    if (!current || current.attempts !== row.attempts) return null;
    return { signed, attempt: await recordSigned(tx, current, signed) };
  });
  if (!recorded) return { kind: "taken", id: row.id };
  return { kind: "signed", id: row.id, attempt: recorded.attempt, signed: recorded.signed };
}

const withdrawArgs = (row: WithdrawalRow) => [row.id as Hex, row.toAddress as Hex, row.amount - row.fee] as const;

/**
 * Hands a signed transaction to the node. Accepted (or already known) → `sent`. A node that does
 * not answer leaves it `sending` (it may be in a mempool): the next run broadcasts it again. Any
 * other refusal (e.g. nonce too low) is settled by what the chain shows.
 */
async function broadcast(run: Run, id: string, attempt: number, signed: SignedAttempt) {
  try {
    await run.chain.client.sendRawTransaction({ serializedTransaction: signed.rawTx as Hex });
  } catch (error) {
    if (isNodeUnreachable(error)) return;
    if (!/already known|known transaction|already imported|already exists/i.test(String(error instanceof Error ? error.message : error))) {
      await settleByChain(run, { id, attempts: attempt, txHash: signed.txHash, nonce: signed.nonce }, "sending");
      return;
    }
  }
  await markSent(run.db, id, signed.txHash, run.now);
  run.summary.sent += 1;
}

/** Re-broadcasts `sending` withdrawals (a run cut short), then follows `sent` ones. */
async function followInFlight(run: Run, { broadcastSigned }: { broadcastSigned: boolean }) {
  const rows = await run.db
    .select()
    .from(withdrawal)
    .where(and(eq(withdrawal.chainId, run.chainId), inArray(withdrawal.status, broadcastSigned ? ["sending", "sent"] : ["sent"])))
    .orderBy(asc(withdrawal.nonce));
  for (const row of rows) {
    try {
      if (row.status === "sending") await broadcast(run, row.id, row.attempts, { txHash: row.txHash!, nonce: row.nonce!, rawTx: row.rawTx! });
      else await follow(run, row);
    } catch (error) {
      run.onError(row.id, error);
    }
  }
}

/** A `sent` withdrawal: confirmed with enough confirmations, returned when it cannot land, re-broadcast after the timeout. */
async function follow(run: Run, row: WithdrawalRow) {
  const settled = await settleByChain(run, { id: row.id, attempts: row.attempts, txHash: row.txHash!, nonce: row.nonce! }, "sent");
  if (settled || !row.sentAt || run.now.getTime() - row.sentAt.getTime() < run.timeoutMs) return;
  try {
    await run.chain.client.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
  } catch (error) {
    if (isNodeUnreachable(error)) return;
  }
  await run.db
    .update(withdrawal)
    .set({ sentAt: run.now, updatedAt: run.now })
    .where(and(eq(withdrawal.id, row.id), eq(withdrawal.status, "sent")));
}

type Attempt = { id: string; attempts: number; txHash: string; nonce: number };

/**
 * Decides an attempt by the chain: a paid id → `confirmed` (once deep enough); a mined revert or
 * a nonce another transaction used (and no receipt) → returned and `failed`. Returns whether it
 * decided; otherwise the attempt may still land and is left as it is.
 */
async function settleByChain(run: Run, attempt: Attempt, status: "sending" | "sent"): Promise<boolean> {
  const receipt = await receiptOf(run.chain, attempt.txHash);
  const paid = await paidState(run.chain, attempt.id as Hex);
  if (paid === "confirmed" || (receipt?.status === "success" && (await deepEnough(run.chain, receipt)))) {
    if (await confirmPaid(run.db, attempt.id, run.now)) run.summary.confirmed += 1;
    return true;
  }
  if (paid === "pending" || receipt?.status === "success") {
    if (status === "sending") await markSent(run.db, attempt.id, attempt.txHash, run.now);
    return true;
  }
  if (receipt?.status === "reverted") return fail(run, attempt, await revertReason(run, attempt.id));
  if (!(await nonceUsed(run.chain, attempt.nonce)) || (await receiptOf(run.chain, attempt.txHash))) return false;
  return fail(run, attempt, "Another transaction used the operator's nonce, so this attempt can never be paid; nothing was paid. Retry to send it again.");
}

async function fail(run: Run, attempt: Attempt, failure: string) {
  if (await returnAttempt(run.db, attempt.id, attempt.attempts, failure)) run.summary.failed += 1;
  return true;
}

async function receiptOf(chain: WithdrawalChain, hash: string): Promise<TransactionReceipt | null> {
  try {
    return await chain.client.getTransactionReceipt({ hash: hash as Hex });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

async function deepEnough(chain: WithdrawalChain, receipt: TransactionReceipt) {
  const tip = await chain.client.getBlockNumber();
  return tip - receipt.blockNumber + 1n >= BigInt(chain.confirmations);
}

/** Why a mined attempt reverted, by simulating the same call now (the state that refused it usually still holds). */
async function revertReason(run: Run, id: string): Promise<string> {
  const fallback = "The vault refused the payment on chain, so nothing was paid. Retry to send it again.";
  const [row] = await run.db.select().from(withdrawal).where(eq(withdrawal.id, id));
  if (!row) return fallback;
  try {
    await run.chain.client.simulateContract({
      account: run.chain.operator!.account,
      address: run.chain.vault,
      abi: depositVaultAbi,
      functionName: "withdraw",
      args: withdrawArgs(row),
    });
    return fallback;
  } catch (error) {
    return describeWithdrawalRevert(error) ?? fallback;
  }
}
