import { and, count, desc, eq, gt, isNotNull, lte, ne, notExists, type SQL, sql } from "drizzle-orm";
import { project } from "#db/schema/projects";
import { completion, task, trendingTask } from "#db/schema/quests";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { containsPattern } from "~/lib/search-pattern";

/**
 * Trending tasks: published tasks by their completions in the last 24 hours (rejected attempts
 * aside), then the newest. The counts are kept by the `trending-tasks` job (decision 039), so a
 * page reads at most a list's worth of rows however many completions the day had; a task's
 * title, project and publication are read as they are now.
 */

/** How many tasks a count keeps: far more than a list shows (48 at most). */
export const TRENDING_KEPT = 1_000;
/** How often the worker counts again; a count is at most this old, plus a run's own time. */
export const TRENDING_EVERY_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Counts each published task's completions in the 24 hours before `now` and keeps the
 * TRENDING_KEPT most completed (the newest first among equals), replacing the last count in one
 * transaction: a page reads the old count or the new one, never a mix. Returns how many it kept.
 */
export async function countTrendingTasks({ db, now = new Date() }: { db: Db; now?: Date }) {
  const since = new Date(now.getTime() - DAY_MS);
  const recent = count().as("recent");
  return db.transaction(async (tx) => {
    await tx.delete(trendingTask);
    const counted = tx
      .select({ taskId: completion.taskId, recent, taskCreatedAt: task.createdAt, countedAt: sql`${now.toISOString()}::timestamptz`.as("counted_at") })
      .from(completion)
      .innerJoin(task, eq(task.id, completion.taskId))
      .where(and(gt(completion.createdAt, since), lte(completion.createdAt, now), ne(completion.status, "rejected"), isNotNull(task.publishedAt)))
      .groupBy(completion.taskId, task.createdAt)
      .orderBy(desc(recent), desc(task.createdAt))
      .limit(TRENDING_KEPT);
    const kept = await tx.insert(trendingTask).select(counted).returning({ taskId: trendingTask.taskId });
    return kept.length;
  });
}

/** Published tasks most completed lately, optionally matching a search (in titles and project names). */
export async function trendingTasks({ db, limit = 12, search }: { db: Db; limit?: number; search?: string }) {
  if (!search) return browsingStatement(db).execute({ limit });
  const pattern = containsPattern(search);
  return matchingStatement(db).execute({ pattern, limit });
}

/**
 * On the dashboard and the tasks page, prepared once per connection. The counted tasks first,
 * then the newest of the others, each part read in order from its index and stopped at a list's
 * length (trending_task_order_idx, task_published_created_idx): the work follows the list, not the
 * number of tasks or of completions.
 */
const browsingStatement = preparedPerDb((db) => {
  const limit = sql.placeholder("limit");
  const counted = db
    .select({ id: trendingTask.taskId, recent: trendingTask.recent, createdAt: trendingTask.taskCreatedAt })
    .from(trendingTask)
    .innerJoin(task, eq(task.id, trendingTask.taskId))
    .where(isNotNull(task.publishedAt))
    .orderBy(desc(trendingTask.recent), desc(trendingTask.taskCreatedAt))
    .limit(limit);
  const others = db
    .select({ id: task.id, recent: sql<number>`0`.as("recent"), createdAt: task.createdAt })
    .from(task)
    .where(
      and(
        isNotNull(task.publishedAt),
        notExists(
          db
            .select({ one: sql`1` })
            .from(trendingTask)
            .where(eq(trendingTask.taskId, task.id)),
        ),
      ),
    )
    .orderBy(desc(task.createdAt))
    .limit(limit);
  const ranked = counted.unionAll(others).as("ranked");
  return listed(db, sql`${ranked.recent}`)
    .from(ranked)
    .innerJoin(task, eq(task.id, ranked.id))
    .innerJoin(project, eq(project.id, task.projectId))
    .orderBy(desc(ranked.recent), desc(ranked.createdAt))
    .limit(limit)
    .prepare("questline_trending_tasks");
});

/** A search reads every published task's title anyway: the counts join it. */
const matchingStatement = preparedPerDb((db) => {
  const pattern = sql.placeholder("pattern");
  const recent = sql`coalesce(${trendingTask.recent}, 0)`;
  return listed(db, recent)
    .from(task)
    .innerJoin(project, eq(project.id, task.projectId))
    .leftJoin(trendingTask, eq(trendingTask.taskId, task.id))
    .where(and(isNotNull(task.publishedAt), sql`(${task.title} ilike ${pattern} or ${project.name} ilike ${pattern})`))
    .orderBy(desc(recent), desc(task.createdAt))
    .limit(sql.placeholder("limit"))
    .prepare("questline_trending_tasks_matching");
});

/** What a trending list shows of each task. */
const listed = (db: Db, recent: SQL) =>
  db.select({
    task,
    project: { slug: project.slug, name: project.name, logoUrl: project.logoUrl },
    recent: recent.mapWith(Number),
  });
