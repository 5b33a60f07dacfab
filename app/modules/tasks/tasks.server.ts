import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { csvCell } from "~/lib/csv";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { periodOf, type Task } from "./completions.server";
import type { TaskType } from "./task-types";
import { containsPattern } from "~/lib/search-pattern";
import { emailSharedWith, memberIdentities } from "~/modules/projects/member-identity.server";

export type TaskInput = {
  title: string;
  description: string;
  type: TaskType;
  config: Record<string, unknown>;
  xp: number;
  verification: "auto" | "review" | "none";
  recurrence: "once" | "daily";
  startsAt: Date | null;
  endsAt: Date | null;
  cap: number | null;
  campaignId: string | null;
  /** The airdrop it earns points for; left out: as it is (none for a new task). */
  airdropId?: string | null;
  published: boolean;
};

/** The task forms answer every refusal with 400, on its field (`form` for a task gone meanwhile). */
export type SaveTaskResult = Ok<{ task: Task }> | FieldFailure;

/**
 * Creates or edits a task of a project. A campaign or an airdrop must be the project's own, and a
 * task goes into an airdrop only while the airdrop takes tasks (not frozen, not ended) and when it
 * is not a crusade's step (a task belongs to one container). The cap cannot go below the places taken.
 */
export async function saveTask({
  db,
  projectId,
  taskId,
  input,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  taskId?: string;
  input: TaskInput;
  now?: Date;
}): Promise<SaveTaskResult> {
  if (input.campaignId) {
    const [c] = await db
      .select({ id: campaign.id })
      .from(campaign)
      .where(and(eq(campaign.id, input.campaignId), eq(campaign.projectId, projectId)));
    if (!c) return invalid("campaignId", "Choose one of this project's campaigns");
  }
  if (input.campaignId && input.airdropId) return invalid("airdropId", "A task counts toward one campaign or one airdrop: choose one of them");
  const [current] = taskId
    ? await db
        .select()
        .from(task)
        .where(and(eq(task.id, taskId), eq(task.projectId, projectId)))
    : [];
  if (taskId && !current) return invalid("form", "This task does not exist.");
  if (input.airdropId) {
    const refused = await airdropRefusal(db, { projectId, airdropId: input.airdropId, current, now });
    if (refused) return refused;
  }
  const { published, ...fields } = input;
  if (!current) {
    const [created] = await db
      .insert(task)
      .values({ id: randomUUID(), projectId, ...fields, publishedAt: published ? now : null, createdAt: now, updatedAt: now })
      .returning();
    return ok({ task: created! });
  }
  if (input.cap !== null && input.cap < current.slotsTaken) {
    return invalid("cap", `${current.slotsTaken} members already hold a place: the cap cannot be lower`);
  }
  if (input.type !== current.type && current.slotsTaken > 0) {
    return invalid("type", "Members have done this task: its type cannot change");
  }
  // XP is paid at approval: a change would pay members of one task differently, and would let a
  // team member raise the XP of a submission of their own that is waiting for review.
  if (input.xp !== current.xp && (await hasLiveCompletions(db, current.id))) {
    return invalid("xp", "Members have completed or submitted this task: its XP cannot change");
  }
  const [updated] = await db
    .update(task)
    .set({ ...fields, publishedAt: published ? (current.publishedAt ?? now) : null, updatedAt: now })
    .where(eq(task.id, current.id))
    .returning();
  return ok({ task: updated! });
}

/**
 * Why the task cannot go into this airdrop, or null: it must be the project's, still take tasks
 * (not frozen, not ended), and the task must not be a crusade's step. A task staying in an
 * airdrop that has ended keeps it (its other fields can still be edited).
 */
async function airdropRefusal(
  db: Db,
  { projectId, airdropId, current, now }: { projectId: string; airdropId: string; current: Task | undefined; now: Date },
): Promise<FieldFailure | null> {
  if (current?.crusadeId) return invalid("airdropId", "This task is a step of a crusade: a task belongs to one crusade or one airdrop");
  if (current?.airdropId === airdropId) return null;
  const [a] = await db
    .select({ status: airdrop.status, endsAt: airdrop.endsAt })
    .from(airdrop)
    .where(and(eq(airdrop.id, airdropId), eq(airdrop.projectId, projectId)));
  if (!a) return invalid("airdropId", "Choose one of this project's airdrops");
  if (a.status !== "open" || a.endsAt <= now) return invalid("airdropId", "This airdrop has ended: it takes no new tasks");
  return null;
}

async function hasLiveCompletions(db: Db, taskId: string) {
  const [row] = await db
    .select({ id: completion.id })
    .from(completion)
    .where(and(eq(completion.taskId, taskId), inArray(completion.status, ["pending", "approved"])))
    .limit(1);
  return Boolean(row);
}

export async function taskWithProject({ db, taskId }: { db: Db; taskId: string }) {
  const [row] = await db
    .select({ task, project: { id: project.id, slug: project.slug, name: project.name, logoUrl: project.logoUrl } })
    .from(task)
    .innerJoin(project, eq(project.id, task.projectId))
    .where(eq(task.id, taskId));
  return row ?? null;
}

/** The member's standing on each task for today (daily tasks) or for good: approved, pending, rejected or none. */
export async function memberStates({ db, userId, tasks, now = new Date() }: { db: Db; userId: string | null; tasks: Task[]; now?: Date }) {
  const states = new Map<string, { status: "approved" | "pending" | "rejected"; reason: string | null }>();
  if (!userId || tasks.length === 0) return states;
  const rows = await db
    .select({ taskId: completion.taskId, period: completion.period, status: completion.status, reason: completion.reason })
    .from(completion)
    .where(
      and(
        eq(completion.userId, userId),
        inArray(
          completion.taskId,
          tasks.map((t) => t.id),
        ),
      ),
    );
  const byId = new Map(tasks.map((t) => [t.id, t]));
  for (const row of rows) {
    const t = byId.get(row.taskId);
    if (t && row.period === periodOf(t.recurrence, now)) states.set(row.taskId, { status: row.status, reason: row.reason });
  }
  return states;
}

/** Whose tasks a list holds: a project's, a campaign's or an airdrop's. */
type TaskOwner = { projectId: string } | { campaignId: string } | { airdropId: string };

/** A project's tasks (drafts when the viewer is on the team), or a campaign's, or an airdrop's. */
export async function listTasks({ db, withDrafts = false, ...owner }: { db: Db; withDrafts?: boolean } & TaskOwner) {
  const [column, id] =
    "projectId" in owner
      ? (["projectId", owner.projectId] as const)
      : "campaignId" in owner
        ? (["campaignId", owner.campaignId] as const)
        : (["airdropId", owner.airdropId] as const);
  return taskListStatements[column](db).execute({ id, withDrafts });
}

/** Each owner's list, read by every campaign, airdrop and review page: prepared once per connection. */
const taskListOf = (column: "projectId" | "campaignId" | "airdropId", name: string) =>
  preparedPerDb((db) =>
    db
      .select()
      .from(task)
      .where(and(eq(task[column], sql.placeholder("id")), sql`(${sql.placeholder("withDrafts")}::boolean or ${task.publishedAt} is not null)`))
      .orderBy(asc(task.createdAt))
      .prepare(name),
  );
const taskListStatements = {
  projectId: taskListOf("projectId", "questline_tasks_of_project"),
  campaignId: taskListOf("campaignId", "questline_tasks_of_campaign"),
  airdropId: taskListOf("airdropId", "questline_tasks_of_airdrop"),
};

export const SUBMISSIONS_PAGE_SIZE = 25;

/**
 * Which of a project's submissions a review queue holds: one campaign's, one crusade's, the
 * project's standalone tasks' (in no campaign and no crusade), or all of them.
 */
export type ReviewScope = { campaignId: string } | { crusadeId: string } | { standalone: true } | { all: true };

export function inScope(scope: ReviewScope) {
  if ("campaignId" in scope) return eq(task.campaignId, scope.campaignId);
  if ("crusadeId" in scope) return eq(task.crusadeId, scope.crusadeId);
  if ("standalone" in scope) return and(isNull(task.campaignId), isNull(task.crusadeId));
  return undefined;
}

/**
 * Submissions of a project's tasks (optionally one campaign's) with a status, searched by member
 * or task, newest first, a page at a time. Each member as the team may see them: name, wallets,
 * social handles, and the e-mail address only where they shared it with this project.
 */
export async function listSubmissions({
  db,
  projectId,
  scope = { all: true },
  status,
  search,
  taskId,
  page = 1,
  pageSize = SUBMISSIONS_PAGE_SIZE,
}: {
  db: Db;
  projectId: string;
  scope?: ReviewScope;
  status: "pending" | "approved" | "rejected";
  search?: string;
  taskId?: string;
  page?: number;
  pageSize?: number;
}) {
  const pattern = search ? containsPattern(search) : null;
  const where = and(
    eq(task.projectId, projectId),
    inScope(scope),
    taskId ? eq(task.id, taskId) : undefined,
    eq(completion.status, status),
    pattern ? or(ilike(user.name, pattern), ilike(emailSharedWith(task.projectId), pattern), ilike(task.title, pattern)) : undefined,
  );
  const [total] = await db
    .select({ n: count() })
    .from(completion)
    .innerJoin(task, eq(task.id, completion.taskId))
    .innerJoin(user, eq(user.id, completion.userId))
    .where(where);
  const rows = await db
    .select({
      id: completion.id,
      status: completion.status,
      submission: completion.submission,
      reason: completion.reason,
      createdAt: completion.createdAt,
      reviewedAt: completion.reviewedAt,
      task: { id: task.id, title: task.title, type: task.type, xp: task.xp, campaignId: task.campaignId, crusadeId: task.crusadeId },
      member: { id: user.id, name: user.name, email: emailSharedWith(task.projectId) },
    })
    .from(completion)
    .innerJoin(task, eq(task.id, completion.taskId))
    .innerJoin(user, eq(user.id, completion.userId))
    .where(where)
    .orderBy(desc(completion.createdAt), desc(completion.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const identities = await memberIdentities({ db, userIds: rows.map((r) => r.member.id) });
  const withIdentities = rows.map((r) => ({ ...r, member: { ...r.member, ...identities.get(r.member.id)! } }));
  return { rows: withIdentities, total: total?.n ?? 0, page, pageCount: Math.max(1, Math.ceil((total?.n ?? 0) / pageSize)) };
}

/** Counts per status for the submission tables' tabs. */
export async function submissionCounts({ db, projectId, scope = { all: true } }: { db: Db; projectId: string; scope?: ReviewScope }) {
  const rows = await db
    .select({ status: completion.status, n: count() })
    .from(completion)
    .innerJoin(task, eq(task.id, completion.taskId))
    .where(and(eq(task.projectId, projectId), inScope(scope)))
    .groupBy(completion.status);
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** Every submission matching the filters, as CSV: a member's e-mail address only where they shared it with the project. */
export async function submissionsCsv(args: Omit<Parameters<typeof listSubmissions>[0], "page" | "pageSize">) {
  const { rows } = await listSubmissions({ ...args, page: 1, pageSize: 100_000 });
  const header = ["submitted_at", "status", "task", "member", "email", "wallets", "social_accounts", "submission", "reason", "reviewed_at"];
  const lines = rows.map((r) =>
    [
      r.createdAt,
      r.status,
      r.task.title,
      r.member.name,
      r.member.email,
      r.member.wallets.join(" "),
      r.member.socials.map((s) => `${s.provider}:${s.handle}`).join(" "),
      r.submission,
      r.reason,
      r.reviewedAt,
    ]
      .map(csvCell)
      .join(","),
  );
  return [header.join(","), ...lines].join("\r\n") + "\r\n";
}
