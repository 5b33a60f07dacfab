import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Distribution, RewardKind } from "#db/schema/rewards";
import { type Db, rowsOf } from "~/lib/db.server";
import { boardKey, rankOf } from "~/modules/leaderboards/leaderboards.server";

/**
 * A member's rewards across projects, newest first:
 * - `won`: a grant, paid (XP awarded, or tokens credited to their balance by a ledger entry);
 * - `not_won`: a drawn raffle they entered without winning (its draw can be verified);
 * - `pending`: a pool of a campaign not paid yet that they are in the running for — they
 *   completed every task (first completers, raffle, everyone) or hold a paid rank (leaderboard);
 *   never a pool of a project whose team they are in (nobody pays themselves).
 */
export const REWARD_FILTERS = ["all", "won", "pending", "not_won"] as const;
export type RewardFilter = (typeof REWARD_FILTERS)[number];
export const rewardFilterSchema = z.enum(REWARD_FILTERS).catch("all");

export type MemberReward = {
  poolId: string;
  status: "won" | "not_won" | "pending";
  kind: RewardKind;
  asset: string | null;
  distribution: Distribution;
  winners: number | null;
  /** `ranking` pools: the amount by rank (decimal strings). */
  rankAmounts: string[] | null;
  /** What they got (won), or null. */
  amount: bigint | null;
  position: number | null;
  /** The ledger entry that paid a token grant. */
  entryId: number | null;
  /** When it was paid (won, not won) or when the campaign ends (pending). */
  at: Date;
  /** `pending` leaderboard pools: the member's rank now. */
  rank: number | null;
  /** A raffle with a published commitment: its draw can be checked. */
  verifiable: boolean;
  campaign: { slug: string; name: string };
  project: { slug: string; name: string };
};

const PER_PAGE = 20;

/** Rows of one status, already as MemberRewards without the pending ranks. */
function rewardRows(userId: string) {
  return sql`
    with won as (
      select g.pool_id, 'won' as status, g.amount, g.position, g.entry_id, p.paid_at as at
      from reward_grant g join reward_pool p on p.id = g.pool_id
      where g.user_id = ${userId}
    ),
    not_won as (
      select e.pool_id, 'not_won' as status, null::numeric as amount, null::int as position, null::bigint as entry_id, p.paid_at as at
      from raffle_entrant e join reward_pool p on p.id = e.pool_id
      where e.user_id = ${userId} and p.status = 'paid'
        and not exists (select 1 from reward_grant g where g.pool_id = e.pool_id and g.user_id = ${userId})
    ),
    tasks as (
      select t.campaign_id, count(*) as n from task t
      where t.published_at is not null and t.campaign_id is not null
      group by t.campaign_id
    ),
    done as (
      select t.campaign_id, count(distinct c.task_id) as n
      from completion c join task t on t.id = c.task_id
      where c.user_id = ${userId} and c.status = 'approved' and t.published_at is not null and t.campaign_id is not null
      group by t.campaign_id
    ),
    pending as (
      select p.id as pool_id, 'pending' as status, null::numeric as amount, null::int as position, null::bigint as entry_id, c.ends_at as at
      from reward_pool p join campaign c on c.id = p.campaign_id
      left join tasks on tasks.campaign_id = c.id
      left join done on done.campaign_id = c.id
      where p.status in ('open', 'frozen') and c.published_at is not null
        and (p.distribution = 'ranking' or (tasks.n > 0 and done.n = tasks.n))
        and not exists (select 1 from project_member pm where pm.project_id = c.project_id and pm.user_id = ${userId})
    )
    select r.*, p.commitment is not null as verifiable, p.kind, p.asset, p.distribution, p.winners, p.rank_amounts, p.campaign_id,
      c.slug as campaign_slug, c.name as campaign_name, pr.slug as project_slug, pr.name as project_name
    from (select * from won union all select * from not_won union all select * from pending) r
    join reward_pool p on p.id = r.pool_id
    join campaign c on c.id = p.campaign_id
    join project pr on pr.id = c.project_id`;
}

/** One page of the member's rewards, `filter`ed by status, newest first. */
export async function memberRewards({ db, userId, filter = "all", page = 1, limit = PER_PAGE }: { db: Db; userId: string; filter?: RewardFilter; page?: number; limit?: number }) {
  const where = filter === "all" ? sql`` : sql`where status = ${filter}`;
  const result = await db.execute(sql`
    select * from (${rewardRows(userId)}) x ${where}
    order by at desc, pool_id
    limit ${limit + 1} offset ${(page - 1) * limit}`);
  const rows = rowsOf(result);
  const items: MemberReward[] = [];
  for (const r of rows.slice(0, limit)) {
    const distribution = r.distribution as Distribution;
    let rank: number | null = null;
    if (r.status === "pending" && distribution === "ranking") {
      rank = (await rankOf({ db, board: boardKey({ kind: "campaign", campaignId: String(r.campaign_id) }, "all"), userId }))?.rank ?? null;
      // A leaderboard pool is "in the running" only while the member holds a paid rank.
      if (rank === null || rank > Number(r.winners)) continue;
    }
    items.push({
      poolId: String(r.pool_id),
      status: r.status as MemberReward["status"],
      kind: r.kind as RewardKind,
      asset: (r.asset as string | null) ?? null,
      distribution,
      winners: r.winners == null ? null : Number(r.winners),
      rankAmounts: (r.rank_amounts as string[] | null) ?? null,
      amount: r.amount == null ? null : BigInt(String(r.amount)),
      position: r.position == null ? null : Number(r.position),
      entryId: r.entry_id == null ? null : Number(r.entry_id),
      at: new Date(r.at as string | Date),
      rank,
      verifiable: Boolean(r.verifiable),
      campaign: { slug: String(r.campaign_slug), name: String(r.campaign_name) },
      project: { slug: String(r.project_slug), name: String(r.project_name) },
    });
  }
  return { items, hasMore: rows.length > limit, page };
}
