import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";
import { campaignStatus } from "./campaign-status";
import type { ProjectTaskRow, TaskContainerKind, TaskListStatus } from "./project-tasks";
import { TASK_TYPE_LABELS } from "./task.schema";
import type { TaskType } from "./task-types";

/** Rows a page shows; the filters narrow it further. */
const LIMIT = 500;

/**
 * Every task of a project (drafts only for those who may see them), with its container, its
 * status as a member would meet it, and how many completions are approved or wait for review;
 * newest first. The container and status filters narrow it, and q searches titles.
 */
export async function projectTasks({
  db,
  projectId,
  withDrafts,
  container,
  status,
  q,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  withDrafts: boolean;
  container?: TaskContainerKind;
  status?: TaskListStatus;
  q?: string;
  now?: Date;
}): Promise<ProjectTaskRow[]> {
  const result = await db.execute(sql`
    select t.id, t.title, t.type, t.xp, t.published_at, t.starts_at, t.ends_at,
      c.slug as campaign_slug, c.name as campaign_name, c.published_at as campaign_published_at, c.starts_at as campaign_starts_at, c.ends_at as campaign_ends_at,
      k.slug as crusade_slug, k.name as crusade_name, k.published_at as crusade_published_at,
      a.name as airdrop_name, a.published_at as airdrop_published_at, a.starts_at as airdrop_starts_at, a.ends_at as airdrop_ends_at,
      (select count(*) from completion x where x.task_id = t.id and x.status = 'approved') as approved,
      (select count(*) from completion x where x.task_id = t.id and x.status = 'pending') as pending
    from task t
    left join campaign c on c.id = t.campaign_id
    left join crusade k on k.id = t.crusade_id
    left join airdrop a on a.id = t.airdrop_id
    where t.project_id = ${projectId}
      ${q ? sql`and t.title ilike ${`%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`}` : sql``}
    order by t.created_at desc, t.id
    limit ${LIMIT}`);
  const date = (value: unknown) => (value ? new Date(value as string | Date) : null);
  const rows = rowsOf(result).map((r): ProjectTaskRow => {
    const window = (publishedAt: unknown, startsAt: unknown, endsAt: unknown) =>
      campaignStatus({ publishedAt: date(publishedAt), startsAt: date(startsAt) ?? new Date(0), endsAt: date(endsAt) ?? new Date(8.64e15) }, now);
    const own = window(r.published_at, r.starts_at, r.ends_at);
    const outer = r.campaign_name
      ? window(r.campaign_published_at, r.campaign_starts_at, r.campaign_ends_at)
      : r.airdrop_name
        ? window(r.airdrop_published_at, r.airdrop_starts_at, r.airdrop_ends_at)
        : r.crusade_name
          ? window(r.crusade_published_at, null, null)
          : "live";
    // The stricter of the two statuses (the task itself, what holds it): draft, then ended, then scheduled.
    const order: TaskListStatus[] = ["draft", "ended", "scheduled", "live"];
    const status = order.find((s) => s === own || s === outer)!;
    return {
      id: String(r.id),
      title: String(r.title),
      type: r.type as TaskType,
      typeLabel: TASK_TYPE_LABELS[r.type as TaskType] ?? String(r.type),
      xp: Number(r.xp),
      container: r.campaign_name
        ? { kind: "campaign", name: String(r.campaign_name), slug: String(r.campaign_slug) }
        : r.crusade_name
          ? { kind: "crusade", name: String(r.crusade_name), slug: String(r.crusade_slug) }
          : r.airdrop_name
            ? { kind: "airdrop", name: String(r.airdrop_name), slug: null }
            : { kind: "standalone", name: null, slug: null },
      status,
      approved: Number(r.approved),
      pending: Number(r.pending),
    };
  });
  return rows.filter((row) => (withDrafts || row.status !== "draft") && (!container || row.container.kind === container) && (!status || row.status === status));
}
