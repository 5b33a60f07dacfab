import { sql } from "drizzle-orm";
import type { Gate } from "../../app/modules/trust/trust-types.ts";
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { airdrop } from "./airdrops.ts";
import { project } from "./projects.ts";
import { TASK_TYPES } from "../../app/modules/tasks/task-types.ts";
import { VERIFIED_BY } from "../../app/modules/social/providers.ts";

/** A time-boxed set of tasks. Draft until published; then scheduled, live or ended by its dates. */
export const campaign = pgTable(
  "campaign",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** Who may take part (eligibility rules, trust-types.ts `gateSchema`); null: anyone. */
    gate: jsonb("gate").$type<Gate>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("campaign_project_slug_key").on(t.projectId, t.slug), index("campaign_dates_idx").on(t.startsAt, t.endsAt)],
);

/** An ordered series of tasks: each unlocks when the previous one is approved; a bonus at the end. */
export const crusade = pgTable(
  "crusade",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    bonusXp: integer("bonus_xp").notNull().default(0),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("crusade_project_slug_key").on(t.projectId, t.slug)],
);

/** The atomic unit of work. `config` holds the type's settings (validated by the task schemas). */
export const task = pgTable(
  "task",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id").references(() => campaign.id, { onDelete: "set null" }),
    crusadeId: text("crusade_id").references(() => crusade.id, { onDelete: "set null" }),
    crusadePosition: integer("crusade_position"),
    /** An airdrop's task also earns its XP as points on the airdrop's board. */
    airdropId: text("airdrop_id").references(() => airdrop.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    type: text("type", { enum: TASK_TYPES }).notNull(),
    config: jsonb("config").notNull().default({}),
    xp: integer("xp").notNull(),
    verification: text("verification", { enum: ["auto", "review", "none"] }).notNull(),
    recurrence: text("recurrence", { enum: ["once", "daily"] })
      .notNull()
      .default("once"),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    /** First-come-first-served: at most this many completions (pending or approved). */
    cap: integer("cap"),
    /** Completions holding a place under the cap; kept by the same statement that admits one. */
    slotsTaken: integer("slots_taken").notNull().default(0),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("task_project_idx").on(t.projectId, t.createdAt),
    index("task_campaign_idx").on(t.campaignId),
    index("task_airdrop_idx").on(t.airdropId),
    uniqueIndex("task_crusade_position_key").on(t.crusadeId, t.crusadePosition),
    // The newest published tasks, for the trending lists' tasks nobody completed lately (read
    // backwards: `created_at desc` puts nulls first, which a `desc nulls last` index cannot give).
    index("task_published_created_idx")
      .on(t.createdAt)
      .where(sql`${t.publishedAt} is not null`),
  ],
);

/**
 * The tasks most completed in the last 24 hours (rejected attempts aside), counted by the
 * `trending-tasks` job (decision 039): at most TRENDING_KEPT rows, the whole set replaced by
 * each run. Fewer rows than that means every task completed lately is here.
 */
export const trendingTask = pgTable(
  "trending_task",
  {
    taskId: text("task_id")
      .primaryKey()
      .references(() => task.id, { onDelete: "cascade" }),
    recent: integer("recent").notNull(),
    /** The task's own creation time, which never changes: the newer first among equal counts. */
    taskCreatedAt: timestamp("task_created_at", { withTimezone: true }).notNull(),
    countedAt: timestamp("counted_at", { withTimezone: true }).notNull(),
  },
  // Read backwards, in the lists' order.
  (t) => [index("trending_task_order_idx").on(t.recent, t.taskCreatedAt)],
);

/** A member's attempt at a task, per period (`once`, or the UTC day of a daily task). */
export const completion = pgTable(
  "completion",
  {
    id: text("id").primaryKey(),
    taskId: text("task_id")
      .notNull()
      .references(() => task.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull(),
    /** What the member submitted: text, URL, image URL, answer… */
    submission: jsonb("submission").notNull().default({}),
    reason: text("reason"),
    /** How it was checked: `api` (a provider's API), `code`, `review` (the team), `auto` (Questline itself), `none` (a visit). */
    verifiedBy: text("verified_by", { enum: VERIFIED_BY }),
    /** What an API check found (the post's or follow's id, its time), kept as proof. */
    evidence: jsonb("evidence"),
    reviewedBy: text("reviewed_by").references(() => user.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("completion_member_period_key").on(t.taskId, t.userId, t.period),
    index("completion_task_status_idx").on(t.taskId, t.status, t.createdAt),
    index("completion_user_idx").on(t.userId, t.createdAt),
    index("completion_created_idx").on(t.createdAt),
  ],
);

/** Every review decision, as it was made. */
export const reviewDecision = pgTable(
  "review_decision",
  {
    id: text("id").primaryKey(),
    completionId: text("completion_id")
      .notNull()
      .references(() => completion.id, { onDelete: "cascade" }),
    reviewerId: text("reviewer_id").references(() => user.id, { onDelete: "set null" }),
    decision: text("decision", { enum: ["approved", "rejected"] }).notNull(),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("review_decision_completion_idx").on(t.completionId)],
);

/** Wrong quiz answers per member and task, for the retry delay. */
export const quizAttempt = pgTable(
  "quiz_attempt",
  {
    taskId: text("task_id")
      .notNull()
      .references(() => task.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    wrongAnswers: integer("wrong_answers").notNull().default(0),
    lastWrongAt: timestamp("last_wrong_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("quiz_attempt_key").on(t.taskId, t.userId)],
);

/** Who brought whom: a member who signed up through another member's invite link. */
export const referral = pgTable(
  "referral",
  {
    referredId: text("referred_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    referrerId: text("referrer_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    counted: boolean("counted").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("referral_referrer_idx").on(t.referrerId)],
);

/**
 * A transaction that completed an on-chain task (`contract_call`): each hash counts once per task,
 * whoever pastes it (issue #37). Kept when the completion is voided: the hash stays used.
 */
export const onchainTxUse = pgTable(
  "onchain_tx_use",
  {
    taskId: text("task_id")
      .notNull()
      .references(() => task.id, { onDelete: "cascade" }),
    /** Lowercase 0x hash. */
    txHash: text("tx_hash").notNull(),
    chainId: integer("chain_id").notNull(),
    completionId: text("completion_id")
      .notNull()
      .references(() => completion.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("onchain_tx_use_key").on(t.taskId, t.txHash), index("onchain_tx_use_completion_idx").on(t.completionId)],
);

/**
 * An event an `event_emitted` task looks for, as the event scanner found it on its task's
 * contract (one cursor per task): the member's address from the task's indexed argument and the
 * numeric argument it asks a minimum of. A member's check reads these rows; nothing is pasted.
 */
export const onchainEventMatch = pgTable(
  "onchain_event_match",
  {
    taskId: text("task_id")
      .notNull()
      .references(() => task.id, { onDelete: "cascade" }),
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    /** Lowercase 0x address: the task's indexed argument. */
    address: text("address").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    /** The numeric argument the task asks a minimum of, as a decimal string; null when it asks none. */
    amount: text("amount"),
    /**
     * The block's time, where the node gave it with the log (`blockTimestamp`); null until a check
     * needs it and reads it from the block (the task's window and a daily task's day are in time).
     */
    blockTime: timestamp("block_time", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("onchain_event_match_key").on(t.taskId, t.txHash, t.logIndex),
    index("onchain_event_match_member_idx").on(t.taskId, t.address),
    // The reorg check reads each chain's recent blocks' matches (onchain-reorgs.server.ts).
    index("onchain_event_match_block_idx").on(t.chainId, t.blockNumber),
  ],
);
