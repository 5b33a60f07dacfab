import { randomUUID } from "node:crypto";
import { and, asc, count, eq, inArray, sum } from "drizzle-orm";
import { campaign } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import type { Db } from "~/lib/db.server";
import { authorize } from "~/modules/projects/permissions.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import type { RewardPoolInput } from "./reward.schema";

export type RewardPool = typeof rewardPool.$inferSelect;

type Saved<T> = { ok: true; value: T } | { ok: false; field: string; error: string };
const ENDED = { ok: false, field: "form", error: "This campaign has ended: its rewards can no longer change." } as const;
const GONE = { ok: false, field: "form", error: "This reward does not exist any more." } as const;
const PAID = { ok: false, field: "form", error: "This reward has been paid: it can no longer change." } as const;

/**
 * The campaign a team member manages rewards of: they must be its project's owner or admin
 * (`rewards.manage`, else a 403 is thrown), and the campaign must not have ended.
 */
async function managedCampaign(db: Db, campaignId: string, actorId: string, now: Date) {
  const [c] = await db.select().from(campaign).where(eq(campaign.id, campaignId));
  if (!c) return null;
  await authorize({ db, projectId: c.projectId, userId: actorId, action: "rewards.manage" });
  return { campaign: c, ended: campaignStatus(c, now) === "ended" };
}

/** Adds an XP pool to a campaign that has not ended. */
export async function createRewardPool({
  db,
  campaignId,
  actorId,
  input,
  now = new Date(),
}: {
  db: Db;
  campaignId: string;
  actorId: string;
  input: RewardPoolInput;
  now?: Date;
}): Promise<Saved<RewardPool>> {
  const managed = await managedCampaign(db, campaignId, actorId, now);
  if (!managed) return { ok: false, field: "form", error: "This campaign does not exist." };
  if (managed.ended) return ENDED;
  const [created] = await db
    .insert(rewardPool)
    .values({ id: randomUUID(), campaignId, kind: "xp", ...input, createdBy: actorId, createdAt: now, updatedAt: now })
    .returning();
  return { ok: true, value: created! };
}

/** Changes a pool that is still open, while its campaign has not ended. */
export async function updateRewardPool({
  db,
  campaignId,
  poolId,
  actorId,
  input,
  now = new Date(),
}: {
  db: Db;
  campaignId: string;
  poolId: string;
  actorId: string;
  input: RewardPoolInput;
  now?: Date;
}): Promise<Saved<RewardPool>> {
  const managed = await managedCampaign(db, campaignId, actorId, now);
  if (!managed) return GONE;
  if (managed.ended) return ENDED;
  const [updated] = await db
    .update(rewardPool)
    .set({ ...input, updatedAt: now })
    .where(and(eq(rewardPool.id, poolId), eq(rewardPool.campaignId, campaignId), eq(rewardPool.status, "open")))
    .returning();
  if (updated) return { ok: true, value: updated };
  return (await poolIn(db, campaignId, poolId)) ? PAID : GONE;
}

/** Deletes a pool that is still open, while its campaign has not ended. */
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
}): Promise<{ ok: true } | { ok: false; error: string }> {
  const managed = await managedCampaign(db, campaignId, actorId, now);
  if (!managed) return GONE;
  if (managed.ended) return ENDED;
  const deleted = await db
    .delete(rewardPool)
    .where(and(eq(rewardPool.id, poolId), eq(rewardPool.campaignId, campaignId), eq(rewardPool.status, "open")))
    .returning({ id: rewardPool.id });
  if (deleted.length > 0) return { ok: true };
  return (await poolIn(db, campaignId, poolId)) ? PAID : GONE;
}

/** One pool of a campaign, or null (a pool id from another campaign is not found). */
export async function poolIn(db: Db, campaignId: string, poolId: string) {
  const [row] = await db
    .select()
    .from(rewardPool)
    .where(and(eq(rewardPool.id, poolId), eq(rewardPool.campaignId, campaignId)));
  return row ?? null;
}

type PoolCard = RewardPool & {
  /** Members paid and XP paid, once the pool is paid. */
  paidTo: number;
  paidXp: number;
  /** The viewer's own grant, if they got one. */
  mine: { position: number; amount: number } | null;
};

/** A campaign's pools, oldest first, with what each paid and what the viewer got. */
export async function listRewardPools({ db, campaignId, userId }: { db: Db; campaignId: string; userId: string | null }): Promise<PoolCard[]> {
  const pools = await db.select().from(rewardPool).where(eq(rewardPool.campaignId, campaignId)).orderBy(asc(rewardPool.createdAt), asc(rewardPool.id));
  if (pools.length === 0) return [];
  const ids = pools.map((p) => p.id);
  const totals = await db
    .select({ poolId: rewardGrant.poolId, members: count(), xp: sum(rewardGrant.amount).mapWith(Number) })
    .from(rewardGrant)
    .where(inArray(rewardGrant.poolId, ids))
    .groupBy(rewardGrant.poolId);
  const mine = userId
    ? await db
        .select({ poolId: rewardGrant.poolId, position: rewardGrant.position, amount: rewardGrant.amount })
        .from(rewardGrant)
        .where(and(inArray(rewardGrant.poolId, ids), eq(rewardGrant.userId, userId)))
    : [];
  return pools.map((p) => {
    const total = totals.find((t) => t.poolId === p.id);
    const own = mine.find((m) => m.poolId === p.id);
    return { ...p, paidTo: total?.members ?? 0, paidXp: total?.xp ?? 0, mine: own ? { position: own.position, amount: own.amount } : null };
  });
}

/** The XP for a rank (1-based) of a ranking pool: ranks past the list's end get its last amount. */
export function rankAmount(amounts: readonly number[], rank: number) {
  return amounts[Math.min(rank, amounts.length) - 1] ?? 0;
}
