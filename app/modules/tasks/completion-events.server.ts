import { count, eq } from "drizzle-orm";
import { reviewDecision, type task } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import type { NewEvent } from "~/modules/events/event-types";

type CompletionEventType = "completion.created" | "completion.approved" | "completion.rejected" | "completion.voided";
type TaskOf = Pick<typeof task.$inferSelect, "id" | "title" | "projectId" | "campaignId" | "crusadeId" | "airdropId">;

/**
 * A completion's outbox events (app/modules/events). A completion lives in rounds: a submission,
 * then the decisions on it (a review, a void), each recorded in `review_decision`; a rejected one
 * tried again starts the next round. Round 0's events are keyed by the completion alone
 * (`completion.approved:<id>`), later ones by the completion and the number of decisions before
 * them, so each state change is recorded once and a later round's is recorded too.
 */
export function completionEvent(
  type: CompletionEventType,
  {
    t,
    completionId,
    userId,
    round,
    reviewed,
    reason,
  }: { t: TaskOf; completionId: string; userId: string; round: number; reviewed: boolean; reason?: string | null },
): NewEvent<CompletionEventType> {
  return {
    type,
    key: round === 0 ? `${type}:${completionId}` : `${type}:${completionId}:${round}`,
    projectId: t.projectId,
    data: {
      completionId,
      taskId: t.id,
      taskTitle: t.title.slice(0, 300),
      userId,
      campaignId: t.campaignId,
      crusadeId: t.crusadeId,
      airdropId: t.airdropId,
      reviewed,
      reason: reason ? reason.slice(0, 2000) : null,
    },
  };
}

/** A member's first completion in the project, whatever its status: once per member and project (the key). */
export function memberJoinedEvent(projectId: string, userId: string): NewEvent<"member.joined"> {
  return { type: "member.joined", key: `member.joined:${projectId}:${userId}`, projectId, data: { userId } };
}

/** The decisions made on a completion so far: the round a retry starts, or (plus one) the one a decision ends. */
export async function decisionsOn(db: Db, completionId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(reviewDecision).where(eq(reviewDecision.completionId, completionId));
  return row?.n ?? 0;
}
