import { and, asc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { campaign } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { type Db, rowsOf } from "~/lib/db.server";
import { awardXp, boardKey } from "~/modules/leaderboards/leaderboards.server";
import { drawRaffle, newRaffleSeed } from "./draw-raffle.server";
import { rankAmount, type RewardPool } from "./reward-pools.server";

/**
 * Paying reward pools when their campaign ends. Each pool is paid in one transaction that locks
 * it (skipping pools another process holds), marks it `distributing`, writes its grants, awards
 * their XP through `awardXp` (source `reward` + the pool's id: once per member, ever) and marks
 * it `paid`. A second run, here or in another process, finds nothing open to pay.
 */


export type Completer = { userId: string; finishedAt: Date };

/**
 * Members who completed every published task of a campaign (each approved at least once), in the
 * order they finished: the time of their last first-approval, ties by member id. `asOf` counts
 * only approvals up to then, so a past draw can be replayed.
 */
export async function completersOf({ db, campaignId, asOf }: { db: Db; campaignId: string; asOf: Date }): Promise<Completer[]> {
  const at = asOf.toISOString();
  const result = await db.execute(sql`
    with tasks as (
      select id from task where campaign_id = ${campaignId} and published_at is not null and published_at <= ${at}::timestamptz
    ),
    firsts as (
      select c.user_id, min(coalesce(c.reviewed_at, c.created_at)) as approved_at
      from completion c join tasks t on t.id = c.task_id
      where c.status = 'approved' and coalesce(c.reviewed_at, c.created_at) <= ${at}::timestamptz
      group by c.user_id, c.task_id
    )
    select user_id, max(approved_at) as finished_at from firsts
    group by user_id
    having count(*) = (select count(*) from tasks)
    order by finished_at, user_id`);
  return rowsOf(result).map((r) => ({ userId: String(r.user_id), finishedAt: new Date(r.finished_at as string | Date) }));
}

/**
 * The top `limit` of the campaign's all-time board, best first (ties: who reached the score first).
 * Members who hide from public boards still win what their rank earns.
 */
async function campaignTop({ db, campaignId, limit }: { db: Db; campaignId: string; limit: number }) {
  const result = await db.execute(sql`
    select user_id, score from leaderboard_entry
    where board = ${boardKey({ kind: "campaign", campaignId }, "all")}
    order by score desc, reached_at, user_id
    limit ${limit}`);
  return rowsOf(result).map((r) => ({ userId: String(r.user_id), score: Number(r.score) }));
}

export type Grant = { userId: string; position: number; amount: number };

/** Who a pool pays and how much, by its distribution. */
async function grantsFor(db: Db, pool: RewardPool, now: Date, seed: string | null): Promise<Grant[]> {
  switch (pool.distribution) {
    case "fcfs": {
      const completers = await completersOf({ db, campaignId: pool.campaignId, asOf: now });
      return completers.slice(0, pool.winners!).map((c, i) => ({ userId: c.userId, position: i + 1, amount: pool.amount! }));
    }
    case "raffle": {
      const entrants = (await completersOf({ db, campaignId: pool.campaignId, asOf: now })).map((c) => c.userId);
      return drawRaffle({ seed: seed!, entrants, winners: pool.winners! }).map((userId, i) => ({ userId, position: i + 1, amount: pool.amount! }));
    }
    case "ranking": {
      const top = await campaignTop({ db, campaignId: pool.campaignId, limit: pool.winners! });
      return top.map((t, i) => ({ userId: t.userId, position: i + 1, amount: rankAmount(pool.rankAmounts ?? [], i + 1) }));
    }
    case "everyone": {
      // Equal shares; the XP that does not divide evenly goes, one each, to the earliest finishers.
      const completers = await completersOf({ db, campaignId: pool.campaignId, asOf: now });
      const n = completers.length;
      if (n === 0) return [];
      const share = Math.floor(pool.amount! / n);
      const extra = pool.amount! % n;
      return completers
        .map((c, i) => ({ userId: c.userId, position: i + 1, amount: share + (i < extra ? 1 : 0) }))
        .filter((g) => g.amount > 0);
    }
  }
}

/** Pays one pool if it is open and its campaign has ended; null when there was nothing to do. */
async function payPool({ db, poolId, now = new Date() }: { db: Db; poolId: string; now?: Date }) {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ pool: rewardPool, projectId: campaign.projectId })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(and(eq(rewardPool.id, poolId), eq(rewardPool.status, "open"), isNotNull(campaign.publishedAt), lte(campaign.endsAt, now)))
      .for("update", { of: rewardPool, skipLocked: true });
    if (!due) return null;
    await tx.update(rewardPool).set({ status: "distributing", updatedAt: now }).where(eq(rewardPool.id, poolId));

    const seed = due.pool.distribution === "raffle" ? (due.pool.seed ?? newRaffleSeed()) : null;
    const grants = await grantsFor(tx, due.pool, now, seed);
    for (let i = 0; i < grants.length; i += 1000) {
      await tx.insert(rewardGrant).values(grants.slice(i, i + 1000).map((g) => ({ poolId, ...g, createdAt: now })));
    }
    // Always in member order, so two processes paying pools with the same members never deadlock.
    for (const g of [...grants].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0))) {
      // Reward XP counts on the global and project boards, not the campaign's: a ranking stays as it ended.
      await awardXp({ db: tx, award: { userId: g.userId, projectId: due.projectId, campaignId: null, sourceType: "reward", sourceId: poolId, amount: g.amount, at: now } });
    }
    await tx.update(rewardPool).set({ status: "paid", seed, paidAt: now, updatedAt: now }).where(eq(rewardPool.id, poolId));
    return { poolId, grants: grants.length, xp: grants.reduce((sum, g) => sum + g.amount, 0) };
  });
}

/** Pays the open pools of ended (published) campaigns, oldest end first; safe to run anywhere, any time. */
export async function distributeEndedCampaigns({
  db,
  now = new Date(),
  limit = 100,
  onPoolError = () => undefined,
}: {
  db: Db;
  now?: Date;
  limit?: number;
  /** A pool that fails (a deadlock, the database gone) stays open for the next run; the others are still paid. */
  onPoolError?: (poolId: string, error: unknown) => void;
}) {
  const due = await db
    .select({ id: rewardPool.id })
    .from(rewardPool)
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .where(and(eq(rewardPool.status, "open"), isNotNull(campaign.publishedAt), lte(campaign.endsAt, now)))
    .orderBy(asc(campaign.endsAt), asc(rewardPool.createdAt))
    .limit(limit);
  let pools = 0;
  let grants = 0;
  let failed = 0;
  for (const { id } of due) {
    try {
      const paid = await payPool({ db, poolId: id, now });
      if (paid) {
        pools += 1;
        grants += paid.grants;
      }
    } catch (error) {
      failed += 1;
      onPoolError(id, error);
    }
  }
  return { pools, grants, failed };
}
