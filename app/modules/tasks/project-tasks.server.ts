import { type SQL, sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";
import type { ProjectTaskRow, TaskContainerKind, TaskListStatus } from "./project-tasks";
import { TASK_TYPE_LABELS } from "./task-types";
import type { TaskType } from "./task-types";
import { containsPattern } from "~/lib/search-pattern";

/** The most rows a page shows, counted after the filters. */
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
  const at = now.toISOString();
  // A window's status as campaignStatus has it (draft, scheduled, live, ended), in SQL so the filters and the limit apply to it.
  const window = (publishedAt: SQL, startsAt: SQL, endsAt: SQL) => sql`case when ${publishedAt} is null then 'draft'
      when ${at}::timestamptz < coalesce(${startsAt}, '-infinity'::timestamptz) then 'scheduled'
      when ${at}::timestamptz >= coalesce(${endsAt}, 'infinity'::timestamptz) then 'ended' else 'live' end`;
  const result = await db.execute(sql`
    with listed as (
      select t.id, t.title, t.type, t.xp, t.created_at,
        case when c.id is not null then 'campaign' when k.id is not null then 'crusade' when a.id is not null then 'airdrop' else 'standalone' end as kind,
        coalesce(c.name, k.name, a.name) as container_name,
        coalesce(c.slug, k.slug, a.slug) as container_slug,
        ${window(sql`t.published_at`, sql`t.starts_at`, sql`t.ends_at`)} as own_status,
        case when c.id is not null then ${window(sql`c.published_at`, sql`c.starts_at`, sql`c.ends_at`)}
          when k.id is not null then ${window(sql`k.published_at`, sql`null::timestamptz`, sql`null::timestamptz`)}
          when a.id is not null then ${window(sql`a.published_at`, sql`a.starts_at`, sql`a.ends_at`)}
          else 'live' end as outer_status
      from task t
      left join campaign c on c.id = t.campaign_id
      left join crusade k on k.id = t.crusade_id
      left join airdrop a on a.id = t.airdrop_id
      where t.project_id = ${projectId}
        ${q ? sql`and t.title ilike ${containsPattern(q)}` : sql``}
    ), judged as (
      -- The stricter of the two statuses (the task itself, what holds it): draft, then ended, then scheduled.
      select *, case when 'draft' in (own_status, outer_status) then 'draft' when 'ended' in (own_status, outer_status) then 'ended'
        when 'scheduled' in (own_status, outer_status) then 'scheduled' else 'live' end as status
      from listed
    ), shown as (
      select * from judged
      where (${withDrafts} or status <> 'draft')
        ${container ? sql`and kind = ${container}` : sql``}
        ${status ? sql`and status = ${status}` : sql``}
      order by created_at desc, id
      limit ${LIMIT}
    )
    select shown.*, coalesce(n.approved, 0) as approved, coalesce(n.pending, 0) as pending
    from shown
    left join (
      select task_id, count(*) filter (where status = 'approved') as approved, count(*) filter (where status = 'pending') as pending
      from completion where task_id in (select id from shown) group by task_id
    ) n on n.task_id = shown.id
    order by shown.created_at desc, shown.id`);
  return rowsOf(result).map((r): ProjectTaskRow => ({
    id: String(r.id),
    title: String(r.title),
    type: r.type as TaskType,
    typeLabel: TASK_TYPE_LABELS[r.type as TaskType] ?? String(r.type),
    xp: Number(r.xp),
    container: {
      kind: r.kind as TaskContainerKind,
      name: r.container_name === null ? null : String(r.container_name),
      slug: r.container_slug === null ? null : String(r.container_slug),
    },
    status: r.status as TaskListStatus,
    approved: Number(r.approved),
    pending: Number(r.pending),
  }));
}
