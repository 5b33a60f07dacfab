import { randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import { completion, reviewDecision, task } from "#db/schema/quests";
import { xpEvent } from "#db/schema/xp";
import type { Db } from "~/lib/db.server";
import { failure, ok } from "~/lib/result";
import { addBoardPoints, boardKey, revokeXp } from "~/modules/leaderboards/leaderboards.server";
import { emitEvent } from "~/modules/events/emit.server";
import { completionEvent, decisionsOn } from "./completion-events.server";
import { type Completion, freeSlot } from "./completions.server";

export type VoidOutcome = { voided: false } | { voided: true; userId: string; taskId: string; xpRevoked: number };

/**
 * Voids an approved completion, in one transaction: it becomes `rejected` with the reason the
 * member reads on the task page, `evidence` is merged into what its check found, a decision without
 * a reviewer is recorded, its place under the cap is freed and its XP taken back exactly once
 * (`revokeXp`), with an airdrop task's points while its airdrop is not frozen yet. A crusade's
 * bonus paid when the completion finished the crusade stands (decision 030). `onlyIf` sees the
 * completion under its row lock; a completion that is no longer approved, or that `onlyIf` refuses,
 * is left as it is.
 */
export async function voidApproval({
  db,
  completionId,
  reason,
  evidence = {},
  onlyIf = () => true,
  reviewerId = null,
  now = new Date(),
}: {
  db: Db;
  completionId: string;
  reason: string;
  /** The team member who voided it (Submissions › Void); null when a check found it no longer done. */
  reviewerId?: string | null;
  evidence?: Record<string, unknown>;
  onlyIf?: (c: Completion) => boolean;
  now?: Date;
}): Promise<VoidOutcome> {
  return db.transaction(async (tx): Promise<VoidOutcome> => {
    // The completion first, its task's row last: the order reviewCompletion takes them in.
    const [c] = await tx.select().from(completion).where(eq(completion.id, completionId)).for("update");
    if (!c || c.status !== "approved" || !onlyIf(c)) return { voided: false };
    const [t] = await tx
      .select({ id: task.id, title: task.title, projectId: task.projectId, campaignId: task.campaignId, crusadeId: task.crusadeId, airdropId: task.airdropId })
      .from(task)
      .where(eq(task.id, c.taskId));
    const kept = c.evidence && typeof c.evidence === "object" ? (c.evidence as Record<string, unknown>) : {};
    await tx
      .update(completion)
      .set({ status: "rejected", reason, evidence: { ...kept, ...evidence }, updatedAt: now })
      .where(eq(completion.id, c.id));
    const round = (await decisionsOn(tx, c.id)) + 1;
    await tx.insert(reviewDecision).values({ id: randomUUID(), completionId: c.id, reviewerId, decision: "rejected", reason, createdAt: now });
    // A check found it no longer done (a follow, a reorg, a holding), or a team member voided it.
    const reviewed = reviewerId !== null;
    if (t) await emitEvent(tx, completionEvent("completion.voided", { t, completionId: c.id, userId: c.userId, round, reviewed, reason }));

    // The award's time, read before it is taken back: an airdrop task's points were added only if it was paid before the airdrop's end.
    const [award] = await tx
      .select({ at: xpEvent.createdAt })
      .from(xpEvent)
      .where(and(eq(xpEvent.sourceType, "completion"), eq(xpEvent.sourceId, c.id), eq(xpEvent.userId, c.userId)));
    const xpRevoked = await revokeXp({ db: tx, userId: c.userId, sourceType: "completion", sourceId: c.id });
    if (xpRevoked > 0 && award && t?.airdropId) await takeBackAirdropPoints(tx, t.airdropId, c.userId, xpRevoked, award.at, now);
    await freeSlot(tx, c.taskId);
    return { voided: true, userId: c.userId, taskId: c.taskId, xpRevoked };
  });
}

/**
 * An airdrop task's points leave the airdrop's board with its XP while the airdrop is not frozen
 * (its allocation is read from the board at the freeze); once frozen, they stay in what was
 * allocated. Under a share lock of the airdrop's row, like the points' award, so the freeze sees
 * the points or none.
 */
async function takeBackAirdropPoints(tx: Db, airdropId: string, userId: string, points: number, awardedAt: Date, now: Date) {
  const [open] = await tx
    .select({ id: airdrop.id })
    .from(airdrop)
    .where(and(eq(airdrop.id, airdropId), eq(airdrop.status, "open"), lt(sql`${awardedAt.toISOString()}::timestamptz`, airdrop.endsAt)))
    .for("share");
  if (open) await addBoardPoints({ db: tx, board: boardKey({ kind: "airdrop", airdropId }, "all"), userId, points: -points, at: now });
}

/**
 * A team member voids an approval they find was not earned (Submissions › Void): as
 * `voidApproval`, with their name on the decision. Nobody voids their own completion.
 */
export async function voidByTeam({
  db,
  completionId,
  reviewerId,
  reason,
  now = new Date(),
}: {
  db: Db;
  completionId: string;
  reviewerId: string;
  reason: string;
  now?: Date;
}) {
  const [c] = await db.select({ userId: completion.userId, status: completion.status }).from(completion).where(eq(completion.id, completionId));
  if (!c) return failure("not_found", "This submission no longer exists.");
  if (c.userId === reviewerId) return failure("forbidden", "This is your own submission: another member of the team decides on it.");
  if (c.status !== "approved") return failure("conflict", "Only an approved submission can be voided.");
  const outcome = await voidApproval({ db, completionId, reason, reviewerId, onlyIf: (row) => row.userId !== reviewerId, now });
  return outcome.voided ? ok() : failure("conflict", "Only an approved submission can be voided.");
}
