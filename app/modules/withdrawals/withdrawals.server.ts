import { randomBytes } from "node:crypto";
import { and, desc, eq, notInArray, sql } from "drizzle-orm";
import { parseUnits, type Hex } from "viem";
import { withdrawal, type WithdrawalStatus } from "#db/schema/ledger";
import { walletAddress } from "#db/schema/wallets";
import { rowsOf, type Db } from "~/lib/db.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import type { Env } from "~/services/env.server";
import { chainToken, type RegisteredChain } from "~/modules/chain/chain-registry.server";
import { assetAmount, assetParts, QUEST_DECIMALS, type Asset } from "~/modules/ledger/assets";
import { hold, InsufficientFunds, release } from "~/modules/ledger/ledger.server";
import { explorerTxUrl } from "~/wallet/chain-details";
import { nonceUsed, paidState, type WithdrawalChain, type WithdrawalChains } from "./withdrawal-chain.server";
import type { WithdrawalInput } from "./withdrawal.schema";
import { ledgerKey } from "~/modules/ledger/keys";

/**
 * Members' withdrawals (the Balance screen's Withdraw): a request holds the amount at once; the
 * withdrawal job (withdrawal-job.server.ts) pays it through `DepositVault.withdraw` under the
 * withdrawal's id, which the vault pays at most once, and moves the ledger along.
 */

export type WithdrawalLimits = { minimum: bigint; dailyLimit: bigint; fee: bigint };

/** The configured minimum, daily limit and fee, in base units. */
export function withdrawalLimits(env: Pick<Env, "WITHDRAWAL_MIN" | "WITHDRAWAL_DAILY_LIMIT" | "WITHDRAWAL_FEE">): WithdrawalLimits {
  return {
    minimum: parseUnits(env.WITHDRAWAL_MIN, QUEST_DECIMALS),
    dailyLimit: parseUnits(env.WITHDRAWAL_DAILY_LIMIT, QUEST_DECIMALS),
    fee: parseUnits(env.WITHDRAWAL_FEE, QUEST_DECIMALS),
  };
}

/**
 * A withdrawal action's outcome. Every refusal is a field's (`amount`, `destination`) or the whole
 * form's (a cancel or retry the withdrawal's state refuses): the Balance screen answers them 400.
 */
export type ActionResult<T extends object = object> = Ok<T> | FieldFailure;

/** A withdrawal id: 32 random bytes, the vault's `withdrawalId`. */
const newWithdrawalId = (): Hex => `0x${randomBytes(32).toString("hex")}`;

type WithdrawalRequest = {
  db: Db;
  userId: string;
  input: WithdrawalInput;
  limits: WithdrawalLimits;
  /**
   * The chains, whose entries list the tokens each vault pays: an asset other than QUEST is taken
   * only where its chain's vault lists it. Without them, only QUEST (on any chain) is taken.
   */
  chains?: { get: (chainId: number) => Pick<RegisteredChain, "tokens"> | undefined };
};

/**
 * The decimals of the token a withdrawal of `asset` pays, or null where its chain's vault does not
 * list it. QUEST is on every vault (its chain may be without a node for now: the request waits).
 */
function withdrawableDecimals(asset: Asset, chains: WithdrawalRequest["chains"]): number | null {
  const { symbol, chainId } = assetParts(asset);
  if (symbol === "QUEST") return QUEST_DECIMALS;
  const chain = chains?.get(chainId);
  return (chain && chainToken(chain, symbol)?.decimals) ?? null;
}

/**
 * The request in its token's own units: the form reads an amount with 18 decimals and the limits
 * are configured in whole tokens, both taken as that many whole tokens of the asset (1 USDC of
 * fee for a USDC withdrawal). Refused in words where the amount has more decimals than the token.
 */
function inTokenUnits(input: WithdrawalInput, limits: WithdrawalLimits, decimals: number): { input: WithdrawalInput; limits: WithdrawalLimits } | FieldFailure {
  const scale = 10n ** BigInt(QUEST_DECIMALS - decimals);
  if (scale === 1n) return { input, limits };
  const { symbol } = assetParts(input.asset);
  if (input.amount % scale !== 0n) return invalid("amount", `${symbol} has ${decimals} decimals: enter at most ${decimals} digits after the point.`);
  return { input: { ...input, amount: input.amount / scale }, limits: limitsInToken(limits, decimals) };
}

/**
 * The configured limits (whole tokens, kept in 18 decimals) in the units of a token of `decimals`:
 * the minimum and the fee rounded up, the daily limit down. What a request of that token is held
 * to, and what the Withdraw form shows.
 */
export function limitsInToken(limits: WithdrawalLimits, decimals: number): WithdrawalLimits {
  const scale = 10n ** BigInt(QUEST_DECIMALS - decimals);
  const up = (units: bigint) => (units + scale - 1n) / scale;
  return { minimum: up(limits.minimum), dailyLimit: limits.dailyLimit / scale, fee: up(limits.fee) };
}

/**
 * Requests a withdrawal to one of the member's linked wallets and holds the amount, in one
 * transaction. A repeated `requestKey` returns the first withdrawal. The daily limit is checked
 * under a per-member lock, so concurrent requests cannot pass it together. The asset must be a
 * token its chain's vault lists (decision 056); its amounts are in that token's decimals.
 */
export async function requestWithdrawal({ db, userId, input: typed, limits: configured, chains }: WithdrawalRequest): Promise<ActionResult<{ id: string }>> {
  const earlier = await findByRequestKey(db, userId, typed.requestKey);
  if (earlier) return ok({ id: earlier });
  const decimals = withdrawableDecimals(typed.asset, chains);
  if (decimals === null) {
    const { symbol, chainId } = assetParts(typed.asset);
    // The whole form's error: the Withdraw card names its asset in a hidden field.
    return invalid("form", `${symbol} cannot be withdrawn on chain ${chainId}: that chain's vault does not take it.`);
  }
  const scaled = inTokenUnits(typed, configured, decimals);
  if (!("input" in scaled)) return scaled;
  const { input, limits } = scaled;
  const amountOf = (units: bigint) => assetAmount(units, input.asset, decimals);
  const refused = await validateRequest({ db, userId, input, limits, amountOf });
  if (refused) return refused;
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`withdrawal:${userId}`}))`);
      const again = await findByRequestKey(tx, userId, input.requestKey);
      if (again) return ok({ id: again });
      const room = limits.dailyLimit - (await withdrawnToday(tx, userId, input.asset));
      if (input.amount > room) {
        return invalid(
          "amount",
          room > 0n
            ? `That is over your daily withdrawal limit: you may withdraw ${amountOf(room)} more today.`
            : `You have reached your daily withdrawal limit of ${amountOf(limits.dailyLimit)}. Try again tomorrow.`,
        );
      }
      const id = newWithdrawalId();
      await tx.insert(withdrawal).values({
        id,
        userId,
        chainId: assetParts(input.asset).chainId,
        asset: input.asset,
        toAddress: input.destination,
        amount: input.amount,
        fee: limits.fee,
        requestKey: input.requestKey,
      });
      await hold({
        db: tx,
        key: ledgerKey.withdrawalHold(id),
        kind: "withdrawal_hold",
        userId,
        reference: id,
        asset: input.asset,
        amount: input.amount,
      });
      return ok({ id });
    });
  } catch (error) {
    if (error instanceof InsufficientFunds) return invalid("amount", "You do not have enough available balance.");
    throw error;
  }
}

async function findByRequestKey(db: Db, userId: string, requestKey: string): Promise<string | null> {
  const [row] = await db
    .select({ id: withdrawal.id })
    .from(withdrawal)
    .where(and(eq(withdrawal.userId, userId), eq(withdrawal.requestKey, requestKey)));
  return row?.id ?? null;
}

/** The checks that need no lock: a linked destination, the minimum, more than the fee. */
async function validateRequest({
  db,
  userId,
  input,
  limits,
  amountOf,
}: Omit<WithdrawalRequest, "chains"> & { amountOf: (units: bigint) => string }): Promise<FieldFailure | null> {
  const [linked] = await db
    .select({ id: walletAddress.id })
    .from(walletAddress)
    .where(and(eq(walletAddress.userId, userId), sql`lower(${walletAddress.address}) = ${input.destination.toLowerCase()}`))
    .limit(1);
  if (!linked) return invalid("destination", "Choose one of your linked wallets: withdrawals go only to a wallet you signed in with.");
  if (input.amount < limits.minimum) return invalid("amount", `The smallest withdrawal is ${amountOf(limits.minimum)}.`);
  if (input.amount <= limits.fee) return invalid("amount", `The amount must be more than the ${amountOf(limits.fee)} fee.`);
  return null;
}

/** What the member asked to withdraw of `asset` in the last 24 hours, cancelled requests aside. */
async function withdrawnToday(db: Db, userId: string, asset: Asset): Promise<bigint> {
  const [row] = rowsOf(
    await db.execute(sql`
      select coalesce(sum(amount), 0)::text as total from withdrawal
      where user_id = ${userId} and asset = ${asset} and status <> 'cancelled' and created_at > now() - interval '24 hours'`),
  );
  return BigInt(String(row!.total));
}

/** A cancel or retry refused: the whole form's error. */
const refuse = (message: string) => invalid("form", message);
const NOT_FOUND = refuse("That withdrawal was not found.");

/**
 * Cancels a withdrawal and releases its hold: a `requested` one, or a `failed` one, only when no
 * earlier attempt can still land (the vault has not paid it and the operator's nonce has moved
 * past the attempt's). Only its owner may cancel it.
 */
export async function cancelWithdrawal({ db, userId, id, chains }: { db: Db; userId: string; id: string; chains?: WithdrawalChains }): Promise<ActionResult> {
  const [row] = await db
    .select()
    .from(withdrawal)
    .where(and(eq(withdrawal.id, id), eq(withdrawal.userId, userId)));
  if (!row) return NOT_FOUND;
  if (row.status !== "requested" && row.status !== "failed") return refuse(cancelRefusal(row.status));
  if (row.nonce !== null) {
    const chain = chains?.get(row.chainId);
    const settled = chain ? await earlierAttemptSettled(chain, row.id as Hex, row.nonce).catch(() => false) : false;
    if (!settled) return refuse("This withdrawal cannot be cancelled yet: an earlier attempt may still be paid. Try again in a few minutes.");
  }
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(withdrawal).where(eq(withdrawal.id, id)).for("update");
    if (!locked || (locked.status !== "requested" && locked.status !== "failed") || locked.nonce !== row.nonce) {
      return refuse("This withdrawal changed in the meantime. Reload the page and try again.");
    }
    await release({
      db: tx,
      key: ledgerKey.withdrawalRelease(id),
      kind: "withdrawal_release",
      userId,
      reference: id,
      asset: locked.asset as Asset,
      amount: locked.amount,
    });
    await tx.update(withdrawal).set({ status: "cancelled", waiting: false, updatedAt: new Date() }).where(eq(withdrawal.id, id));
    return ok();
  });
}

/** No earlier attempt can still pay: the vault has not paid the id and the operator's nonce moved past the attempt's. */
async function earlierAttemptSettled(chain: WithdrawalChain, id: Hex, nonce: number) {
  return (await nonceUsed(chain, nonce)) && (await paidState(chain, id)) === "no";
}

function cancelRefusal(status: WithdrawalStatus): string {
  if (status === "cancelled") return "This withdrawal is already cancelled.";
  if (status === "confirmed") return "This withdrawal has been paid, so it cannot be cancelled.";
  return "This withdrawal is being sent on chain, so it cannot be cancelled.";
}

/** Sends a `failed` withdrawal again under the same id (the vault pays an id once). Only its owner may. */
export async function retryWithdrawal({ db, userId, id }: { db: Db; userId: string; id: string }): Promise<ActionResult> {
  const updated = await db
    .update(withdrawal)
    .set({ status: "requested", failure: null, waiting: false, updatedAt: new Date() })
    .where(and(eq(withdrawal.id, id), eq(withdrawal.userId, userId), eq(withdrawal.status, "failed")))
    .returning({ id: withdrawal.id });
  if (updated.length) return ok();
  const [row] = await db
    .select({ status: withdrawal.status })
    .from(withdrawal)
    .where(and(eq(withdrawal.id, id), eq(withdrawal.userId, userId)));
  if (!row) return NOT_FOUND;
  return refuse("Only a failed withdrawal can be retried.");
}

export type WithdrawalView = {
  id: string;
  status: WithdrawalStatus;
  asset: Asset;
  chainId: number;
  amount: bigint;
  fee: bigint;
  toAddress: string;
  txHash: string | null;
  explorerUrl: string | null;
  failure: string | null;
  waiting: boolean;
  attempts: number;
  createdAt: Date;
  sentAt: Date | null;
  confirmedAt: Date | null;
  canCancel: boolean;
  canRetry: boolean;
};

/** A member's withdrawals, newest first. */
export async function listWithdrawals({ db, userId, limit = 20 }: { db: Db; userId: string; limit?: number }): Promise<WithdrawalView[]> {
  const rows = await db.select().from(withdrawal).where(eq(withdrawal.userId, userId)).orderBy(desc(withdrawal.createdAt), desc(withdrawal.id)).limit(limit);
  return rows.map(viewOf);
}

/** A withdrawal is settled once paid or cancelled: its amount is no longer held. */
const SETTLED: WithdrawalStatus[] = ["confirmed", "cancelled"];

/**
 * Every withdrawal of a member not settled yet, however old, newest first: requested, being sent,
 * sent and waiting for confirmations, or failed with its amount still held (to retry or cancel).
 */
export async function withdrawalsUnderWay({ db, userId }: { db: Db; userId: string }): Promise<WithdrawalView[]> {
  const rows = await db
    .select()
    .from(withdrawal)
    .where(and(eq(withdrawal.userId, userId), notInArray(withdrawal.status, SETTLED)))
    .orderBy(desc(withdrawal.createdAt), desc(withdrawal.id));
  return rows.map(viewOf);
}

function viewOf(row: typeof withdrawal.$inferSelect): WithdrawalView {
  return {
    id: row.id,
    status: row.status,
    asset: row.asset as Asset,
    chainId: row.chainId,
    amount: row.amount,
    fee: row.fee,
    toAddress: row.toAddress,
    txHash: row.txHash,
    explorerUrl: row.txHash ? explorerTxUrl(row.chainId, row.txHash) : null,
    failure: row.failure,
    waiting: row.waiting,
    attempts: row.attempts,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
    confirmedAt: row.confirmedAt,
    canCancel: row.status === "requested" || row.status === "failed",
    canRetry: row.status === "failed",
  };
}
