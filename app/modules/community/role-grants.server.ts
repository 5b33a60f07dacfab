import { sql, type SQL } from "drizzle-orm";
import type { ROLE_REWARD_TRIGGERS } from "#db/schema/community";
import { rowsOf, type Db } from "~/lib/db.server";

/**
 * Discord roles as rewards, granted and taken back through each project's bot. Who should hold
 * each rule's role is recomputed from the facts, set-based (one query per rule kind, never a loop
 * over members), into `discord_role_grant`; the job (role-grant-job.server.ts) then asks Discord
 * for each due change.
 */

type Trigger = (typeof ROLE_REWARD_TRIGGERS)[number];

/**
 * Each kind's members who earned the rule's role, with the words why: `live` is the rules in force
 * of projects with a bot (`reward_id`, `project_id`, `campaign_id`, …).
 */
/**
 * Members with every published task of the rule's campaign or crusade approved (as the eligibility
 * rule "campaigns completed" counts). A crusade's steps unlock in order, so this is its last step
 * approved, and a voided earlier step takes the role back.
 */
function everyTaskApproved(kind: "campaign" | "crusade", verb: string, now: string) {
  const container = sql.identifier(kind);
  const column = sql.identifier(`${kind}_id`);
  const published = (alias: string) => sql`${sql.identifier(alias)}.published_at is not null and ${sql.identifier(alias)}.published_at <= ${now}::timestamptz`;
  return sql`
    select l.reward_id, c.user_id, ${verb} || ' ' || k.name as reason
    from live l
    join ${container} k on k.id = l.${column}
    join task t on t.${column} = l.${column} and ${published("t")}
    join completion c on c.task_id = t.id and c.status = 'approved'
    where l.trigger = ${kind}
    group by l.reward_id, l.${column}, c.user_id, k.name
    having count(distinct c.task_id) = (select count(*) from task t2 where t2.${column} = l.${column} and ${published("t2")})`;
}

const EARNED: Record<Trigger, (now: string) => SQL> = {
  campaign: (now) => everyTaskApproved("campaign", "Completed", now),
  crusade: (now) => everyTaskApproved("crusade", "Finished", now),
  // The project's all-time board (every XP earned in the project: tasks, crusade bonuses, XP rewards, less what was taken back); level L at 50·L·(L−1) XP (leaderboards/progress.ts).
  level: () => sql`
    select l.reward_id, e.user_id, 'Reached level ' || l.level as reason
    from live l
    join leaderboard_entry e on e.board = 'p:' || l.project_id || '|all' and e.score >= 50 * l.level * (l.level - 1)
    where l.trigger = 'level'`,
  // A grant of the pool: the member was paid by it.
  pool: () => sql`
    select l.reward_id, g.user_id, 'Won in the ' || cp.name || ' reward' as reason
    from live l
    join reward_grant g on g.pool_id = l.pool_id
    join reward_pool rp on rp.id = l.pool_id
    join campaign cp on cp.id = rp.campaign_id
    where l.trigger = 'pool'`,
};

/**
 * Who should hold each rule's role: earned, with a connected Discord account (better-auth's
 * `account`, provider `discord`: its account id is the member's Discord id), and not excluded by
 * the project's team (a project-wide exclusion takes every role; a pool's, that pool's role).
 */
function wanted(now: string, triggers: readonly Trigger[]) {
  const earned = sql.join(
    triggers.map((t) => EARNED[t](now)),
    sql` union all `,
  );
  return sql`
    live as (
      select r.id as reward_id, r.project_id, r.trigger, r.campaign_id, r.crusade_id, r.pool_id, r.level, r.role_id, pd.guild_id
      from discord_role_reward r join project_discord pd on pd.project_id = r.project_id
      where r.removed_at is null
    ),
    earned as (${earned}),
    wanted as (
      select distinct on (e.reward_id, e.user_id) e.reward_id, l.project_id, e.user_id, a.account_id as discord_user_id, l.guild_id, l.role_id, e.reason
      from earned e
      join live l on l.reward_id = e.reward_id
      join account a on a.user_id = e.user_id and a.provider_id = 'discord'
      where not exists (
        select 1 from member_exclusion x
        where x.project_id = l.project_id and x.user_id = e.user_id and x.lifted_at is null
          and ((x.scope = 'project' and x.scope_id = l.project_id) or (x.scope = 'pool' and x.scope_id = l.pool_id)))
      order by e.reward_id, e.user_id, a.created_at
    )`;
}

const TRIGGERS: readonly Trigger[] = ["campaign", "crusade", "level", "pool"];

/**
 * Recomputes every project's grants: a member who now should hold a role they do not (or whose
 * Discord account changed) gets a pending grant; one who held it and no longer should gets a
 * pending removal, with the reason in words. Rows whose want did not change are left as they are,
 * so a confirmed grant is never asked for again.
 */
export async function recomputeRoleGrants({ db, now = new Date() }: { db: Db; now?: Date }) {
  const at = now.toISOString();
  const held = await db.execute(sql`
    with ${wanted(at, TRIGGERS)}
    insert into discord_role_grant as g
      (reward_id, project_id, user_id, discord_user_id, guild_id, role_id, want, state, reason, attempts, next_attempt_at, created_at, updated_at)
    select reward_id, project_id, user_id, discord_user_id, guild_id, role_id, 'held', 'pending', reason, 0, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
    from wanted
    on conflict (reward_id, user_id) do update set
      want = 'held', state = 'pending', reason = excluded.reason, discord_user_id = excluded.discord_user_id, guild_id = excluded.guild_id,
      role_id = excluded.role_id, attempts = 0, next_attempt_at = excluded.next_attempt_at, last_error = null, confirmed_at = null,
      updated_at = excluded.updated_at
    where g.want <> 'held' or g.discord_user_id <> excluded.discord_user_id or g.guild_id <> excluded.guild_id
    returning g.id`);
  const removed = await db.execute(sql`
    with ${wanted(at, TRIGGERS)},
    gone as (
      select g.id, case
        when r.removed_at is not null then 'The rule was removed'
        when x.reason is not null then 'Excluded from ' || p.name || ': ' || x.reason
        when not exists (select 1 from account a where a.user_id = g.user_id and a.provider_id = 'discord') then 'Disconnected Discord'
        when v.reason is not null then 'Approval voided: ' || v.reason
        when r.trigger = 'level' then 'Below level ' || r.level || ' now'
        else 'No longer meets the rule'
      end as reason
      from discord_role_grant g
      join discord_role_reward r on r.id = g.reward_id
      join project p on p.id = r.project_id
      join project_discord pd on pd.project_id = r.project_id
      left join lateral (
        select x.reason from member_exclusion x
        where x.project_id = r.project_id and x.user_id = g.user_id and x.lifted_at is null
          and ((x.scope = 'project' and x.scope_id = r.project_id) or (x.scope = 'pool' and x.scope_id = r.pool_id))
        order by x.created_at desc limit 1
      ) x on true
      left join lateral (
        select c.reason from completion c join task t on t.id = c.task_id
        where c.user_id = g.user_id and c.status = 'rejected' and c.reason is not null
          and (t.campaign_id = r.campaign_id or t.crusade_id = r.crusade_id)
        order by c.updated_at desc limit 1
      ) v on true
      where g.want = 'held' and not exists (select 1 from wanted w where w.reward_id = g.reward_id and w.user_id = g.user_id)
    )
    update discord_role_grant as g set
      want = 'removed', attempts = 0,
      -- Another rule still grants the member the same role: nothing to ask of Discord.
      state = case when exists (
        select 1 from discord_role_grant o
        where o.user_id = g.user_id and o.guild_id = g.guild_id and o.role_id = g.role_id and o.id <> g.id and o.want = 'held'
      ) then 'done' else 'pending' end, next_attempt_at = ${at}::timestamptz, last_error = null, confirmed_at = null,
      updated_at = ${at}::timestamptz, reason = gone.reason
    from gone where g.id = gone.id
    returning g.id`);
  return { held: rowsOf(held).length, removed: rowsOf(removed).length };
}
