import { randomUUID } from "node:crypto";
import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { campaign } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import { exclusionAppeal, memberExclusion } from "#db/schema/trust";
import type { Db } from "~/lib/db.server";
import { failure, invalid, ok, type Result } from "~/lib/result";
import { memberIdentities, type MemberIdentity } from "~/modules/projects/member-identity.server";
import { audit, liftIn, targetFacts } from "./exclusions.server";
import { trustOf } from "./scoring.server";
import type { AppealStatus, ExclusionScope } from "./trust-types";

/**
 * A member's appeals of their exclusions, and the team's answers. An appeal lands in the
 * project's review queue; upheld, it lifts the exclusion (before the payout, or it is too late);
 * denied, the member may appeal again a day later. Who may decide is the caller's
 * (`authorize(… "trust.view")`); nobody decides their own appeal.
 */

const DAY_MS = 86_400_000;
/** Appeals one member may make in 24 hours, all exclusions together. */
export const APPEALS_PER_DAY = 3;

export const appealMessageSchema = z
  .string({ error: "Tell the team why the exclusion is wrong" })
  .trim()
  .min(10, "Tell the team why, in at least 10 characters")
  .max(1000, "Keep your appeal under 1,000 characters");
export const appealAnswerSchema = z
  .string({ error: "Answer the member: they read it" })
  .trim()
  .min(3, "Answer the member in a few words (at least 3 characters): they read it")
  .max(1000, "Keep the answer under 1,000 characters");

const waitSeconds = (until: number, now: Date) => Math.max(1, Math.ceil((until - now.getTime()) / 1000));

/** The excluded member appeals one of their live exclusions: one pending appeal per exclusion, and a flood limit. */
export async function appealExclusion({
  db,
  userId,
  exclusionId,
  message,
  now = new Date(),
}: {
  db: Db;
  userId: string;
  exclusionId: string;
  message: string;
  now?: Date;
}): Promise<Result<{ appealId: string }>> {
  const said = appealMessageSchema.safeParse(message);
  if (!said.success) return invalid("message", said.error.issues[0]!.message);
  return db.transaction(async (tx) => {
    const [exclusion] = await tx
      .select()
      .from(memberExclusion)
      .where(and(eq(memberExclusion.id, exclusionId), eq(memberExclusion.userId, userId)))
      .for("update");
    if (!exclusion) return failure("not_found", "That exclusion is not one of yours.");
    if (exclusion.liftedAt) return failure("conflict", "That exclusion was lifted already: there is nothing to appeal.");
    const facts = await targetFacts(tx, { scope: exclusion.scope, scopeId: exclusion.scopeId });
    if (facts?.closed) return failure("conflict", `${facts.closed} An appeal can no longer change it.`);

    const recent = await tx
      .select({
        exclusionId: exclusionAppeal.exclusionId,
        status: exclusionAppeal.status,
        createdAt: exclusionAppeal.createdAt,
        decidedAt: exclusionAppeal.decidedAt,
      })
      .from(exclusionAppeal)
      .where(and(eq(exclusionAppeal.userId, userId), gte(exclusionAppeal.createdAt, new Date(now.getTime() - 2 * DAY_MS))))
      .orderBy(desc(exclusionAppeal.createdAt));
    if (recent.some((a) => a.exclusionId === exclusionId && a.status === "pending"))
      return failure("conflict", "Your appeal of this exclusion is waiting for the team's answer.");
    const denied = recent.find((a) => a.exclusionId === exclusionId && a.status === "denied" && a.decidedAt && a.decidedAt.getTime() > now.getTime() - DAY_MS);
    if (denied)
      return failure(
        "limited",
        "The team denied your appeal of this exclusion less than a day ago: you may appeal again 24 hours after their answer.",
        waitSeconds(denied.decidedAt!.getTime() + DAY_MS, now),
      );
    const today = recent.filter((a) => a.createdAt.getTime() > now.getTime() - DAY_MS);
    if (today.length >= APPEALS_PER_DAY)
      return failure(
        "limited",
        `You made ${APPEALS_PER_DAY} appeals in the last 24 hours, the most a day: try again later.`,
        waitSeconds(today[today.length - 1]!.createdAt.getTime() + DAY_MS, now),
      );

    const [appeal] = await tx
      .insert(exclusionAppeal)
      .values({ id: randomUUID(), exclusionId, userId, message: said.data, status: "pending", createdAt: now })
      .onConflictDoNothing()
      .returning({ id: exclusionAppeal.id });
    if (!appeal) return failure("conflict", "Your appeal of this exclusion is waiting for the team's answer.");
    await audit(tx, [
      {
        projectId: exclusion.projectId,
        actorId: userId,
        action: "appeal",
        subjectId: userId,
        reason: said.data,
        scope: exclusion.scope,
        scopeId: exclusion.scopeId,
        now,
      },
    ]);
    return ok({ appealId: appeal.id });
  });
}

/** The team upholds (the exclusion is lifted) or denies a pending appeal of one of its exclusions, with an answer the member reads. */
export async function decideAppeal({
  db,
  projectId,
  actorId,
  appealId,
  decision,
  answer,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  actorId: string;
  appealId: string;
  decision: "uphold" | "deny";
  answer: string;
  now?: Date;
}): Promise<Result> {
  const said = appealAnswerSchema.safeParse(answer);
  if (!said.success) return invalid("answer", said.error.issues[0]!.message);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ appeal: exclusionAppeal, exclusion: memberExclusion })
      .from(exclusionAppeal)
      .innerJoin(memberExclusion, eq(memberExclusion.id, exclusionAppeal.exclusionId))
      .where(and(eq(exclusionAppeal.id, appealId), eq(memberExclusion.projectId, projectId)))
      .for("update", { of: exclusionAppeal });
    if (!row) return failure("not_found", "That appeal is not one of this project's.");
    const { appeal, exclusion } = row;
    if (appeal.userId === actorId) return failure("forbidden", "Nobody decides their own appeal: another member of the team answers it.");
    if (appeal.status !== "pending") return failure("conflict", `That appeal was ${appeal.status} already.`);
    if (decision === "uphold") {
      const lifted = await liftIn(tx, { projectId, actorId, exclusionId: exclusion.id, reason: said.data, action: "appeal_upheld", now });
      if (!lifted.ok) return lifted;
    } else {
      await audit(tx, [
        { projectId, actorId, action: "appeal_denied", subjectId: appeal.userId, reason: said.data, scope: exclusion.scope, scopeId: exclusion.scopeId, now },
      ]);
    }
    await tx
      .update(exclusionAppeal)
      .set({ status: decision === "uphold" ? "upheld" : "denied", decidedBy: actorId, decidedAt: now, answer: said.data })
      .where(eq(exclusionAppeal.id, appealId));
    return ok();
  });
}

/* ---------- Reads ---------- */

/** The name of what an exclusion keeps the member out of, for both the member's and the team's screens. */
const targetName = sql<string>`coalesce(
  case ${memberExclusion.scope}
    when 'pool' then (select c.name || ' reward' from ${rewardPool} rp join ${campaign} c on c.id = rp.campaign_id where rp.id = ${memberExclusion.scopeId})
    when 'airdrop' then (select a.name from ${airdrop} a where a.id = ${memberExclusion.scopeId})
  end, 'every reward of the project')`;

export type PendingAppeal = {
  id: string;
  userId: string;
  name: string;
  identity: MemberIdentity;
  message: string;
  createdAt: Date;
  exclusion: { scope: ExclusionScope; target: string; reason: string; createdAt: Date };
};

/** A project's pending appeals, oldest first, with the member's name and what the team may know of them. */
export async function pendingAppealsOf({ db, projectId, limit = 50 }: { db: Db; projectId: string; limit?: number }): Promise<PendingAppeal[]> {
  const rows = await db
    .select({
      id: exclusionAppeal.id,
      userId: exclusionAppeal.userId,
      name: user.name,
      message: exclusionAppeal.message,
      createdAt: exclusionAppeal.createdAt,
      scope: memberExclusion.scope,
      target: targetName,
      reason: memberExclusion.reason,
      excludedAt: memberExclusion.createdAt,
    })
    .from(exclusionAppeal)
    .innerJoin(memberExclusion, eq(memberExclusion.id, exclusionAppeal.exclusionId))
    .innerJoin(user, eq(user.id, exclusionAppeal.userId))
    .where(and(eq(memberExclusion.projectId, projectId), eq(exclusionAppeal.status, "pending")))
    .orderBy(exclusionAppeal.createdAt)
    .limit(limit);
  const identities = await memberIdentities({ db, userIds: rows.map((r) => r.userId) });
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    name: r.name,
    identity: identities.get(r.userId) ?? { wallets: [], socials: [] },
    message: r.message,
    createdAt: r.createdAt,
    exclusion: { scope: r.scope, target: r.target, reason: r.reason, createdAt: r.excludedAt },
  }));
}

export type MemberExclusionView = {
  id: string;
  project: { name: string; slug: string };
  scope: ExclusionScope;
  target: string;
  reason: string;
  createdAt: Date;
  liftedAt: Date | null;
  liftReason: string | null;
  /** Its latest appeal and the team's answer, if any. */
  appeal: { status: AppealStatus; message: string; answer: string | null; createdAt: Date; decidedAt: Date | null } | null;
  /** Why the member cannot appeal now (null: they can). */
  appealBlocked: string | null;
};

/** The member's own exclusions, newest first (live ones first), each with its latest appeal. Never another member's. */
export async function exclusionsOfMember({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }): Promise<MemberExclusionView[]> {
  const rows = await db
    .select({
      exclusion: memberExclusion,
      project: { name: project.name, slug: project.slug },
      target: targetName,
      closed: sql<boolean>`(case ${memberExclusion.scope}
        when 'pool' then exists (select 1 from ${rewardPool} rp where rp.id = ${memberExclusion.scopeId} and rp.status <> 'open')
        when 'airdrop' then exists (select 1 from ${airdrop} a where a.id = ${memberExclusion.scopeId} and a.status <> 'open')
        else false end)`,
    })
    .from(memberExclusion)
    .innerJoin(project, eq(project.id, memberExclusion.projectId))
    .where(eq(memberExclusion.userId, userId))
    .orderBy(sql`${memberExclusion.liftedAt} is null desc`, desc(memberExclusion.createdAt))
    .limit(100);
  const ids = rows.map((r) => r.exclusion.id);
  const appeals =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(exclusionAppeal)
          .where(and(inArray(exclusionAppeal.exclusionId, ids), eq(exclusionAppeal.userId, userId)))
          .orderBy(desc(exclusionAppeal.createdAt));
  const latest = new Map<string, (typeof appeals)[number]>();
  for (const a of appeals) if (!latest.has(a.exclusionId)) latest.set(a.exclusionId, a);
  return rows.map(({ exclusion: e, project: p, target, closed }) => {
    const a = latest.get(e.id) ?? null;
    const deniedRecently = a?.status === "denied" && a.decidedAt && a.decidedAt.getTime() > now.getTime() - DAY_MS;
    return {
      id: e.id,
      project: p,
      scope: e.scope,
      target,
      reason: e.reason,
      createdAt: e.createdAt,
      liftedAt: e.liftedAt,
      liftReason: e.liftReason,
      appeal: a ? { status: a.status, message: a.message, answer: a.answer, createdAt: a.createdAt, decidedAt: a.decidedAt } : null,
      appealBlocked: e.liftedAt
        ? "Lifted: there is nothing to appeal."
        : closed
          ? "Paid or frozen already: an appeal can no longer change it."
          : a?.status === "pending"
            ? "Your appeal is waiting for the team's answer."
            : deniedRecently
              ? "Denied less than a day ago: you may appeal again 24 hours after the answer."
              : null,
    };
  });
}

/**
 * The member's own Trust page: their score and its reasons (null until the scoring has seen
 * them), and their exclusions with their appeals. Never another member's.
 */
export async function memberTrustPage({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }) {
  const [trust, exclusions] = await Promise.all([ownTrust(db, userId), exclusionsOfMember({ db, userId, now })]);
  return {
    // The team-only details (which cluster) stay on the server.
    trust: trust
      ? {
          score: trust.score,
          flagged: trust.flagged,
          computedAt: trust.computedAt,
          reasons: trust.reasons.map((r) => ({ code: r.code, points: r.points, words: r.words })),
        }
      : null,
    exclusions,
  };
}

/**
 * The member's score, or null before it is computed. The scoring module is built beside this one:
 * until it is merged its `trustOf` says so by throwing "not built yet", read here as "not computed
 * yet"; any other error is a real one and is thrown on.
 */
async function ownTrust(db: Db, userId: string) {
  try {
    return await trustOf({ db, userId });
  } catch (error) {
    if (error instanceof Error && /not built yet/.test(error.message)) return null;
    throw error;
  }
}
