import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Hex } from "viem";
import { campaign } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { assetParts } from "~/modules/ledger/assets";
import { authorize } from "~/modules/projects/permissions.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { InsufficientFunds } from "~/modules/ledger/ledger.server";
import { setEscrow, treasuryShortBy } from "./escrow.server";
import { CAMPAIGN_ENTERED, LIVE_POOL } from "./promise-words";
import { campaignEntered, tightensGate } from "./promises.server";
import { commitmentOf } from "./raffle-proof";
import { poolMaximum, type RewardPoolInput } from "./reward.schema";
import type { Gate } from "~/modules/trust/trust-types";

export type RewardPool = typeof rewardPool.$inferSelect;

/**
 * Every refusal here is a field's (the whole form's when no field is at fault): the reward forms
 * answer them all with 400, an ended campaign or a paid reward included.
 */
type Saved<T> = Ok<{ value: T }> | FieldFailure;
const ENDED = invalid("form", "This campaign has ended: its rewards can no longer change.");
const GONE = invalid("form", "This reward does not exist any more.");
const PAID = invalid("form", "This reward has been paid: it can no longer change.");
const NO_DRAW_CHAIN = invalid("distribution", "Raffles need a chain to draw from, and none is configured here.");
const KIND_FIXED = invalid("kind", "What a reward pays cannot change once saved: delete it and add another.");

/** The stored pool's terms, amounts as bigint. */
export function poolTerms(pool: RewardPool): RewardPoolInput {
  return {
    kind: pool.kind,
    asset: pool.asset as RewardPoolInput["asset"],
    distribution: pool.distribution,
    winners: pool.winners,
    amount: pool.amount,
    rankAmounts: pool.rankAmounts?.map((a) => BigInt(a)) ?? null,
  };
}

const stored = (input: RewardPoolInput) => ({ ...input, rankAmounts: input.rankAmounts?.map(String) ?? null });

/**
 * The campaign a team member manages rewards of: they must be its project's owner or admin
 * (`rewards.manage`, else a 403 is thrown), and the campaign must not have ended.
 */
async function managedCampaign(db: Db, campaignId: string, actorId: string, now: Date) {
  const [c] = await db.select().from(campaign).where(eq(campaign.id, campaignId));
  if (!c) return null;
  await authorize({ db, projectId: c.projectId, userId: actorId, action: "rewards.manage" });
  return { campaign: c, status: campaignStatus(c, now) };
}

/**
 * Why a token pool's escrow cannot go down (`lower`) or away (`delete`), or null: its campaign is
 * live, or a member has entered it, whatever its status now (promises.server.ts).
 */
async function promiseKept(tx: Db, managed: { campaign: { id: string }; status: string }, change: "lower" | "delete") {
  if (managed.status === "live") return LIVE_POOL[change];
  return (await campaignEntered(tx, managed.campaign.id)) ? CAMPAIGN_ENTERED[change] : null;
}

/** A token pool's treasury shortfall as the amount field's message (the field the total comes from). */
async function shortfall(db: Db, projectId: string, input: RewardPoolInput, decimals: number | undefined) {
  const field = input.distribution === "everyone" ? "total" : input.distribution === "ranking" ? "rankAmounts" : "amount";
  return invalid(field, await treasuryShortBy({ db, projectId, asset: input.asset!, needed: poolMaximum(input), decimals }));
}

/**
 * Adds a pool to a campaign that has not ended. A token pool takes its whole maximum from the
 * project's treasury into its escrow in the same transaction (refused, with nothing saved, when
 * the treasury is short). A raffle gets its secret now and shows its commitment from now on;
 * `raffleChainId` names the chain whose block will seed an XP raffle (a token raffle uses its
 * token's chain).
 */
export async function createRewardPool({
  db,
  campaignId,
  actorId,
  input,
  gate = null,
  decimals,
  raffleChainId = null,
  now = new Date(),
}: {
  db: Db;
  campaignId: string;
  actorId: string;
  input: RewardPoolInput;
  /** Who may win it besides the campaign's own gate (parsed and checked by the gate form); null: every entrant. */
  gate?: Gate | null;
  /** A token pool's asset's decimals, in which a treasury shortfall is told (QUEST's 18 unless given). */
  decimals?: number;
  raffleChainId?: number | null;
  now?: Date;
}): Promise<Saved<RewardPool>> {
  const managed = await managedCampaign(db, campaignId, actorId, now);
  if (!managed) return invalid("form", "This campaign does not exist.");
  if (managed.status === "ended") return ENDED;
  const raffle = input.distribution === "raffle" ? raffleCommitment(chainOfRaffle(input, raffleChainId)) : {};
  if (raffle === null) return NO_DRAW_CHAIN;
  try {
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(rewardPool)
        .values({ id: randomUUID(), campaignId, ...stored(input), gate, ...raffle, createdBy: actorId, createdAt: now, updatedAt: now })
        .returning();
      await setEscrow(tx, { pool: row!, projectId: managed.campaign.projectId, target: poolMaximum(input), now });
      return row!;
    });
    return ok({ value: (await poolIn(db, campaignId, created.id))! });
  } catch (error) {
    if (error instanceof InsufficientFunds) return shortfall(db, managed.campaign.projectId, input, decimals);
    throw error;
  }
}

/** A token raffle draws from its token's chain, an XP raffle from the server's draw chain. */
const chainOfRaffle = (input: RewardPoolInput, raffleChainId: number | null) => (input.asset ? assetParts(input.asset).chainId : raffleChainId);

/** A new raffle's secret and its SHA-256 commitment, and the chain that will seed it; null without one. */
function raffleCommitment(chainId: number | null) {
  if (chainId === null) return null;
  const secret: Hex = `0x${randomBytes(32).toString("hex")}`;
  return { secret, commitment: commitmentOf(secret), drawChainId: chainId };
}

/**
 * Changes a pool that is still open, while its campaign has not ended. A token pool's escrow
 * follows its new maximum (the difference moves to or from the treasury); a token pool of a live
 * campaign, or of one a member has entered, can be raised, not lowered, since members are already
 * working for it.
 */
export async function updateRewardPool({
  db,
  campaignId,
  poolId,
  actorId,
  input,
  gate,
  decimals,
  raffleChainId = null,
  now = new Date(),
}: {
  db: Db;
  campaignId: string;
  poolId: string;
  actorId: string;
  input: RewardPoolInput;
  /** Who may win it besides the campaign's own gate; null: every entrant; left out: unchanged. */
  gate?: Gate | null;
  /** A token pool's asset's decimals, in which a treasury shortfall is told (QUEST's 18 unless given). */
  decimals?: number;
  raffleChainId?: number | null;
  now?: Date;
}): Promise<Saved<RewardPool>> {
  const managed = await managedCampaign(db, campaignId, actorId, now);
  if (!managed) return GONE;
  if (managed.status === "ended") return ENDED;
  try {
    const outcome = await db.transaction(async (tx): Promise<Saved<RewardPool>> => {
      const [locked] = await tx
        .select()
        .from(rewardPool)
        .where(and(eq(rewardPool.id, poolId), eq(rewardPool.campaignId, campaignId)))
        .for("update");
      if (!locked) return GONE;
      if (locked.status !== "open") return PAID;
      if (locked.kind !== input.kind || locked.asset !== input.asset) return KIND_FIXED;
      if (locked.distribution === "raffle" && input.distribution !== "raffle") {
        return invalid("distribution", "A raffle stays a raffle: its commitment is published. Delete it and add another reward.");
      }
      const target = input.kind === "token" ? poolMaximum(input) : 0n;
      if (target < locked.escrowed) {
        const kept = await promiseKept(tx, managed, "lower");
        if (kept) return invalid(input.distribution === "everyone" ? "total" : input.distribution === "ranking" ? "rankAmounts" : "amount", kept);
      }
      if (tightensGate(locked.gate, gate) && (await campaignEntered(tx, campaignId))) return invalid("gate.combine", CAMPAIGN_ENTERED.gate);
      const raffle = input.distribution === "raffle" && !locked.commitment ? raffleCommitment(chainOfRaffle(input, raffleChainId)) : {};
      if (raffle === null) return NO_DRAW_CHAIN;
      const [updated] = await tx
        .update(rewardPool)
        .set({ ...stored(input), ...(gate === undefined ? {} : { gate }), ...raffle, updatedAt: now })
        .where(eq(rewardPool.id, poolId))
        .returning();
      await setEscrow(tx, { pool: locked, projectId: managed.campaign.projectId, target, now });
      return ok({ value: updated! });
    });
    return outcome.ok ? ok({ value: (await poolIn(db, campaignId, poolId))! }) : outcome;
  } catch (error) {
    if (error instanceof InsufficientFunds) return shortfall(db, managed.campaign.projectId, input, decimals);
    throw error;
  }
}

/**
 * Deletes a pool that is still open, while its campaign has not ended; a token pool's escrow goes
 * back to the treasury, unless the campaign is live or a member has entered it (refused then).
 */
export async function deleteRewardPool({
  db,
  campaignId,
  poolId,
  actorId,
  now = new Date(),
}: {
  db: Db;
  campaignId: string;
  poolId: string;
  actorId: string;
  now?: Date;
}): Promise<Ok | FieldFailure> {
  const managed = await managedCampaign(db, campaignId, actorId, now);
  if (!managed) return GONE;
  if (managed.status === "ended") return ENDED;
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(rewardPool)
      .where(and(eq(rewardPool.id, poolId), eq(rewardPool.campaignId, campaignId)))
      .for("update");
    if (!locked) return GONE;
    if (locked.status !== "open") return PAID;
    if (locked.escrowed > 0n) {
      const kept = await promiseKept(tx, managed, "delete");
      if (kept) return invalid("form", kept);
    }
    await setEscrow(tx, { pool: locked, projectId: managed.campaign.projectId, target: 0n, now });
    await tx.delete(rewardPool).where(eq(rewardPool.id, poolId));
    return ok();
  });
}

/** One pool of a campaign, or null (a pool id from another campaign is not found). */
export async function poolIn(db: Db, campaignId: string, poolId: string) {
  const [row] = await db
    .select()
    .from(rewardPool)
    .where(and(eq(rewardPool.id, poolId), eq(rewardPool.campaignId, campaignId)));
  return row ?? null;
}

/** A pool as pages may show it: the raffle's secret only once it is drawn. */
export type PublicPool = Omit<RewardPool, "secret"> & { secret: string | null };
export const publicPool = (pool: RewardPool): PublicPool => ({ ...pool, secret: pool.status === "paid" ? pool.secret : null });

export type PoolCard = PublicPool & {
  /** Members paid and the amount paid in all, once the pool is paid. */
  paidTo: number;
  paidTotal: bigint;
  /** The viewer's own grant, if they got one. */
  mine: { position: number; amount: bigint } | null;
};

/** A campaign's pools, oldest first, with what each paid and what the viewer got. */
export async function listRewardPools({ db, campaignId, userId }: { db: Db; campaignId: string; userId: string | null }): Promise<PoolCard[]> {
  const rows = await rewardPoolsStatement(db).execute({ campaignId, userId });
  return rows.map(({ pool, members, total, position, amount }) => ({
    ...publicPool(pool),
    paidTo: members ?? 0,
    paidTotal: BigInt(total ?? 0),
    mine: position !== null && amount !== null ? { position, amount } : null,
  }));
}

/**
 * One statement, prepared once per connection: each pool with what it paid so far (two index ranges
 * of its grants) and the viewer's own grant (none for a visitor: no grant's member is null).
 */
const rewardPoolsStatement = preparedPerDb((db) => {
  const grantsOf = sql`from ${rewardGrant} where ${rewardGrant.poolId} = ${rewardPool.id}`;
  const mine = alias(rewardGrant, "mine");
  return db
    .select({
      pool: rewardPool,
      members: sql<number>`(select count(*) ${grantsOf})`.mapWith(Number),
      total: sql<string | null>`(select sum(${rewardGrant.amount}) ${grantsOf})`,
      position: mine.position,
      amount: mine.amount,
    })
    .from(rewardPool)
    .leftJoin(mine, and(eq(mine.poolId, rewardPool.id), eq(mine.userId, sql.placeholder("userId"))))
    .where(eq(rewardPool.campaignId, sql.placeholder("campaignId")))
    .orderBy(asc(rewardPool.createdAt), asc(rewardPool.id))
    .prepare("questline_reward_pools");
});
