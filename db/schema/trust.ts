import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { project } from "./projects.ts";
import { CLUSTER_KINDS, EXCLUSION_SCOPES, APPEAL_STATUSES, TRUST_AUDIT_ACTIONS, type TrustReason } from "../../app/modules/trust/trust-types.ts";

/**
 * Where a sign-up or sign-in came from, only as keyed hashes (HMAC with the installation's
 * trust key): the client's network (its /24, or /48 for IPv6) and its user agent. Kept 30 days.
 */
export const accessContext = pgTable(
  "access_context",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** `sign_up` (the account was created) or `sign_in`. */
    kind: text("kind", { enum: ["sign_up", "sign_in"] }).notNull(),
    networkHash: text("network_hash").notNull(),
    agentHash: text("agent_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("access_context_network_idx").on(t.networkHash, t.createdAt),
    index("access_context_user_idx").on(t.userId),
    index("access_context_created_idx").on(t.createdAt),
  ],
);

/**
 * What the chain says of one linked wallet on one chain: who first sent it native coin (its
 * funder), where it last swept its coin to, its first activity and transactions sent. `status`
 * `unknown` when the node could not answer (no history kept): never read as suspicious.
 */
export const walletProfile = pgTable(
  "wallet_profile",
  {
    address: text("address").notNull(),
    chainId: integer("chain_id").notNull(),
    status: text("status", { enum: ["known", "unknown"] }).notNull(),
    /** Why it is unknown, in words (the node's answer). */
    unknownReason: text("unknown_reason"),
    funder: text("funder"),
    fundingTx: text("funding_tx"),
    fundedBlock: bigint("funded_block", { mode: "number" }),
    fundedAt: timestamp("funded_at", { withTimezone: true }),
    sweptTo: text("swept_to"),
    sweepTx: text("sweep_tx"),
    firstActivityAt: timestamp("first_activity_at", { withTimezone: true }),
    txCount: integer("tx_count"),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.address, t.chainId] }), index("wallet_profile_funder_idx").on(t.funder), index("wallet_profile_swept_idx").on(t.sweptTo)],
);

/** A group of members the scoring found sharing evidence: one funder, one sweep address, one network in a short time, … */
export const trustCluster = pgTable(
  "trust_cluster",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: CLUSTER_KINDS }).notNull(),
    /** What the members share (an address, a network's hash, a task and minute, an answer's hash): stable across runs. */
    key: text("key").notNull(),
    size: integer("size").notNull(),
    /** The shared evidence in words for the team, and its details (addresses, times, transactions). */
    summary: text("summary").notNull(),
    evidence: jsonb("evidence").notNull().default({}),
    computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("trust_cluster_kind_key").on(t.kind, t.key)],
);

export const trustClusterMember = pgTable(
  "trust_cluster_member",
  {
    clusterId: text("cluster_id")
      .notNull()
      .references(() => trustCluster.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.clusterId, t.userId] }), index("trust_cluster_member_user_idx").on(t.userId)],
);

/** Every member's trust score, 0–100, with its reasons in words; recomputed by the trust job. */
export const trustScore = pgTable(
  "trust_score",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    score: integer("score").notNull(),
    /** Below the flag line, or in a cluster: shown to teams as flagged. */
    flagged: boolean("flagged").notNull().default(false),
    reasons: jsonb("reasons").$type<TrustReason[]>().notNull().default([]),
    computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("trust_score_flagged_idx").on(t.flagged, t.score)],
);

/**
 * A member kept out of a project's rewards by its team: the whole project, one reward pool or
 * one airdrop. Lifted (not deleted) when the team changes its mind or upholds an appeal.
 */
export const memberExclusion = pgTable(
  "member_exclusion",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    scope: text("scope", { enum: EXCLUSION_SCOPES }).notNull(),
    /** The pool's or airdrop's id; the project's id for `project`. */
    scopeId: text("scope_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The reason the member reads. */
    reason: text("reason").notNull(),
    clusterId: text("cluster_id").references(() => trustCluster.id, { onDelete: "set null" }),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    liftedAt: timestamp("lifted_at", { withTimezone: true }),
    liftedBy: text("lifted_by").references(() => user.id, { onDelete: "set null" }),
    liftReason: text("lift_reason"),
  },
  (t) => [
    uniqueIndex("member_exclusion_live_key")
      .on(t.scope, t.scopeId, t.userId)
      .where(sql`${t.liftedAt} is null`),
    index("member_exclusion_user_idx").on(t.userId),
    index("member_exclusion_project_idx").on(t.projectId, t.createdAt),
  ],
);

/** A member's appeal of an exclusion: lands in the project's review queue; upheld lifts the exclusion. */
export const exclusionAppeal = pgTable(
  "exclusion_appeal",
  {
    id: text("id").primaryKey(),
    exclusionId: text("exclusion_id")
      .notNull()
      .references(() => memberExclusion.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    status: text("status", { enum: APPEAL_STATUSES }).notNull().default("pending"),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    answer: text("answer"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("exclusion_appeal_one_pending")
      .on(t.exclusionId)
      .where(sql`${t.status} = 'pending'`),
    index("exclusion_appeal_user_idx").on(t.userId, t.createdAt),
  ],
);

/** Who did what to whom in a project's sybil defence, and why. Never updated or deleted. */
export const trustAudit = pgTable(
  "trust_audit",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    action: text("action", { enum: TRUST_AUDIT_ACTIONS }).notNull(),
    subjectId: text("subject_id").references(() => user.id, { onDelete: "set null" }),
    clusterId: text("cluster_id"),
    scope: text("scope", { enum: EXCLUSION_SCOPES }),
    scopeId: text("scope_id"),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("trust_audit_project_idx").on(t.projectId, t.createdAt)],
);
