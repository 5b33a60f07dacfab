import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import { journalEntry } from "#db/schema/ledger";
import { campaign } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import type { Db } from "~/lib/db.server";
import { campaignStatus, type CampaignStatus } from "~/modules/tasks/campaign-status";
import type { Distribution, PoolState, PoolStatus, RewardKind } from "./pool-types";

/**
 * A project's reward pools and their payouts as its own server reads them (the public API): every
 * pool of its campaigns with its state and what it paid, and a pool's grants in rank order with
 * when each was paid. Amounts are XP or the asset's base units, as decimal strings.
 */

/** A pool's state as the project's Rewards page names it, from its status and its campaign's. */
export function poolStateOf(status: PoolStatus, campaign: CampaignStatus): PoolState {
  if (status === "paid") return "paid";
  if (status === "distributing") return "paying";
  if (status === "frozen") return "drawing";
  if (campaign === "draft") return "draft";
  if (campaign === "scheduled") return "funded";
  if (campaign === "live") return "live";
  return "paying";
}

export type ProjectPool = {
  id: string;
  campaignId: string;
  campaignName: string;
  kind: RewardKind;
  asset: string | null;
  distribution: Distribution;
  winners: number | null;
  amount: string | null;
  rankAmounts: string[] | null;
  escrowed: string;
  returned: string;
  state: PoolState;
  paidTo: number;
  paidTotal: string;
  createdAt: Date;
  paidAt: Date | null;
};

/** Where a page of pools ends: the last pool's creation time (PostgreSQL's text) and id. */
export type PoolKey = { createdAt: string; id: string };

/** One page of the project's pools, oldest first, after `after`; and the next page's key when there is one. */
export async function listProjectPools({
  db,
  projectId,
  after = null,
  limit,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  after?: PoolKey | null;
  limit: number;
  now?: Date;
}): Promise<{ rows: ProjectPool[]; next: PoolKey | null }> {
  const at = after ? sql`${after.createdAt}::timestamptz` : null;
  const found = await db
    .select({
      pool: rewardPool,
      campaign: { name: campaign.name, publishedAt: campaign.publishedAt, startsAt: campaign.startsAt, endsAt: campaign.endsAt },
      // Qualified by hand: Drizzle leaves a selected column's table out where one table is read.
      paidTo: sql<number>`(select count(*)::int from ${rewardGrant} g where g.pool_id = reward_pool.id)`,
      paidTotal: sql<string>`(select coalesce(sum(g.amount), 0)::text from ${rewardGrant} g where g.pool_id = reward_pool.id)`,
      key: sql<string>`${rewardPool.createdAt}::text`,
    })
    .from(rewardPool)
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .where(
      and(
        eq(campaign.projectId, projectId),
        at ? or(sql`${rewardPool.createdAt} > ${at}`, sql`${rewardPool.createdAt} = ${at} and ${rewardPool.id} > ${after!.id}`) : undefined,
      ),
    )
    .orderBy(asc(rewardPool.createdAt), asc(rewardPool.id))
    .limit(limit + 1);
  const more = found.length > limit;
  const page = more ? found.slice(0, limit) : found;
  const rows = page.map(({ pool, campaign: c, paidTo, paidTotal }): ProjectPool => ({
    id: pool.id,
    campaignId: pool.campaignId,
    campaignName: c.name,
    kind: pool.kind,
    asset: pool.asset,
    distribution: pool.distribution,
    winners: pool.winners,
    amount: pool.amount === null ? null : String(pool.amount),
    rankAmounts: pool.rankAmounts,
    escrowed: String(pool.escrowed),
    returned: String(pool.returned),
    state: poolStateOf(pool.status, campaignStatus(c, now)),
    paidTo: Number(paidTo),
    paidTotal,
    createdAt: pool.createdAt,
    paidAt: pool.paidAt,
  }));
  const last = page.at(-1);
  return { rows, next: more && last ? { createdAt: last.key, id: last.pool.id } : null };
}

export type PoolPayout = { userId: string; rank: number; amount: string; asset: string | null; kind: RewardKind; paidAt: Date | null };

/**
 * One page of a pool's grants in rank order (finishing, draw or board order) after rank `after`,
 * each with when it was paid (a token grant: its ledger entry; an XP grant: its award), null while
 * unpaid; null when the pool is not this project's.
 */
export async function listPoolPayouts({
  db,
  projectId,
  poolId,
  after = 0,
  limit,
}: {
  db: Db;
  projectId: string;
  poolId: string;
  after?: number;
  limit: number;
}): Promise<{ rows: PoolPayout[]; next: number | null } | null> {
  const [pool] = await db
    .select({ kind: rewardPool.kind, asset: rewardPool.asset })
    .from(rewardPool)
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .where(and(eq(rewardPool.id, poolId), eq(campaign.projectId, projectId)));
  if (!pool) return null;
  // Qualified by hand: Drizzle leaves a selected column's table out where one table is read.
  const paidAt =
    pool.kind === "token"
      ? sql<Date | null>`(select j.created_at from ${journalEntry} j where j.id = reward_grant.entry_id)`
      : sql<Date | null>`(select e.created_at from xp_event e where e.source_type = 'reward' and e.source_id = reward_grant.pool_id and e.user_id = reward_grant.user_id)`;
  const found = await db
    .select({
      userId: rewardGrant.userId,
      rank: rewardGrant.position,
      amount: rewardGrant.amount,
      paidAt: paidAt.mapWith((v) => (v === null ? null : new Date(v))),
    })
    .from(rewardGrant)
    .where(and(eq(rewardGrant.poolId, poolId), gt(rewardGrant.position, after)))
    .orderBy(asc(rewardGrant.position))
    .limit(limit + 1);
  const more = found.length > limit;
  const page = more ? found.slice(0, limit) : found;
  return {
    rows: page.map((g) => ({ userId: g.userId, rank: g.rank, amount: String(g.amount), asset: pool.asset, kind: pool.kind, paidAt: g.paidAt })),
    next: more ? page.at(-1)!.rank : null,
  };
}
