import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import { memberExclusion, trustAudit, trustClusterMember, trustCluster } from "#db/schema/trust";
import { rowsOf, type Db } from "~/lib/db.server";
import { failure, invalid, ok, type Result } from "~/lib/result";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import { gateStateOf, storedGate } from "./eligibility.server";
import type { ExclusionScope, Gate, GateRule, GateState, TrustAuditAction } from "./trust-types";

/**
 * A project team's exclusions: members (or a whole cluster of them) kept out of one reward pool,
 * one airdrop or every reward of the project, each with the reason the member reads and a row of
 * the audit log. Who may act is the caller's (`authorize(… "trust.act")`); what may be done is
 * checked here, and a refusal changes nothing. Pools and airdrops read `keptOutOf` when they are
 * paid or frozen.
 */

export type ExclusionTarget = { scope: ExclusionScope; scopeId: string };

/** The counts' words for a member the team excluded (shown to visitors: "12 by the project team"). */
export const EXCLUDED_BY_TEAM = "by the project team";

export const exclusionReasonSchema = z
  .string({ error: "Say why, in a few words: the member reads it" })
  .trim()
  .min(3, "Say why, in a few words (at least 3 characters): the member reads it")
  .max(500, "Keep the reason under 500 characters");

/** At most this many members named in one exclusion (a cluster may be larger). */
const MAX_NAMED = 500;

/** What an exclusion's target is, whose project, its name, and why it can no longer change (null while it can). */
export type TargetFacts = { projectId: string; name: string; closed: string | null };

/**
 * The target of an exclusion, or null when there is none: a pool whose entrants are frozen or
 * that is paid, and an airdrop that is frozen, are closed (their payout no longer reads exclusions).
 */
export async function targetFacts(db: Db, { scope, scopeId }: ExclusionTarget): Promise<TargetFacts | null> {
  if (scope === "project") {
    const [row] = await db.select({ id: project.id, name: project.name }).from(project).where(eq(project.id, scopeId));
    return row ? { projectId: row.id, name: row.name, closed: null } : null;
  }
  if (scope === "pool") {
    const [row] = await db
      .select({ projectId: campaign.projectId, campaign: campaign.name, status: rewardPool.status, distribution: rewardPool.distribution })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(eq(rewardPool.id, scopeId));
    if (!row) return null;
    const closed =
      row.status === "open"
        ? null
        : row.status === "frozen"
          ? "This raffle's entrants are frozen already and its draw is committed: it is too late to change who takes part."
          : "This reward is paid already (or being paid): it is too late to change who gets it.";
    return { projectId: row.projectId, name: `${row.campaign} reward`, closed };
  }
  const [row] = await db.select({ projectId: airdrop.projectId, name: airdrop.name, status: airdrop.status }).from(airdrop).where(eq(airdrop.id, scopeId));
  if (!row) return null;
  return {
    projectId: row.projectId,
    name: row.name,
    closed: row.status === "open" ? null : "This airdrop's allocation is frozen already: it is too late to change who gets a share.",
  };
}

/** One row of the audit log: never updated or deleted. */
export async function audit(
  db: Db,
  rows: Array<{
    projectId: string;
    actorId: string | null;
    action: TrustAuditAction;
    subjectId: string | null;
    reason: string;
    clusterId?: string | null;
    scope?: ExclusionScope | null;
    scopeId?: string | null;
    now: Date;
  }>,
) {
  if (rows.length === 0) return;
  await db.insert(trustAudit).values(
    rows.map((r) => ({
      id: randomUUID(),
      projectId: r.projectId,
      actorId: r.actorId,
      action: r.action,
      subjectId: r.subjectId,
      clusterId: r.clusterId ?? null,
      scope: r.scope ?? null,
      scopeId: r.scopeId ?? null,
      reason: r.reason,
      createdAt: r.now,
    })),
  );
}

/** Those of `userIds` with a completion (any status) on one of the project's tasks. */
async function participantsAmong(db: Db, projectId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const result = await db.execute(sql`
    select distinct c.user_id from completion c join task t on t.id = c.task_id
    where t.project_id = ${projectId} and c.user_id in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))`);
  return new Set(rowsOf(result).map((r) => String(r.user_id)));
}

/** Excludes members (or every member of a cluster) of `projectId`'s participants from the target, with the audit log. */
export async function excludeMembers({
  db,
  projectId,
  actorId,
  target,
  userIds,
  clusterId,
  reason,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  actorId: string;
  target: ExclusionTarget;
  userIds?: readonly string[];
  clusterId?: string;
  reason: string;
  now?: Date;
}): Promise<Result<{ excluded: number; skipped: number }>> {
  const why = exclusionReasonSchema.safeParse(reason);
  if (!why.success) return invalid("reason", why.error.issues[0]!.message);
  const named = [...new Set(userIds ?? [])];
  if (!clusterId && named.length === 0) return invalid("form", "Choose the members to exclude, or a cluster.");
  if (named.length > MAX_NAMED) return invalid("form", `Exclude at most ${MAX_NAMED} members at once, or exclude their cluster.`);
  if (target.scope === "project" && target.scopeId !== projectId)
    return failure("not_found", "That is another project: a team excludes members from its own project only.");
  const facts = await targetFacts(db, target);
  if (!facts || facts.projectId !== projectId)
    return failure("not_found", `That ${target.scope === "pool" ? "reward" : target.scope} is not one of this project's: nothing was changed.`);
  if (facts.closed) return failure("conflict", facts.closed);

  return db.transaction(async (tx) => {
    let candidates = named;
    if (clusterId) {
      const [cluster] = await tx.select({ id: trustCluster.id }).from(trustCluster).where(eq(trustCluster.id, clusterId));
      if (!cluster) return failure("not_found", "That cluster does not exist (any more): the scores were recomputed since. Reload the page.");
      const members = await tx.select({ userId: trustClusterMember.userId }).from(trustClusterMember).where(eq(trustClusterMember.clusterId, clusterId));
      candidates = [...new Set([...named, ...members.map((m) => m.userId)])];
    }
    const team = new Set(
      (
        await tx
          .select({ userId: projectMember.userId })
          .from(projectMember)
          .where(and(eq(projectMember.projectId, projectId), inArray(projectMember.userId, candidates.length > 0 ? candidates : [""])))
      ).map((m) => m.userId),
    );
    const participants = await participantsAmong(tx, projectId, candidates);
    const nameOf = async (id: string) => (await tx.select({ name: user.name }).from(user).where(eq(user.id, id)))[0]?.name ?? "That member";
    for (const id of named) {
      if (team.has(id))
        return failure("conflict", `${await nameOf(id)} is on the project's team, which is never paid its rewards: there is nothing to exclude.`);
      if (!participants.has(id)) return failure("not_found", `${await nameOf(id)} does not take part in this project: nothing was changed.`);
    }
    // A cluster's members who never took part here, and the team, are left alone.
    const chosen = candidates.filter((id) => participants.has(id) && !team.has(id));
    if (chosen.length === 0) return failure("conflict", "None of this cluster's members takes part in this project: nothing was changed.");

    // Already excluded from this target: skipped (the live exclusion's unique index answers races).
    const inserted = await tx
      .insert(memberExclusion)
      .values(
        chosen.map((userId) => ({
          id: randomUUID(),
          projectId,
          scope: target.scope,
          scopeId: target.scopeId,
          userId,
          reason: why.data,
          clusterId: clusterId ?? null,
          createdBy: actorId,
          createdAt: now,
        })),
      )
      .onConflictDoNothing()
      .returning({ userId: memberExclusion.userId });
    await audit(
      tx,
      inserted.map((r) => ({ projectId, actorId, action: "exclude" as const, subjectId: r.userId, reason: why.data, clusterId, ...target, now })),
    );
    return ok({ excluded: inserted.length, skipped: chosen.length - inserted.length });
  });
}

/** Lifts one live exclusion of the project, with the audit log. */
export async function liftExclusion({
  db,
  projectId,
  actorId,
  exclusionId,
  reason,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  actorId: string;
  exclusionId: string;
  reason: string;
  now?: Date;
}): Promise<Result> {
  const why = exclusionReasonSchema.safeParse(reason);
  if (!why.success) return invalid("reason", why.error.issues[0]!.message);
  return db.transaction(async (tx) => {
    const lifted = await liftIn(tx, { projectId, actorId, exclusionId, reason: why.data, action: "lift", now });
    return lifted.ok ? ok() : lifted;
  });
}

/** Lifts a live exclusion inside the caller's transaction (a lift, or an upheld appeal) and writes the audit row. */
export async function liftIn(
  tx: Db,
  {
    projectId,
    actorId,
    exclusionId,
    reason,
    action,
    now,
  }: { projectId: string; actorId: string; exclusionId: string; reason: string; action: TrustAuditAction; now: Date },
): Promise<Result> {
  const [row] = await tx
    .select()
    .from(memberExclusion)
    .where(and(eq(memberExclusion.id, exclusionId), eq(memberExclusion.projectId, projectId)))
    .for("update");
  if (!row) return failure("not_found", "That exclusion is not one of this project's.");
  if (row.liftedAt) return failure("conflict", "That exclusion was lifted already.");
  const facts = await targetFacts(tx, { scope: row.scope, scopeId: row.scopeId });
  if (facts?.closed) return failure("conflict", `${facts.closed} Lifting the exclusion now would not pay the member.`);
  await tx
    .update(memberExclusion)
    .set({ liftedAt: now, liftedBy: actorId, liftReason: reason })
    .where(and(eq(memberExclusion.id, exclusionId), isNull(memberExclusion.liftedAt)));
  await audit(tx, [{ projectId, actorId, action, subjectId: row.userId, reason, clusterId: row.clusterId, scope: row.scope, scopeId: row.scopeId, now }]);
  return ok();
}

/* ---------- At payout ---------- */

/**
 * A gate that could not be read for a member (a node down): the payout or freeze must neither pay
 * nor drop them on a guess, so it throws this and the job leaves the pool or airdrop due for its
 * next run, which reads again.
 */
export class GateUnknownError extends Error {
  readonly retryable = true;
  readonly userId: string;
  constructor(userId: string) {
    super(`The eligibility rules could not be read for member ${userId} now (a node did not answer): the payout waits for the next run`);
    this.userId = userId;
  }
}

const RANGE_NAMES = {
  level: "level",
  xp: "XP",
  campaigns_completed: "number of campaigns completed",
  tasks_completed: "number of tasks completed",
  trust_score: "trust score",
  account_age_days: "account age",
} as const;

/** The counts' words for a member a rule kept out: "below the minimum trust score". */
export function shortfallWords(rule: GateRule): string {
  switch (rule.kind) {
    case "holds_token":
      return `not holding the required ${rule.symbol || "token"}`;
    case "holds_nft":
      return `not holding the required ${rule.name || "NFT"}`;
    case "linked_account":
      return rule.account === "wallet" ? "without a linked wallet" : `without a linked ${rule.account === "x" ? "X" : rule.account} account`;
    default: {
      const name = RANGE_NAMES[rule.kind];
      if (rule.max == null) return `below the minimum ${name}`;
      if (rule.min == null) return `above the maximum ${name}`;
      return `outside the allowed ${name}`;
    }
  }
}

/** Why a gate that does not let a member in keeps them out, in the counts' words. */
export function gateShortfall(state: GateState): string {
  if (state.combine === "all") {
    const unmet = state.rules.find((r) => r.state === "unmet");
    return unmet ? shortfallWords(unmet.rule) : "not meeting the eligibility rules";
  }
  return state.combine === "any" ? "meeting none of the eligibility rules" : "meeting a rule that keeps members out";
}

/** Who among `userIds` a pool or airdrop must not pay: userId → the reason in words (live exclusions and the target's gate). */
export async function keptOutOf({
  db,
  chains,
  target,
  userIds,
  now,
}: {
  db: Db;
  chains: OnchainChains;
  target: { kind: "pool"; poolId: string } | { kind: "airdrop"; airdropId: string };
  userIds: readonly string[];
  now: Date;
}): Promise<Map<string, string>> {
  const kept = new Map<string, string>();
  if (userIds.length === 0) return kept;
  const scopeId = target.kind === "pool" ? target.poolId : target.airdropId;
  let projectId: string;
  let gates: Gate[];
  if (target.kind === "pool") {
    const [row] = await db
      .select({ projectId: campaign.projectId, campaignGate: campaign.gate, poolGate: rewardPool.gate })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(eq(rewardPool.id, scopeId));
    if (!row) return kept;
    projectId = row.projectId;
    gates = [readGate(row.campaignGate), readGate(row.poolGate)].filter((g): g is Gate => g != null);
  } else {
    const [row] = await db.select({ projectId: airdrop.projectId, gate: airdrop.gate }).from(airdrop).where(eq(airdrop.id, scopeId));
    if (!row) return kept;
    projectId = row.projectId;
    const gate = readGate(row.gate);
    gates = gate ? [gate] : [];
  }

  // The project's live exclusions are few next to its entrants: read them all, keep those asked about.
  const asked = new Set(userIds);
  const excluded = await db
    .select({ userId: memberExclusion.userId })
    .from(memberExclusion)
    .where(
      and(
        eq(memberExclusion.projectId, projectId),
        isNull(memberExclusion.liftedAt),
        or(
          and(eq(memberExclusion.scope, "project"), eq(memberExclusion.scopeId, projectId)),
          and(eq(memberExclusion.scope, target.kind), eq(memberExclusion.scopeId, scopeId)),
        ),
      ),
    );
  for (const { userId } of excluded) if (asked.has(userId)) kept.set(userId, EXCLUDED_BY_TEAM);

  // Each gate again, as at entry: gateStateOf is called only when there is a gate.
  for (const userId of userIds) {
    if (kept.has(userId) || gates.length === 0) continue;
    for (const gate of gates) {
      const state = await gateStateOf({ db, chains, gate, userId, projectId, now });
      if (state.passes === "unknown") throw new GateUnknownError(userId);
      if (!state.passes) {
        kept.set(userId, gateShortfall(state));
        break;
      }
    }
  }
  return kept;
}

/** A stored gate, parsed again: one this version cannot read holds the payout back rather than paying past it. */
function readGate(value: unknown): Gate | null {
  const gate = storedGate(value);
  if (gate === "unreadable") throw new Error("A stored eligibility gate does not match the gate schema; the payout waits until it is saved again");
  return gate;
}

/** The counts stored on a pool or airdrop: reason words → members kept out for it. */
export function countsOf(kept: ReadonlyMap<string, string>, among?: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of among ?? kept.keys()) {
    const words = kept.get(id);
    if (words) counts[words] = (counts[words] ?? 0) + 1;
  }
  return counts;
}
