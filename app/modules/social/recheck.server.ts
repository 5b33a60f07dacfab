import { and, asc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { completion, task } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { failure, failureMessage } from "~/lib/result";
import type { Task } from "~/modules/tasks/completions.server";
import { taskConfigSchemas } from "~/modules/tasks/task.schema";
import { RECHECKED_TYPES, socialProviderOf } from "~/modules/tasks/task-checks";
import { voidApproval } from "~/modules/tasks/void-approval.server";
import { isConnectable, type SocialConfig } from "./social-config.server";
import { checkSocialTask } from "./social-tasks.server";

/**
 * Follows re-checked once before a campaign's rewards are paid (decision 030). Every approved
 * completion of the campaign's X follow, YouTube subscription, Discord server and role, and
 * Telegram group tasks that asks for it
 * (`recheckBeforeRewards`, on by default), that the provider's API found (it has evidence) and
 * that was not re-checked yet is checked again through the member's connection:
 *  - still there: `evidence.recheckedAt` (the first check's evidence is kept);
 *  - gone: the approval is voided (voidApproval: rejected with the reason below, place freed, XP
 *    taken back), with `recheckedAt` and `voidedAt` in its evidence;
 *  - the provider or the connection failed (or the check broke): the completion stands, marked
 *    `recheck: "skipped"` with the reason, and the run logs it once.
 * Each completion is re-checked at most once, and no provider is called inside a transaction.
 * Tasks whose provider is not configured are left alone: nothing can be checked.
 */

export type RecheckSummary = { checked: number; kept: number; voided: number; skipped: number };

/** Completions read per query while a task's re-check walks through them. */
const PAGE = 100;

/** Why the member's approval no longer counts, as the task page shows it. */
export function voidReason(t: Pick<Task, "type" | "config">): string {
  switch (t.type) {
    case "x_follow":
      return `You unfollowed @${taskConfigSchemas.x_follow.parse(t.config).handle} before the rewards were paid, so this task no longer counts.`;
    case "discord_join":
      return `You left ${taskConfigSchemas.discord_join.parse(t.config).guildName} on Discord before the rewards were paid, so this task no longer counts.`;
    case "discord_role": {
      const { roleName, guildName } = taskConfigSchemas.discord_role.parse(t.config);
      return `You no longer had the ${roleName} role in ${guildName} on Discord when the rewards were paid, so this task no longer counts.`;
    }
    case "telegram_join":
      return `You left ${taskConfigSchemas.telegram_join.parse(t.config).chatTitle} on Telegram before the rewards were paid, so this task no longer counts.`;
    default:
      return "You unsubscribed from the YouTube channel before the rewards were paid, so this task no longer counts.";
  }
}

/** Whether the task's completions are re-checked: a follow, subscription or membership whose team left the re-check on (a setting that cannot be read checks nothing). */
function rechecked(t: Task) {
  if (!(RECHECKED_TYPES as readonly string[]).includes(t.type)) return false;
  const settings = taskConfigSchemas[t.type as (typeof RECHECKED_TYPES)[number]].safeParse(t.config);
  return settings.success && settings.data.recheckBeforeRewards === true;
}

/** Not re-checked yet: its evidence has no `recheckedAt`. */
const notRechecked = sql`${completion.evidence}->>'recheckedAt' is null`;

/** Adds `patch` to a completion's evidence, if it is still approved and not re-checked yet. */
async function mark(db: Db, completionId: string, patch: Record<string, unknown>) {
  await db
    .update(completion)
    .set({ evidence: sql`${completion.evidence} || ${JSON.stringify(patch)}::jsonb` })
    .where(and(eq(completion.id, completionId), eq(completion.status, "approved"), notRechecked));
}

export async function recheckFollowsBeforeRewards({
  db,
  social,
  campaignId,
  now = new Date(),
  log,
  fetchFn,
}: {
  db: Db;
  social: SocialConfig;
  campaignId: string;
  now?: Date;
  log?: Pick<Logger, "warn">;
  /** Injected by tests; the global fetch otherwise. */
  fetchFn?: typeof fetch;
}): Promise<RecheckSummary> {
  const summary: RecheckSummary = { checked: 0, kept: 0, voided: 0, skipped: 0 };
  const skippedWhy = new Set<string>();
  const tasks = await db
    .select()
    .from(task)
    .where(and(eq(task.campaignId, campaignId), inArray(task.type, [...RECHECKED_TYPES])))
    .orderBy(asc(task.id));
  for (const t of tasks) {
    if (!rechecked(t) || !isConnectable(social, socialProviderOf(t.type)!)) continue;
    const at = now.toISOString();
    let after = "";
    for (;;) {
      const page = await db
        .select({ id: completion.id, userId: completion.userId })
        .from(completion)
        .where(and(eq(completion.taskId, t.id), eq(completion.status, "approved"), isNotNull(completion.evidence), notRechecked, gt(completion.id, after)))
        .orderBy(asc(completion.id))
        .limit(PAGE);
      for (const c of page) {
        summary.checked += 1;
        const found = await checkSocialTask({ db, social, task: t, userId: c.userId, now, log, ...(fetchFn ? { fetchFn } : {}) }).catch(
          // A check that breaks is a check that could not be made: it must not hold the campaign's rewards back for ever.
          (error: unknown) => {
            log?.warn({ err: error, taskId: t.id, completionId: c.id }, "a follow's re-check failed");
            return failure("unavailable", "The re-check failed.");
          },
        );
        if (found.ok) {
          await mark(db, c.id, { recheckedAt: at, recheck: "found" });
          summary.kept += 1;
        } else if (found.code === "not_met") {
          const outcome = await voidApproval({
            db,
            completionId: c.id,
            reason: voidReason(t),
            evidence: { recheckedAt: at, recheck: "not_found", voidedAt: at },
            // Another process may have re-checked it meanwhile: once only.
            onlyIf: (row) => !(row.evidence as { recheckedAt?: string } | null)?.recheckedAt,
            now,
          });
          if (outcome.voided) summary.voided += 1;
        } else {
          const reason = failureMessage(found);
          await mark(db, c.id, { recheckedAt: at, recheck: "skipped", recheckReason: reason });
          summary.skipped += 1;
          skippedWhy.add(reason);
        }
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  if (summary.skipped > 0) {
    log?.warn(
      { campaignId, skipped: summary.skipped, reasons: [...skippedWhy] },
      "some follows could not be re-checked before the rewards: their approvals stand",
    );
  }
  return summary;
}
