import { and, eq } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { completion, task } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, ok, type Result } from "~/lib/result";
import { attemptTask, periodOf, type GateCheck } from "./completions.server";
import { apiCheckMember, askProjectServer, type ApiCheckContext, type ApiCheckReply } from "./verify-api-check.server";

/**
 * `api_check` tasks (issue #39): the project's own server confirms a member did it. Agreed
 * signature for the public API's `POST /api/v1/completions` (completions:write): the project
 * pushes a completion of one of its api_check tasks for a member. Idempotent per
 * (task, member, period): the same push again answers `already` and pays nothing more. It goes
 * through `attemptTask` like a member's Check (the task's window, places, crusade order and gate
 * apply), with the push kept as evidence instead of a request to the project's server.
 */
export async function pushCompletion({
  db,
  projectId,
  taskId,
  userId,
  done,
  reason = null,
  apiKeyId,
  gateCheck,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  taskId: string;
  userId: string;
  /** What the project's server says of the member, kept on the completion as evidence. */
  done: boolean;
  reason?: string | null;
  /** The API key that pushed it, kept as evidence. */
  apiKeyId: string;
  /** The entry check of a gated campaign's or airdrop's tasks (the trust module's `gateEntryCheck`); without it such a task is refused. */
  gateCheck?: GateCheck;
  now?: Date;
}): Promise<Result<{ completionId: string | null; status: "approved" | "already" | "not_done" }>> {
  const [t] = await db
    .select({ id: task.id, type: task.type, recurrence: task.recurrence })
    .from(task)
    .where(and(eq(task.id, taskId), eq(task.projectId, projectId)));
  if (!t) return failure("not_found", "This project has no task with this id.");
  if (t.type !== "api_check") return failure("conflict", "Only a task checked by the project's server (api_check) takes completions through the API.");
  const [member] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId));
  if (!member) return failure("not_found", "No member has this id.");
  if (!done) return ok({ completionId: null, status: "not_done" as const });

  const approved = async () => {
    const [row] = await db
      .select({ id: completion.id })
      .from(completion)
      .where(
        and(eq(completion.taskId, t.id), eq(completion.userId, userId), eq(completion.period, periodOf(t.recurrence, now)), eq(completion.status, "approved")),
      );
    return row ?? null;
  };
  const before = await approved();
  if (before) return ok({ completionId: before.id, status: "already" as const });
  const result = await attemptTask({ db, taskId: t.id, userId, input: { kind: "pushed", apiKeyId, reason: reason?.trim() || null }, gateCheck, now });
  if (result.ok) return ok({ completionId: result.completionId, status: "approved" as const });
  // Another push for the same member landed first: its completion is the answer.
  const raced = await approved();
  return raced ? ok({ completionId: raced.id, status: "already" as const }) : result;
}

/** How often a team member may press "Try it" (each makes a request to the URL typed). */
export const TRY_LIMIT = { max: 10, windowSeconds: 60 } as const;

/**
 * The task form's "Try it": the signed request a member's Check sends, to the URL typed in the form,
 * about the acting team member (their wallets) and marked `test: true`; what came back, read as a
 * Check reads it. Nothing is recorded.
 */
export async function tryApiCheck({
  db,
  projectId,
  userId,
  url,
  task: t,
  context,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  /** The team member trying it: the request names them as the member. */
  userId: string;
  url: string;
  /** The task being edited (its id), or a new one's title. */
  task: { id: string | null; title: string };
  context: ApiCheckContext;
  now?: Date;
}): Promise<Result<{ reply: ApiCheckReply }>> {
  if (t.id) {
    const [own] = await db
      .select({ id: task.id })
      .from(task)
      .where(and(eq(task.id, t.id), eq(task.projectId, projectId)));
    if (!own) return failure("not_found", "This project has no task with this id.");
  }
  const limit = await takeRateLimit({ db, key: `api-check-try:${projectId}:${userId}`, ...TRY_LIMIT, now: now.getTime() });
  if (!limit.ok) return failure("limited", `You tried several times just now. Try again in ${limit.retryAfterSeconds} seconds.`, limit.retryAfterSeconds);
  const body = {
    type: "api_check" as const,
    task: { id: t.id, title: t.title || "Untitled task" },
    member: await apiCheckMember({ db, userId }),
    timestamp: new Date().toISOString(),
    test: true as const,
  };
  return ok({ reply: await askProjectServer({ db, projectId, url, body, context }) });
}
