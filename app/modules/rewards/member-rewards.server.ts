import { type Placeholder, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { REWARD_FILTERS, type MemberReward, type RewardFilter } from "./member-rewards";
import type { Distribution, RewardKind } from "./pool-types";

/** `?status=` on the Rewards list: an unknown filter shows them all. */
export const rewardFilterSchema = z.enum(REWARD_FILTERS).catch("all");

const PER_PAGE = 20;

/**
 * Every reward row of the member (`rank` only on pending leaderboard pools). A leaderboard pool is
 * pending only while the member holds a paid rank, counted as the payout counts it: every member
 * on the campaign's board outside the project's team, ties to who reached the score first.
 */
function rewardRows(userId: Placeholder) {
  const team = (projectId: SQL) => sql`exists (select 1 from project_member pm where pm.project_id = ${projectId} and pm.user_id = `;
  return sql`
    with won as (
      select g.pool_id, 'won' as status, g.amount, g.position, g.entry_id, p.paid_at as at, null::int as rank, null::int as entrants
      from reward_grant g join reward_pool p on p.id = g.pool_id
      where g.user_id = ${userId} and p.status = 'paid'
    ),
    not_won as (
      select e.pool_id, 'not_won' as status, null::numeric as amount, null::int as position, null::bigint as entry_id, p.paid_at as at, null::int as rank,
        null::int as entrants
      from raffle_entrant e join reward_pool p on p.id = e.pool_id
      where e.user_id = ${userId} and p.status = 'paid'
        and not exists (select 1 from reward_grant g where g.pool_id = e.pool_id and g.user_id = ${userId})
    ),
    done as (
      select t.campaign_id, count(distinct c.task_id) as n
      from completion c join task t on t.id = c.task_id
      where c.user_id = ${userId} and c.status = 'approved' and t.published_at is not null and t.campaign_id is not null
      group by t.campaign_id
    ),
    open_pools as (
      -- Only the campaigns the member took part in (a completion, or a place on the board), not every open pool.
      -- board: the campaign's all-time board, as boardKey names it
      select p.id as pool_id, p.distribution, p.winners, c.id as campaign_id, c.project_id, c.ends_at, 'c:' || c.id || '|all' as board
      from reward_pool p join campaign c on c.id = p.campaign_id
      where p.status in ('open', 'frozen', 'distributing') and c.published_at is not null and not ${team(sql`c.project_id`)}${userId})
        and (c.id in (select campaign_id from done)
          or exists (select 1 from leaderboard_entry me where me.board = 'c:' || c.id || '|all' and me.user_id = ${userId}))
    ),
    finished as (
      select d.campaign_id from done d
      where d.n = (select count(*) from task t where t.campaign_id = d.campaign_id and t.published_at is not null)
    ),
    on_board as (
      select o.*, me.score, me.reached_at from open_pools o
      join leaderboard_entry me on me.board = o.board and me.user_id = ${userId}
      where o.distribution = 'ranking'
    ),
    ranked as (
      select b.pool_id, b.winners, b.ends_at, 1 + (
        select count(*) from (
          select 1 from leaderboard_entry e
          where e.board = b.board
            and (e.score > b.score or (e.score = b.score and (e.reached_at, e.user_id) < (b.reached_at, ${userId})))
            and not ${team(sql`b.project_id`)}e.user_id)
          limit b.winners
        ) ahead) as rank
      from on_board b
    ),
    -- everyone pools: the members outside the team who completed every task so far, who share it
    completers as (
      select o.pool_id, count(*)::int as n from open_pools o
      join lateral (
        select c.user_id from completion c join task t on t.id = c.task_id
        where t.campaign_id = o.campaign_id and t.published_at is not null and c.status = 'approved' and not ${team(sql`o.project_id`)}c.user_id)
        group by c.user_id
        having count(distinct c.task_id) = (select count(*) from task t2 where t2.campaign_id = o.campaign_id and t2.published_at is not null)
      ) done_all on true
      where o.distribution = 'everyone' and o.campaign_id in (select campaign_id from finished)
      group by o.pool_id
    ),
    pending as (
      select o.pool_id, 'pending' as status, null::numeric as amount, null::int as position, null::bigint as entry_id, o.ends_at as at, null::int as rank,
        n.n as entrants
      from open_pools o join finished f on f.campaign_id = o.campaign_id left join completers n on n.pool_id = o.pool_id
      where o.distribution <> 'ranking'
      union all
      select r.pool_id, 'pending', null, null, null, r.ends_at, r.rank::int, null from ranked r where r.rank <= r.winners
    )
    select r.*, p.commitment is not null as verifiable, p.kind, p.asset, p.distribution, p.winners, p.amount as pool_amount, p.rank_amounts,
      c.slug as campaign_slug, c.name as campaign_name, pr.slug as project_slug, pr.name as project_name
    from (select * from won union all select * from not_won union all select * from pending) r
    join reward_pool p on p.id = r.pool_id
    join campaign c on c.id = p.campaign_id
    join project pr on pr.id = c.project_id`;
}

/** One page of the member's rewards, `filter`ed by status, newest first. */
export async function memberRewards({
  db,
  userId,
  filter = "all",
  page = 1,
  limit = PER_PAGE,
}: {
  db: Db;
  userId: string;
  filter?: RewardFilter;
  page?: number;
  limit?: number;
}) {
  const rows = await rewardStatements[filter](db).execute({ userId, limit: limit + 1, offset: (page - 1) * limit });
  const items = rows.slice(0, limit).map((r): MemberReward => ({
    poolId: String(r.pool_id),
    status: r.status as MemberReward["status"],
    kind: r.kind as RewardKind,
    asset: (r.asset as string | null) ?? null,
    distribution: r.distribution as Distribution,
    winners: r.winners == null ? null : Number(r.winners),
    rankAmounts: (r.rank_amounts as string[] | null) ?? null,
    poolAmount: r.pool_amount == null ? null : BigInt(String(r.pool_amount)),
    entrants: r.entrants == null ? null : Number(r.entrants),
    amount: r.amount == null ? null : BigInt(String(r.amount)),
    position: r.position == null ? null : Number(r.position),
    entryId: r.entry_id == null ? null : Number(r.entry_id),
    at: new Date(r.at as string | Date),
    rank: r.rank == null ? null : Number(r.rank),
    verifiable: Boolean(r.verifiable),
    campaign: { slug: String(r.campaign_slug), name: String(r.campaign_name) },
    project: { slug: String(r.project_slug), name: String(r.project_name) },
  }));
  return { items, hasMore: rows.length > limit, page };
}

/** The columns of a reward row, as `rewardRows` names them. */
const REWARD_COLUMNS = [
  "pool_id",
  "status",
  "amount",
  "position",
  "entry_id",
  "at",
  "rank",
  "entrants",
  "verifiable",
  "kind",
  "asset",
  "distribution",
  "winners",
  "pool_amount",
  "rank_amounts",
  "campaign_slug",
  "campaign_name",
  "project_slug",
  "project_name",
] as const;

/**
 * One named prepared statement per filter, planned once per connection (the whole query took
 * PostgreSQL about 2 ms to plan, on every dashboard). The filter's status is written into the
 * statement, so PostgreSQL leaves out the kinds of row it cannot match.
 */
const rewardsStatement = (filter: RewardFilter) =>
  preparedPerDb((db) =>
    db
      .select(Object.fromEntries(REWARD_COLUMNS.map((column) => [column, sql.raw(`x.${column}`)])) as Record<(typeof REWARD_COLUMNS)[number], SQL<unknown>>)
      .from(sql`(${rewardRows(sql.placeholder("userId"))}) x`)
      .where(filter === "all" ? undefined : sql`x.status = ${sql.raw(`'${filter}'`)}`)
      .orderBy(sql`x.at desc, x.pool_id`)
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(`questline_member_rewards_${filter}`),
  );
const rewardStatements = {
  all: rewardsStatement("all"),
  won: rewardsStatement("won"),
  pending: rewardsStatement("pending"),
  not_won: rewardsStatement("not_won"),
} satisfies Record<RewardFilter, unknown>;
