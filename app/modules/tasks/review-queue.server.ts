import { and, count, desc, eq, inArray } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { completion, reviewDecision, task } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import { inScope, type ReviewScope } from "./tasks.server";

export type Decision = { decision: "approved" | "rejected"; reason: string | null; at: Date; reviewer: string | null };

/** The latest recorded decision on each of these submissions: who decided, what, when and why. */
export async function latestDecisions({ db, completionIds }: { db: Db; completionIds: string[] }) {
  const decisions = new Map<string, Decision>();
  if (completionIds.length === 0) return decisions;
  const rows = await db
    .select({
      completionId: reviewDecision.completionId,
      decision: reviewDecision.decision,
      reason: reviewDecision.reason,
      at: reviewDecision.createdAt,
      name: user.name,
      email: user.email,
    })
    .from(reviewDecision)
    .leftJoin(user, eq(user.id, reviewDecision.reviewerId))
    .where(inArray(reviewDecision.completionId, completionIds))
    .orderBy(desc(reviewDecision.createdAt), desc(reviewDecision.id));
  for (const row of rows) {
    if (decisions.has(row.completionId)) continue;
    decisions.set(row.completionId, { decision: row.decision, reason: row.reason, at: row.at, reviewer: row.name || row.email || null });
  }
  return decisions;
}

/** Of these submission ids, the ones made on a task of this project in this queue (a reviewer acts only on those). */
export async function submissionsInScope({ db, projectId, scope, completionIds }: { db: Db; projectId: string; scope: ReviewScope; completionIds: string[] }) {
  if (completionIds.length === 0) return [];
  const rows = await db
    .select({ id: completion.id })
    .from(completion)
    .innerJoin(task, eq(task.id, completion.taskId))
    .where(and(eq(task.projectId, projectId), inScope(scope), inArray(completion.id, completionIds)));
  const found = new Set(rows.map((r) => r.id));
  return completionIds.filter((id) => found.has(id));
}

/** How many submissions of the project wait for a decision (the count in the project's header). */
export async function pendingReviewCount({ db, projectId }: { db: Db; projectId: string }) {
  const [row] = await db
    .select({ n: count() })
    .from(completion)
    .innerJoin(task, eq(task.id, completion.taskId))
    .where(and(eq(task.projectId, projectId), eq(completion.status, "pending")));
  return row?.n ?? 0;
}
