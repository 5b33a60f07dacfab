import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { withdrawal } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { isNodeUnreachable } from "~/modules/chain/node-errors.server";
import {
  broadcastOperatorTx,
  followOperatorTxs,
  lockOperatorSigner,
  operatorTxOf,
  prepareOperatorCall,
  storeOperatorTx,
  type OperatorSigner,
  outboxTiming,
  type OperatorTx,
  type OutboxWaits,
  REVERTED,
} from "~/modules/chain/operator-outbox.server";
import type { Asset } from "~/modules/ledger/assets";
import {
  describeWithdrawalRevert,
  NODE_DOWN,
  paidState,
  paymentCall,
  TOKEN_NOT_LISTED,
  type WithdrawalChain,
  type WithdrawalChains,
} from "./withdrawal-chain.server";
import { confirmPaid, failUnsigned, markSent, recordSigned, returnAttempt, type WithdrawalRow } from "./withdrawal-postings.server";
import { withdrawalsPaused } from "./withdrawal-pause.server";

/**
 * The withdrawal job: sends `requested` withdrawals through `DepositVault.withdraw` (QUEST) or
 * `withdrawToken` (another token of the chain's list, decision 056), signed by the operator through its outbox, and follows `sending`/`sent` ones to `confirmed` or, only when an
 * attempt provably cannot land, to `failed`. An attempt's transaction is stored (with the ledger's
 * held → in flight posting) before it is broadcast, so a crash after that point broadcasts the same
 * transaction again; the outbox replaces one stuck unmined with a higher fee.
 */

export type JobSummary = { sent: number; confirmed: number; failed: number; waiting: number };
type Run = {
  db: Db;
  chainId: number;
  chain: WithdrawalChain;
  signer: OperatorSigner;
  now: Date;
  summary: JobSummary;
  onError: (id: string, error: unknown) => void;
};

/** The outbox's key for a withdrawal's attempt: each attempt is signed at most once. */
export const withdrawalIntent = (id: string, attempt: number) => `withdrawal:${id}:${attempt}`;

/** One run of the job over every chain (signing is serialized per chain, across processes and with airdrop rounds, so nonces never collide). */
export async function processWithdrawals({
  db,
  chains,
  now = new Date(),
  onError = () => {},
  ...waits
}: {
  db: Db;
  chains: WithdrawalChains;
  now?: Date;
  /** A withdrawal whose step threw (it is left as it was, for the next run). */
  onError?: (id: string, error: unknown) => void;
} & OutboxWaits): Promise<JobSummary> {
  const summary: JobSummary = { sent: 0, confirmed: 0, failed: 0, waiting: 0 };
  const ready = [...chains].filter(([, chain]) => chain.operator).map(([chainId]) => chainId);
  // Paused by the operators: nothing new leaves (requests wait, a signed transaction is not
  // broadcast), but what is already on the network is still followed to its end.
  const paused = await withdrawalsPaused({ db });
  summary.waiting = await markWaiting(db, paused ? null : ready);
  for (const chainId of ready) {
    const chain = chains.get(chainId)!;
    const signer: OperatorSigner = { chainId, client: chain.client, wallet: chain.operator!, confirmations: chain.confirmations };
    await followOperatorTxs(db, signer, outboxTiming(now, waits, onError));
    const run: Run = { db, chainId, chain, signer, now, summary, onError };
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
      if (outcome.kind === "signed") await broadcast(run, row.id, outcome.sent);
      if (outcome.kind === "paid" && (await confirmPaid(run.db, row.id, run.now))) run.summary.confirmed += 1;
    } catch (error) {
      run.onError(row.id, error);
    }
  }
}

type Started = { kind: "signed"; sent: OperatorTx } | { kind: "paid" | "failed" | "wait" | "taken" };

/**
 * A paid id converges; otherwise the call is simulated (a revert fails the attempt in words,
 * nothing posted) and prepared, then, under the signer lock and the row's, signed into the outbox
 * and recorded as `sending` with its held → in flight posting. A row another run took or a member
 * cancelled meanwhile is left alone.
 */
async function startAttempt(run: Run, row: WithdrawalRow): Promise<Started> {
  const id = row.id as Hex;
  let prepared;
  try {
    const paid = await paidState(run.chain, id);
    if (paid !== "no") return { kind: paid === "confirmed" ? "paid" : "wait" };
    const call = paymentOf(run.chain, row);
    if (!call) {
      if (!(await failUnsigned(run.db, row.id, TOKEN_NOT_LISTED))) return { kind: "taken" };
      run.summary.failed += 1;
      return { kind: "failed" };
    }
    prepared = await prepareOperatorCall(run.signer, { address: run.chain.vault, abi: depositVaultAbi, ...call });
  } catch (error) {
    const reason = describeWithdrawalRevert(error) ?? (isNodeUnreachable(error) ? NODE_DOWN : null);
    if (!reason) run.onError(row.id, error);
    if (!(await failUnsigned(run.db, row.id, reason ?? "The withdrawal could not be prepared; nothing was paid. Retry later."))) return { kind: "taken" };
    run.summary.failed += 1;
    return { kind: "failed" };
  }
  const sent = await run.db.transaction(async (tx) => {
    await lockOperatorSigner(tx, run.chainId);
    const [current] = await tx
      .select()
      .from(withdrawal)
      .where(and(eq(withdrawal.id, row.id), eq(withdrawal.status, "requested")))
      .for("update");
    if (!current || current.attempts !== row.attempts) return null;
    const stored = await storeOperatorTx(tx, run.signer, { intentKey: withdrawalIntent(row.id, current.attempts + 1), prepared });
    await recordSigned(tx, current, stored);
    return stored;
  });
  return sent ? { kind: "signed", sent } : { kind: "taken" };
}

/** The vault call that pays the withdrawal, less its fee, in its asset; null where the chain's vault does not list the asset. */
const paymentOf = (chain: WithdrawalChain, row: WithdrawalRow) =>
  paymentCall(chain, row.asset as Asset, row.id as Hex, row.toAddress as Hex, row.amount - row.fee);

/** Hands an attempt's stored transaction to the node: taken (or already known) → `sent`; otherwise left `sending` for the next run. */
async function broadcast(run: Run, id: string, sent: OperatorTx) {
  if ((await broadcastOperatorTx(run.db, run.chain.client, sent, run.now)) !== "accepted") return;
  await markSent(run.db, id, sent.txHash, run.now);
  run.summary.sent += 1;
}

/** Broadcasts `sending` withdrawals' transactions (a run cut short), then settles in-flight ones by what the outbox and the chain show. */
async function followInFlight(run: Run, { broadcastSigned }: { broadcastSigned: boolean }) {
  const rows = await run.db
    .select()
    .from(withdrawal)
    .where(and(eq(withdrawal.chainId, run.chainId), inArray(withdrawal.status, ["sending", "sent"])))
    .orderBy(asc(withdrawal.nonce));
  for (const row of rows) {
    try {
      const sent = await operatorTxOf(run.db, withdrawalIntent(row.id, row.attempts));
      if (!sent) throw new Error(`withdrawal ${row.id}'s attempt ${row.attempts} has no stored transaction`);
      // Stored and not broadcast yet (a run cut short, a node that did not take it, a pause).
      if (sent.state === "stored") {
        if (broadcastSigned) await broadcast(run, row.id, sent);
      } else if (!(await settleByChain(run, row, sent))) await keepUp(run, row, sent);
    } catch (error) {
      run.onError(row.id, error);
    }
  }
}

/** The withdrawal shows the outbox's latest: the transaction that replaced a stuck one, and when it last went out. */
async function keepUp(run: Run, row: WithdrawalRow, sent: OperatorTx) {
  const status = row.status === "sending" ? "sent" : row.status;
  const sentAt = sent.broadcastAt ?? row.sentAt;
  if (row.txHash === sent.txHash && row.status === status && row.sentAt?.getTime() === sentAt?.getTime()) return;
  await run.db
    .update(withdrawal)
    .set({ status, txHash: sent.txHash, sentAt, updatedAt: run.now })
    .where(and(eq(withdrawal.id, row.id), eq(withdrawal.status, row.status), eq(withdrawal.attempts, row.attempts)));
  if (row.status === "sending") run.summary.sent += 1;
}

/**
 * Decides an attempt by the chain: a paid id → `confirmed` (once deep enough); a reverted
 * transaction, or its nonce taken by another → returned and `failed`. Returns whether it decided;
 * otherwise the attempt may still land and is left as it is.
 */
async function settleByChain(run: Run, row: WithdrawalRow, sent: OperatorTx): Promise<boolean> {
  const paid = await paidState(run.chain, row.id as Hex);
  if (paid === "confirmed" || (sent.state === "confirmed" && paid !== "no")) {
    if (await confirmPaid(run.db, row.id, run.now)) run.summary.confirmed += 1;
    return true;
  }
  if (paid === "pending") return false;
  if (sent.state === "failed")
    return fail(run, row, sent.failure === REVERTED ? await revertReason(run, row) : `${sent.failure} Nothing was paid; retry to send it again.`);
  if (sent.state === "replaced")
    return fail(run, row, "Another transaction used the operator's nonce, so this attempt can never be paid; nothing was paid. Retry to send it again.");
  return false;
}

async function fail(run: Run, row: WithdrawalRow, failure: string) {
  if (await returnAttempt(run.db, row.id, row.attempts, failure)) run.summary.failed += 1;
  return true;
}

/** Why a mined attempt reverted, by simulating the same call now (the state that refused it usually still holds). */
async function revertReason(run: Run, row: WithdrawalRow): Promise<string> {
  const fallback = "The vault refused the payment on chain, so nothing was paid. Retry to send it again.";
  const call = paymentOf(run.chain, row);
  if (!call) return TOKEN_NOT_LISTED;
  try {
    const on = { account: run.chain.operator!.account, address: run.chain.vault, abi: depositVaultAbi } as const;
    await (call.functionName === "withdraw"
      ? run.chain.client.simulateContract({ ...on, functionName: "withdraw", args: call.args })
      : run.chain.client.simulateContract({ ...on, functionName: "withdrawToken", args: call.args }));
    return fallback;
  } catch (error) {
    return describeWithdrawalRevert(error) ?? fallback;
  }
}
