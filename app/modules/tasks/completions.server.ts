import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, lt, sql } from "drizzle-orm";
import { campaign, completion, crusade, onchainTxUse, quizAttempt, referral, reviewDecision, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { failure, invalid, ok, type CodedFailure, type Failure, type Ok, type Result } from "~/lib/result";
import { airdrop } from "#db/schema/airdrops";
import { addBoardPoints, awardXp, boardKey } from "~/modules/leaderboards/leaderboards.server";
import type { Evidence } from "~/modules/social/checks/outcome";
import type { VerifiedBy } from "~/modules/social/providers";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { attemptField } from "./attempt.schema";
import { campaignStatus } from "./campaign-status";
import { normalizeAnswer, taskConfigSchemas } from "./task.schema";
import { isApiChecked, isProofOnly } from "./task-checks";
import { verifySocial } from "./verify-social.server";
import { isOnchainChecked } from "./task-checks";
import { verifyOnchain } from "./verify-onchain.server";
import { verifyEvent } from "./verify-event.server";
import { completionEvent, decisionsOn, memberJoinedEvent } from "./completion-events.server";
import { emitEvents } from "~/modules/events/emit.server";
import type { ChainEvidence } from "~/modules/chain/chain-evidence";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { verifyApiCheck, type ApiCheckContext, type ApiCheckEvidence } from "./verify-api-check.server";

export type Task = typeof task.$inferSelect;
export type Completion = typeof completion.$inferSelect;

/** The chains on-chain tasks are checked on: the registry's chains by id (their page clients and confirmations). */
export type OnchainChains = Pick<ChainRegistry, "get">;

export type AttemptInput =
  | { kind: "visit" }
  | { kind: "answer"; answer: string }
  | { kind: "text"; text: string }
  | { kind: "url"; url: string }
  | { kind: "image"; imageUrl: string }
  | { kind: "check" }
  /** A transaction's hash the member pasted (lowercase), or "Find my transaction". */
  | { kind: "transaction"; hash: string }
  | { kind: "find" }
  /** Reviewed proof of a follow: a link, a stored screenshot, or both. */
  | { kind: "proof"; url: string | null; imageUrl: string | null }
  /** An api_check task's completion pushed by the project through the public API (pushCompletion): never from a form. */
  | { kind: "pushed"; apiKeyId: string; reason: string | null };

/**
 * The eligibility gate's check on entry (issue #38), passed in by the caller (the trust module
 * builds it: tasks do not import trust). `gate` is the campaign's or airdrop's stored gate (never
 * null here); a refusal lists what the member still needs, and nothing is recorded.
 */
export type GateCheck = (entry: { gate: unknown; what: "campaign" | "airdrop"; projectId: string; userId: string; now: Date }) => Promise<CodedFailure | null>;

/** What a social task's check needs: the configured providers and a logger for answers we cannot read. */
export type SocialCheckContext = { social: SocialConfig; log?: Pick<Logger, "warn"> };

/**
 * An attempt's outcome. Refused: `invalid` on the task's own field when what the member entered
 * does not pass (an empty or wrong answer, a bad link), `not_met` when a check ran and found the
 * task not done yet (no wallet, too few tokens or referrals, no follow) or the task's state does
 * not allow it (not open, done, waiting, full, an earlier step first), `limited` while a quiz
 * makes them wait (a wrong answer with a retry delay included) or a social provider's rate limit
 * lasts, `unavailable` when the chain or a social provider cannot be read (or is not set up),
 * `conflict` when the member's social connection must be made or renewed first, `not_found` for
 * no task. A social provider's problem changes nothing.
 */
export type AttemptResult = Result<{ status: "approved" | "pending"; completionId: string; xpAwarded: number }>;

/** The task's state does not allow the attempt (done already, full, ended): the rule's answer, not an error. */
const refused = (message: string) => failure("not_met", message);

/** A daily task's period is the UTC day; a one-off task has a single period. */
export function periodOf(recurrence: Task["recurrence"], now: Date) {
  return recurrence === "daily" ? now.toISOString().slice(0, 10) : "once";
}

type Tx = Db;

const WINDOW_REFUSALS = { draft: "is not published yet.", scheduled: "has not started yet.", ended: "has ended." } as const;

/** Why the campaign or airdrop holding a task takes no attempts now (a missing one counts as a draft), or null. */
function windowRefusal(what: "campaign" | "airdrop", row: Parameters<typeof campaignStatus>[0] | undefined, now: Date): CodedFailure | null {
  const status = row ? campaignStatus(row, now) : "draft";
  return status === "live" ? null : refused(`This ${what} ${WINDOW_REFUSALS[status]}`);
}

/** Why a task cannot be attempted right now, or null. */
async function availability(db: Tx, t: Task, userId: string, now: Date): Promise<CodedFailure | null> {
  if (!t.publishedAt) return refused("This task is not published yet.");
  if (t.startsAt && now < t.startsAt) return refused("This task has not started yet.");
  if (t.endsAt && now >= t.endsAt) return refused("This task has ended.");
  if (t.campaignId) {
    const [c] = await db.select().from(campaign).where(eq(campaign.id, t.campaignId));
    const closed = windowRefusal("campaign", c, now);
    if (closed) return closed;
  }
  if (t.airdropId) {
    const [a] = await db.select().from(airdrop).where(eq(airdrop.id, t.airdropId));
    const closed = windowRefusal("airdrop", a, now);
    if (closed) return closed;
  }
  if (t.crusadeId && t.crusadePosition) {
    // The step before this one (positions may have gaps when tasks moved to another crusade).
    const [previous] = await db
      .select({ id: task.id, title: task.title })
      .from(task)
      .where(and(eq(task.crusadeId, t.crusadeId), lt(task.crusadePosition, t.crusadePosition)))
      .orderBy(desc(task.crusadePosition))
      .limit(1);
    if (previous) {
      const [done] = await db
        .select({ id: completion.id })
        .from(completion)
        .where(and(eq(completion.taskId, previous.id), eq(completion.userId, userId), eq(completion.status, "approved")));
      if (!done) return refused(`Complete "${previous.title}" first.`);
    }
  }
  return null;
}

/** Whether the gate of the task's campaign or airdrop keeps the member out (checked before anything is read or recorded). */
async function gateRefusal(db: Tx, t: Task, userId: string, now: Date, gateCheck: GateCheck | undefined): Promise<CodedFailure | null> {
  const holders = [
    ...(t.campaignId ? await db.select({ gate: campaign.gate }).from(campaign).where(eq(campaign.id, t.campaignId)) : []).map((r) => ({
      ...r,
      what: "campaign" as const,
    })),
    ...(t.airdropId ? await db.select({ gate: airdrop.gate }).from(airdrop).where(eq(airdrop.id, t.airdropId)) : []).map((r) => ({
      ...r,
      what: "airdrop" as const,
    })),
  ];
  for (const { gate, what } of holders) {
    if (gate == null) continue;
    if (!gateCheck) return failure("unavailable", `This ${what}'s entry rules cannot be checked here. Try again on the task's page.`);
    const refusal = await gateCheck({ gate, what, projectId: t.projectId, userId, now });
    if (refusal) return refusal;
  }
  return null;
}

/**
 * What a check found: the submission to keep, how it was checked (by the task's own mode unless
 * said), what a provider's API found, and whether it goes to the team (reviewed proof).
 */
export type Verified = Ok<{
  submission: Record<string, unknown>;
  verifiedBy?: VerifiedBy;
  evidence?: Evidence | ChainEvidence | ApiCheckEvidence;
  review?: true;
  /** A transaction that completes the task: recorded with the completion, refused if the task counted it already. */
  claim?: { chainId: number; txHash: string };
}>;

/** How a completion of the task was checked when its check says nothing more. */
const verifiedByMode = (t: Task): VerifiedBy => (t.verification === "review" ? "review" : t.verification === "none" ? "none" : "auto");

/** Checks what the member did against the task; returns the submission to keep, or why it fails. */
async function verify(
  db: Tx,
  t: Task,
  userId: string,
  input: AttemptInput,
  now: Date,
  chains: OnchainChains | undefined,
  social: SocialCheckContext | undefined,
  apiCheck: ApiCheckContext | undefined,
): Promise<Verified | Failure> {
  const keep = (submission: Record<string, unknown>) => ok({ submission });
  const fails = (message: string) => invalid(attemptField(t.type), message);
  // The check ran and found the task not done yet: a result, not a wrong input.
  const notYet = (message: string) => failure("not_met", message);
  if (t.type === "api_check") return verifyApiCheck({ db, task: t, userId, input, now, context: apiCheck });
  // A pushed completion is an api_check task's only.
  if (input.kind === "pushed") return fails("This task cannot be checked.");
  if (isApiChecked(t.type) || isProofOnly(t.type)) return verifySocial(db, t, userId, input, now, social);
  if (t.type === "event_emitted") return verifyEvent({ db, task: t, userId, now, chains });
  if (isOnchainChecked(t.type)) return verifyOnchain({ db, task: t, userId, input, now, chains });
  switch (t.type) {
    case "visit_link":
      return input.kind === "visit" ? keep({ visitedAt: now.toISOString() }) : fails("Open the link first.");
    case "quiz": {
      if (input.kind !== "answer" || !input.answer.trim()) return fails("Enter your answer.");
      const config = taskConfigSchemas.quiz.parse(t.config);
      const [attempts] = await db
        .select()
        .from(quizAttempt)
        .where(and(eq(quizAttempt.taskId, t.id), eq(quizAttempt.userId, userId)));
      if (attempts?.lastWrongAt && config.retryDelaySeconds > 0) {
        const wait = Math.ceil((attempts.lastWrongAt.getTime() + config.retryDelaySeconds * 1000 - now.getTime()) / 1000);
        if (wait > 0) return failure("limited", `Try again in ${wait} seconds.`, wait);
      }
      if (!config.answers.some((a) => normalizeAnswer(a) === normalizeAnswer(input.answer))) {
        await db
          .insert(quizAttempt)
          .values({ taskId: t.id, userId, wrongAnswers: 1, lastWrongAt: now })
          .onConflictDoUpdate({
            target: [quizAttempt.taskId, quizAttempt.userId],
            set: { wrongAnswers: sql`${quizAttempt.wrongAnswers} + 1`, lastWrongAt: now },
          });
        // With a retry delay, the member must wait before the next answer: a limit.
        return config.retryDelaySeconds > 0 ? failure("limited", "That is not the answer.", config.retryDelaySeconds) : fails("That is not the answer.");
      }
      return keep({ answer: input.answer.trim().slice(0, 200) });
    }
    case "submit_text": {
      const config = taskConfigSchemas.submit_text.parse(t.config);
      const text = input.kind === "text" ? input.text.trim() : "";
      if (text.length < config.minLength) return fails(config.minLength === 1 ? "Write your answer." : `Write at least ${config.minLength} characters.`);
      if (text.length > 5000) return fails("Keep it under 5000 characters.");
      return keep({ text });
    }
    case "submit_url": {
      const url = input.kind === "url" ? input.url.trim() : "";
      try {
        const parsed = new URL(url);
        if (!/^https?:$/.test(parsed.protocol)) throw new Error();
      } catch {
        return fails("Enter a full link starting with https://");
      }
      return keep({ url });
    }
    case "submit_image":
      return input.kind === "image" ? keep({ imageUrl: input.imageUrl }) : fails("Choose an image.");
    case "wallet_connected": {
      const [wallet] = await db.select({ id: walletAddress.id }).from(walletAddress).where(eq(walletAddress.userId, userId)).limit(1);
      return wallet ? keep({}) : notYet("Link a wallet in Settings › Profile first.");
    }
    case "referral": {
      const config = taskConfigSchemas.referral.parse(t.config);
      const [row] = await db
        .select({ n: count() })
        .from(referral)
        .where(and(eq(referral.referrerId, userId), eq(referral.counted, true)));
      const n = row?.n ?? 0;
      return n >= config.count ? keep({ referrals: n }) : notYet(`You have brought ${n} of ${config.count} members so far.`);
    }
    default:
      return fails("This task cannot be checked.");
  }
}

/**
 * A member attempts a task. Auto-verified and unverified tasks are approved (and pay XP) at once;
 * reviewed ones wait for the team. The cap admits exactly `cap` completions, however many members
 * race for the last place, and XP is paid once per approved completion.
 */
export async function attemptTask({
  db,
  taskId,
  userId,
  input,
  chains,
  social,
  apiCheck,
  gateCheck,
  now = new Date(),
}: {
  db: Db;
  taskId: string;
  userId: string;
  input: AttemptInput;
  /** The chains on-chain tasks are checked on (without them such a task cannot be checked). */
  chains?: OnchainChains;
  /** The configured social providers, for social tasks (without them a social task is "not set up"). */
  social?: SocialCheckContext;
  /** The signing key and reach of an api_check task's request to the project's server (without it such a task cannot be checked). */
  apiCheck?: ApiCheckContext;
  /** The entry check of a gated campaign's or airdrop's tasks; without it such a task is refused. */
  gateCheck?: GateCheck;
  now?: Date;
}): Promise<AttemptResult> {
  const [t] = await db.select().from(task).where(eq(task.id, taskId));
  if (!t) return failure("not_found", "This task does not exist.");
  const blocked = await availability(db, t, userId, now);
  if (blocked) return blocked;

  const period = periodOf(t.recurrence, now);
  const [existing] = await db
    .select()
    .from(completion)
    .where(and(eq(completion.taskId, t.id), eq(completion.userId, userId), eq(completion.period, period)));
  if (existing?.status === "approved") return refused(t.recurrence === "daily" ? "Done for today. Come back tomorrow." : "You have completed this task.");
  if (existing?.status === "pending") return refused("Your submission is waiting for review.");
  const kept = await gateRefusal(db, t, userId, now, gateCheck);
  if (kept) return kept;

  const verified = await verify(db, t, userId, input, now, chains, social, apiCheck);
  if (!verified.ok) return verified;
  // Reviewed proof waits for the team whatever the task's mode says: it is never approved here.
  const status = t.verification === "review" || verified.review || isProofOnly(t.type) ? "pending" : "approved";
  const checked = { verifiedBy: verified.verifiedBy ?? verifiedByMode(t), evidence: verified.evidence ?? null };

  return db
    .transaction(async (tx): Promise<AttemptResult> => {
      let completionId: string;
      if (existing) {
        // A rejected submission, tried again.
        const [updated] = await tx
          .update(completion)
          .set({ status, submission: verified.submission, ...checked, reason: null, reviewedBy: null, reviewedAt: null, updatedAt: now })
          .where(and(eq(completion.id, existing.id), eq(completion.status, "rejected")))
          .returning({ id: completion.id });
        if (!updated) throw new ConcurrentAttempt();
        completionId = updated.id;
      } else {
        const [inserted] = await tx
          .insert(completion)
          .values({ id: randomUUID(), taskId: t.id, userId, period, status, submission: verified.submission, ...checked, createdAt: now, updatedAt: now })
          .onConflictDoNothing()
          .returning({ id: completion.id });
        if (!inserted) throw new ConcurrentAttempt();
        completionId = inserted.id;
      }
      if (verified.claim) await claimTransaction(tx, { taskId: t.id, userId, completionId, ...verified.claim });
      const xpAwarded = status === "approved" ? await payCompletion(tx, t, userId, completionId, now) : 0;
      // A retry starts the round after the decisions that rejected it (completion-events.server.ts).
      const round = existing ? await decisionsOn(tx, completionId) : 0;
      const about = { t, completionId, userId, round, reviewed: false };
      await emitEvents(tx, [
        completionEvent("completion.created", about),
        ...(status === "approved" ? [completionEvent("completion.approved", about)] : []),
        memberJoinedEvent(t.projectId, userId),
      ]);
      if (!(await takeSlot(tx, t.id))) throw new TaskFull();
      return ok({ status, completionId, xpAwarded });
    })
    .catch((error: unknown) => {
      // Another attempt by the same member landed first; its outcome stands (and its slot is the only one taken).
      if (error instanceof ConcurrentAttempt) return refused("You have already done this task.");
      if (error instanceof TaskFull) return refused("This task is full: every place has been taken.");
      if (error instanceof TransactionUsed) return invalid(attemptField(t.type), TRANSACTION_USED);
      throw error;
    });
}

class ConcurrentAttempt extends Error {}
class TaskFull extends Error {}
class TransactionUsed extends Error {}

/** A hash counts once per task, whoever sent it (the check refuses it first; this is the race's answer). */
export const TRANSACTION_USED = "This transaction was already used for this task. Each transaction counts once.";

/** Records the transaction that completed the task; a second completion with it, racing this one, fails its transaction. */
async function claimTransaction(
  tx: Tx,
  { taskId, userId, completionId, chainId, txHash }: { taskId: string; userId: string; completionId: string; chainId: number; txHash: string },
) {
  const [claimed] = await tx
    .insert(onchainTxUse)
    .values({ taskId, txHash: txHash.toLowerCase(), chainId, completionId, userId })
    .onConflictDoNothing()
    .returning({ taskId: onchainTxUse.taskId });
  if (!claimed) throw new TransactionUsed();
}

/**
 * A place under the task's cap (every task counts its places, capped or not). Every writer takes
 * the task's row last, just before its commit: each member's completion of a popular task then
 * waits on the others only for this statement, not for their XP and boards, and the row is never
 * held while waiting for a lock another writer of the task holds (decision 050).
 */
async function takeSlot(tx: Tx, taskId: string) {
  const [slot] = await tx
    .update(task)
    .set({ slotsTaken: sql`${task.slotsTaken} + 1` })
    .where(and(eq(task.id, taskId), sql`(${task.cap} is null or ${task.slotsTaken} < ${task.cap})`))
    .returning({ id: task.id });
  return slot !== undefined;
}

/** Gives back a place under the task's cap; last in its transaction, like `takeSlot`. */
export async function freeSlot(tx: Tx, taskId: string) {
  await tx
    .update(task)
    .set({ slotsTaken: sql`greatest(${task.slotsTaken} - 1, 0)` })
    .where(eq(task.id, taskId));
}

/**
 * Pays an approved completion's XP (and, for an airdrop's task, the same as points on the
 * airdrop's board, exactly when the XP is paid: once), and the crusade's bonus when it completes
 * the crusade.
 */
async function payCompletion(tx: Tx, t: Task, userId: string, completionId: string, now: Date): Promise<number> {
  let paid = 0;
  const award = { userId, projectId: t.projectId, campaignId: t.campaignId, at: now };
  if (await awardXp({ db: tx, award: { ...award, sourceType: "completion", sourceId: completionId, amount: t.xp } })) {
    paid += t.xp;
    if (t.airdropId) await addAirdropPoints(tx, t.airdropId, userId, t.xp, now);
  }
  if (t.crusadeId) {
    const [c] = await tx.select().from(crusade).where(eq(crusade.id, t.crusadeId));
    if (c && c.bonusXp > 0) {
      const steps = await tx.select({ id: task.id }).from(task).where(eq(task.crusadeId, c.id));
      const [done] = await tx
        .select({ n: sql<number>`count(distinct ${completion.taskId})`.mapWith(Number) })
        .from(completion)
        .where(
          and(eq(completion.userId, userId), eq(completion.status, "approved"), sql`${completion.taskId} in (select id from task where crusade_id = ${c.id})`),
        );
      if (steps.length > 0 && done?.n === steps.length) {
        const bonus = { ...award, campaignId: null, sourceType: "crusade", sourceId: c.id, amount: c.bonusXp };
        if (await awardXp({ db: tx, award: bonus })) paid += c.bonusXp;
      }
    }
  }
  return paid;
}

/**
 * An airdrop task's points, while the airdrop runs: a submission approved after its end earns XP
 * but no points, since the allocation is frozen from the board at the end. The airdrop's row is
 * read under a share lock, so the freeze (which takes it for update) sees these points or none.
 */
async function addAirdropPoints(tx: Tx, airdropId: string, userId: string, points: number, now: Date) {
  const [running] = await tx
    .select({ id: airdrop.id })
    .from(airdrop)
    .where(and(eq(airdrop.id, airdropId), eq(airdrop.status, "open"), gt(airdrop.endsAt, now)))
    .for("share");
  if (running) await addBoardPoints({ db: tx, board: boardKey({ kind: "airdrop", airdropId }, "all"), userId, points, at: now });
}

/**
 * A decision's outcome. Refused: `invalid` on `reason` for a rejection without one, `forbidden`
 * for one's own submission, `conflict` when the submission's state or the cap does not allow it,
 * `not_found` for no submission.
 */
export type ReviewResult = Result<{ xpAwarded: number }>;

/** Nobody decides on their own submission, whatever their role: another member of the team does. */
export const OWN_SUBMISSION = "You cannot review your own submission: another member of the team decides on it.";

/**
 * Approves or rejects a submission, recording who decided what. A rejection frees the member's
 * place under the cap and needs a reason; approving a rejected submission takes a place again.
 * An approved completion is final (its XP is paid). Nobody decides on their own submission.
 */
export async function reviewCompletion({
  db,
  completionId,
  reviewerId,
  decision,
  reason,
  now = new Date(),
}: {
  db: Db;
  completionId: string;
  reviewerId: string;
  decision: "approved" | "rejected";
  reason?: string;
  now?: Date;
}): Promise<ReviewResult> {
  if (decision === "rejected" && !reason?.trim()) return invalid("reason", "Say why, so the member can do better.");
  return db
    .transaction(async (tx): Promise<ReviewResult> => {
      const [c] = await tx.select().from(completion).where(eq(completion.id, completionId)).for("update");
      if (!c) return failure("not_found", "This submission does not exist.");
      if (c.userId === reviewerId) return failure("forbidden", OWN_SUBMISSION);
      if (c.status === "approved") return failure("conflict", "This submission is already approved.");
      if (c.status === decision) return failure("conflict", "This submission is already rejected.");
      const [t] = await tx.select().from(task).where(eq(task.id, c.taskId));
      await tx
        .update(completion)
        .set({
          status: decision,
          reason: decision === "rejected" ? reason!.trim() : null,
          // An approval is the team's check, whatever checked the submission before.
          ...(decision === "approved" ? { verifiedBy: "review" as const } : {}),
          reviewedBy: reviewerId,
          reviewedAt: now,
          updatedAt: now,
        })
        .where(eq(completion.id, c.id));
      const round = (await decisionsOn(tx, c.id)) + 1;
      await tx.insert(reviewDecision).values({ id: randomUUID(), completionId: c.id, reviewerId, decision, reason: reason?.trim() || null, createdAt: now });
      const xpAwarded = decision === "approved" ? await payCompletion(tx, t!, c.userId, c.id, now) : 0;
      const type = decision === "approved" ? "completion.approved" : "completion.rejected";
      await emitEvents(tx, [
        completionEvent(type, { t: t!, completionId: c.id, userId: c.userId, round, reviewed: true, reason: decision === "rejected" ? reason!.trim() : null }),
      ]);
      // A rejection frees the place; approving a rejected submission takes one again (a pending one holds its place).
      if (decision === "rejected") await freeSlot(tx, c.taskId);
      else if (c.status === "rejected" && !(await takeSlot(tx, c.taskId))) throw new TaskFull();
      return ok({ xpAwarded });
    })
    .catch((error: unknown) => {
      if (error instanceof TaskFull) return failure("conflict", "This task is full: approving it would exceed the cap.");
      throw error;
    });
}

/** The first members to complete a task, in order (the task's leaderboard). */
export async function firstCompleters({ db, taskId, limit = 50 }: { db: Db; taskId: string; limit?: number }) {
  return db
    .select({ userId: completion.userId, completedAt: sql<Date>`coalesce(${completion.reviewedAt}, ${completion.createdAt})` })
    .from(completion)
    .where(and(eq(completion.taskId, taskId), eq(completion.status, "approved")))
    .orderBy(asc(sql`coalesce(${completion.reviewedAt}, ${completion.createdAt})`), asc(completion.id))
    .limit(limit);
}
