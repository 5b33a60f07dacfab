import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { project } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { type Db, preparedPerDb } from "~/lib/db.server";

/** How many campaigns in progress the dashboard lists at most. */
const IN_PROGRESS_LIMIT = 60;

/**
 * Live campaigns the member has started but not finished: some of their published tasks approved,
 * not all. Latest started first.
 */
export async function campaignsInProgress({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }) {
  return inProgressStatement(db).execute({ userId, now: now.toISOString(), limit: IN_PROGRESS_LIMIT });
}

/**
 * Read by the dashboard, prepared once per connection: found from the member's approved
 * completions, so only the campaigns they took part in are counted.
 */
const inProgressStatement = preparedPerDb((db) => {
  const done = sql<number>`count(distinct ${completion.taskId})`.mapWith(Number);
  const total = sql<number>`(select count(*) from ${task} t where t.campaign_id = ${campaign.id} and t.published_at is not null)`.mapWith(Number);
  return db
    .select({
      id: campaign.id,
      slug: campaign.slug,
      name: campaign.name,
      endsAt: campaign.endsAt,
      project: { slug: project.slug, name: project.name },
      done,
      total,
    })
    .from(completion)
    .innerJoin(task, and(eq(task.id, completion.taskId), isNotNull(task.publishedAt)))
    .innerJoin(campaign, eq(campaign.id, task.campaignId))
    .innerJoin(project, eq(project.id, campaign.projectId))
    .where(
      and(
        eq(completion.userId, sql.placeholder("userId")),
        eq(completion.status, "approved"),
        isNotNull(campaign.publishedAt),
        sql`${campaign.startsAt} <= ${sql.placeholder("now")}::timestamptz`,
        sql`${campaign.endsAt} > ${sql.placeholder("now")}::timestamptz`,
      ),
    )
    .groupBy(campaign.id, project.id)
    .having(sql`${done} < ${total}`)
    .orderBy(desc(campaign.startsAt))
    .limit(sql.placeholder("limit"))
    .prepare("questline_campaigns_in_progress");
});
