import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { emitEvents } from "~/modules/events/emit.server";
import { NOTIFYING_EVENT_TYPES, type NewEvent } from "~/modules/events/event-types";
import { notifyPendingEvents } from "~/modules/notifications/fanout.server";
import { followProject } from "~/modules/notifications/follows.server";

/** The demo's two members one signs in as (seed.server.ts: member1 owns the first project, member2 the second). */
const MEMBER_1 = "demo-member-01";
const MEMBER_2 = "demo-member-02";

/**
 * The demo's notifications: member2 follows the first project, then the outbox's events become
 * notifications as the job would make them. Where the seed recorded no notifying event itself
 * (features that emit none yet), a few are recorded here from the demo's real rows: member1's
 * and member2's reviewed completions, the launch weeks' rewards they were paid, their raffles,
 * and the first project's next campaign. They are history: dated as what they tell of, the older
 * ones read, and none mailed (a fresh demo would otherwise fill the dev inbox at start).
 */
export async function seedNotifications({ db, now = new Date(), chains }: { db: Db; now?: Date; chains?: Pick<ChainRegistry, "get"> }) {
  const [first] = rowsOf(await db.execute(sql`select id from project where created_by = ${MEMBER_1} order by created_at limit 1`));
  if (first) await followProject({ db, userId: MEMBER_2, projectId: String(first.id) });

  const [recorded] = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from app_event where type in (${sql.join(
        NOTIFYING_EVENT_TYPES.map((type) => sql`${type}`),
        sql`, `,
      )})`,
    ),
  );
  if (Number(recorded?.n ?? 0) === 0) await recordDemoEvents(db, first ? String(first.id) : null);

  const [before] = rowsOf(await db.execute(sql`select coalesce(max(id), 0)::bigint as id from notification`));
  const made = sql`n.id > ${Number(before?.id ?? 0)}`;
  await notifyPendingEvents({ db, now, chains, limit: 500, maxBatches: 1_000 });

  // Dated as the events they tell of; all but each member's three newest read; none mailed.
  await db.execute(sql`update notification n set created_at = e.created_at from app_event e where e.key = n.dedupe and ${made}`);
  await db.execute(sql`update notification n set mail = 'none' where n.mail in ('pending', 'digest') and ${made}`);
  await db.execute(sql`update notification n set read_at = n.created_at + interval '1 hour'
    where ${made} and n.id not in (select id from (select id, row_number() over (partition by user_id order by created_at desc, id desc) as k from notification) ranked where k <= 3)`);
  const [theirs] = rowsOf(await db.execute(sql`select count(*)::int as n from notification n where n.user_id in (${MEMBER_1}, ${MEMBER_2}) and ${made}`));
  return { notifications: Number(theirs?.n ?? 0) };
}

type Dated = { event: NewEvent; at: Date };

/** Events as the features would have recorded them, from the demo's rows about member1 and member2. */
async function recordDemoEvents(db: Db, firstProjectId: string | null) {
  const members = sql`(${MEMBER_1}, ${MEMBER_2})`;
  const dated: Dated[] = [];
  const reviewed = rowsOf(
    await db.execute(sql`select * from (
        select c.id, c.task_id, t.title, c.user_id, c.status, c.reason, c.reviewed_at, t.project_id, t.campaign_id,
          row_number() over (partition by c.user_id order by c.reviewed_at desc) as k
        from completion c join task t on t.id = c.task_id
        where c.user_id in ${members} and c.reviewed_by is not null and c.status in ('approved', 'rejected')) r
      where k <= 3`),
  );
  for (const row of reviewed)
    dated.push({
      at: new Date(row.reviewed_at as string),
      event: {
        type: row.status === "approved" ? "completion.approved" : "completion.rejected",
        key: `completion.${String(row.status)}:${String(row.id)}`,
        projectId: String(row.project_id),
        data: {
          completionId: String(row.id),
          taskId: String(row.task_id),
          taskTitle: String(row.title),
          userId: String(row.user_id),
          campaignId: (row.campaign_id as string | null) ?? null,
          crusadeId: null,
          airdropId: null,
          reviewed: true,
          reason: (row.reason as string | null) ?? null,
        },
      },
    });
  const grants = rowsOf(
    await db.execute(sql`select g.pool_id, g.user_id, g.position, g.amount::text as amount, g.created_at, p.kind, p.asset, p.distribution,
        c.id as campaign_id, c.name as campaign_name, c.project_id
      from reward_grant g join reward_pool p on p.id = g.pool_id join campaign c on c.id = p.campaign_id
      where g.user_id in ${members}`),
  );
  for (const row of grants)
    dated.push({
      at: new Date(row.created_at as string),
      event: {
        type: "reward.paid",
        key: `reward.paid:${String(row.pool_id)}:${String(row.user_id)}`,
        projectId: String(row.project_id),
        data: {
          poolId: String(row.pool_id),
          campaignId: String(row.campaign_id),
          campaignTitle: String(row.campaign_name),
          userId: String(row.user_id),
          kind: row.kind === "token" ? "token" : "xp",
          amount: String(row.amount),
          asset: (row.asset as string | null) ?? null,
          distribution: row.distribution as "fcfs" | "raffle" | "ranking" | "everyone",
          rank: row.distribution === "ranking" ? Number(row.position) : null,
        },
      },
    });
  const raffles = rowsOf(
    await db.execute(sql`select p.id, p.winners, p.entrants_count, p.paid_at, c.id as campaign_id, c.name, c.project_id
      from reward_pool p join campaign c on c.id = p.campaign_id
      where p.distribution = 'raffle' and p.seed is not null
        and exists (select 1 from raffle_entrant e where e.pool_id = p.id and e.user_id in ${members})`),
  );
  for (const row of raffles)
    dated.push({
      at: new Date((row.paid_at as string | null) ?? Date.now()),
      event: {
        type: "raffle.drawn",
        key: `raffle.drawn:${String(row.id)}`,
        projectId: String(row.project_id),
        data: {
          poolId: String(row.id),
          campaignId: String(row.campaign_id),
          campaignTitle: String(row.name),
          winners: Number(row.winners),
          entrants: Number(row.entrants_count ?? 0),
        },
      },
    });
  if (firstProjectId) {
    const [next] = rowsOf(
      await db.execute(sql`select id, name, starts_at, published_at from campaign where project_id = ${firstProjectId} and published_at is not null
        order by published_at desc limit 1`),
    );
    if (next)
      dated.push({
        at: new Date(next.published_at as string),
        event: {
          type: "campaign.published",
          key: `campaign.published:${String(next.id)}`,
          projectId: firstProjectId,
          data: { campaignId: String(next.id), title: String(next.name), startsAt: new Date(next.starts_at as string).toISOString() },
        },
      });
  }
  await emitEvents(
    db,
    dated.map((d) => d.event),
  );
  // Dated as what they tell of (emitEvent stamps the time of the call).
  for (const { event, at } of dated) await db.execute(sql`update app_event set created_at = ${at.toISOString()}::timestamptz where key = ${event.key}`);
}
