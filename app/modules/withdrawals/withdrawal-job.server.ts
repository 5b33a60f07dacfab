import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { withdrawal } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { isNodeUnreachable } from "~/modules/chain/node-errors.server";
import {
  broadcastOperatorTx,
  lockOperatorSigner,
  operatorTxOf,
  prepareOperatorCall,
  storeOperatorTx,
  type OperatorSigner,
  type OperatorTx,
  type PreparedCall,
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
 * `withdrawToken` (another token of the chain's list, decision 056), signed by the operator through
 * its outbox, and settles `sending`/`sent` ones to `confirmed` or, only when an attempt provably
 * cannot land, to `failed`, from what the outbox's follower job (`followOperatorOutbox`, its own
 * queue per chain) recorded and the vault's paid map. An attempt's transaction is stored (with the
 * ledger's held → in flight posting) before it is broadcast, so a crash after that point broadcasts
 * the same transaction again; the follower replaces one stuck unmined with a higher fee.
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

/**
 * One run of the job over every chain (signing is serialized per chain, across processes and with
 * airdrop rounds, so nonces never collide). Receipts are not followed here: the chain's outbox
 * follower job does that, and an attempt settles from the state it left.
 */
export async function processWithdrawals({
  db,
  chains,
  now = new Date(),
  onError = () => {},
}: {
  db: Db;
  chains: WithdrawalChains;
  now?: Date;
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
    const chain = chains.get(chainId)!;
    const signer: OperatorSigner = { chainId, client: chain.client, wallet: chain.operator!, confirmations: chain.confirmations };
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
 * Sends the run's chain's `requested` withdrawals one at a time, oldest first. Each pass picks the
 * next one and claims it in one short transaction that asks no node anything (the chain's signer
 * lock, the row's lock, skipping rows another run holds): when the call prepared for the row as it
 * stands is in hand, it is signed into the outbox and recorded as `sending` there, and broadcast
 * after that commits; otherwise the transaction only picks it, and what the chain says about it
 * (whether it was paid, the simulated call, gas and fees) is read with no transaction open before
 * the next pass. A node that hangs holds no database connection.
 */
async function sendRequested(run: Run) {
  /** Rows this run has decided on, or leaves for the next (paid and not yet deep enough, a step that threw). */
  const passed: string[] = [];
  let ready: Ready | null = null;
  for (;;) {
    const claim = await pickAndClaim(run, passed, ready);
    ready = null;
    if (claim.kind === "none") return;
    if (claim.kind === "signed") {
      await broadcast(run, claim.id, claim.sent).catch((error: unknown) => run.onError(claim.id, error));
      continue;
    }
    try {
      ready = await readChain(run, claim.row);
    } catch (error) {
      run.onError(claim.row.id, error);
    }
    if (!ready) passed.push(claim.row.id);
  }
}

/** The payment prepared for a row at its attempts count: signed if the next pick finds the row as it was. */
type Ready = { id: string; attempts: number; prepared: PreparedCall };

type Claim = { kind: "none" } | { kind: "picked"; row: WithdrawalRow } | { kind: "signed"; id: string; sent: OperatorTx };

/** One transaction, no node call: the next `requested` row of the chain, locked; signed into the outbox and recorded when `ready` is its call. */
async function pickAndClaim(run: Run, passed: string[], ready: Ready | null): Promise<Claim> {
  return run.db.transaction(async (tx): Promise<Claim> => {
    await lockOperatorSigner(tx, run.chainId);
    const [row] = await tx
      .select()
      .from(withdrawal)
      .where(and(eq(withdrawal.status, "requested"), eq(withdrawal.chainId, run.chainId), passed.length ? notInArray(withdrawal.id, passed) : undefined))
      .orderBy(asc(withdrawal.createdAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return { kind: "none" };
    if (ready?.id !== row.id || ready.attempts !== row.attempts) return { kind: "picked", row };
    const sent = await storeOperatorTx(tx, run.signer, { intentKey: withdrawalIntent(row.id, row.attempts + 1), prepared: ready.prepared });
    await recordSigned(tx, row, sent);
    return { kind: "signed", id: row.id, sent };
  });
}

/**
 * What the chain says about a picked row, with no transaction open. A paid id converges (confirmed
 * once deep enough); otherwise the call is simulated (a revert fails the attempt in words, nothing
 * posted) and prepared, to be signed by the next pick. Null when there is nothing to sign: decided,
 * left to the next run, or changed by another meanwhile.
 */
async function readChain(run: Run, row: WithdrawalRow): Promise<Ready | null> {
  try {
    const paid = await paidState(run.chain, row.id as Hex);
    if (paid === "confirmed" && (await confirmPaid(run.db, row.id, run.now))) run.summary.confirmed += 1;
    if (paid !== "no") return null;
    const call = paymentOf(run.chain, row);
    if (!call) {
      if (await failUnsigned(run.db, row.id, TOKEN_NOT_LISTED)) run.summary.failed += 1;
      return null;
    }
    const prepared = await prepareOperatorCall(run.signer, { address: run.chain.vault, abi: depositVaultAbi, ...call });
    return { id: row.id, attempts: row.attempts, prepared };
  } catch (error) {
    const reason = describeWithdrawalRevert(error) ?? (isNodeUnreachable(error) ? NODE_DOWN : null);
    if (!reason) run.onError(row.id, error);
    if (await failUnsigned(run.db, row.id, reason ?? "The withdrawal could not be prepared; nothing was paid. Retry later.")) run.summary.failed += 1;
    return null;
  }
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
