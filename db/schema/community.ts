import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { project } from "./projects.ts";
import { campaign, crusade } from "./quests.ts";
import { rewardPool } from "./rewards.ts";

/**
 * A project's Discord bot and server (app/modules/community): the bot's token encrypted at rest
 * (lib/secret-box), never sent to a browser; what the last check of its permissions found, in
 * words (`problems`, empty when it can do everything the project asks of it).
 */
export const projectDiscord = pgTable("project_discord", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => project.id, { onDelete: "cascade" }),
  guildId: text("guild_id").notNull(),
  guildName: text("guild_name").notNull().default(""),
  botToken: text("bot_token").notNull(),
  botUserId: text("bot_user_id").notNull().default(""),
  botUsername: text("bot_username").notNull().default(""),
  problems: jsonb("problems").$type<string[]>().notNull().default([]),
  checkedAt: timestamp("checked_at", { withTimezone: true }),
  updatedBy: text("updated_by").references(() => user.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A project's Telegram bot and its group or channel: as `project_discord`. */
export const projectTelegram = pgTable("project_telegram", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => project.id, { onDelete: "cascade" }),
  /** `@publicname` or the chat's numeric id. */
  chatId: text("chat_id").notNull(),
  chatTitle: text("chat_title").notNull().default(""),
  botToken: text("bot_token").notNull(),
  botId: text("bot_id").notNull().default(""),
  botUsername: text("bot_username").notNull().default(""),
  problems: jsonb("problems").$type<string[]>().notNull().default([]),
  checkedAt: timestamp("checked_at", { withTimezone: true }),
  updatedBy: text("updated_by").references(() => user.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const ROLE_REWARD_TRIGGERS = ["campaign", "crusade", "level", "pool"] as const;

/**
 * A Discord role a project grants through its bot: to members who completed a campaign
 * (`campaignId`), finished a crusade (`crusadeId`), reached a level (`level`) or won in a pool
 * (`poolId`). Removed rules keep their row (`removedAt`) until the roles they granted are taken back.
 */
export const discordRoleReward = pgTable(
  "discord_role_reward",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    roleId: text("role_id").notNull(),
    roleName: text("role_name").notNull(),
    trigger: text("trigger", { enum: ROLE_REWARD_TRIGGERS }).notNull(),
    campaignId: text("campaign_id").references(() => campaign.id, { onDelete: "cascade" }),
    crusadeId: text("crusade_id").references(() => crusade.id, { onDelete: "cascade" }),
    poolId: text("pool_id").references(() => rewardPool.id, { onDelete: "cascade" }),
    level: integer("level"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [index("discord_role_reward_project_idx").on(t.projectId)],
);

/**
 * Whether a member should hold a reward's role (`want`) and whether Discord has confirmed it
 * (`state`): the role job grants or removes until Discord answers, retrying after its rate limits
 * and failures (`nextAttemptAt`), and says why in words (`reason`, `lastError`).
 */
export const discordRoleGrant = pgTable(
  "discord_role_grant",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    rewardId: text("reward_id")
      .notNull()
      .references(() => discordRoleReward.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    discordUserId: text("discord_user_id").notNull(),
    guildId: text("guild_id").notNull(),
    roleId: text("role_id").notNull(),
    want: text("want", { enum: ["held", "removed"] }).notNull(),
    state: text("state", { enum: ["pending", "done", "failed"] })
      .notNull()
      .default("pending"),
    reason: text("reason").notNull().default(""),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("discord_role_grant_key").on(t.rewardId, t.userId),
    index("discord_role_grant_user_idx").on(t.userId),
    index("discord_role_grant_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
  ],
);

/** Every grant and removal the role job asked of Discord, and what Discord answered. */
export const discordRoleLog = pgTable(
  "discord_role_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    grantId: bigint("grant_id", { mode: "number" })
      .notNull()
      .references(() => discordRoleGrant.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    action: text("action", { enum: ["grant", "remove"] }).notNull(),
    outcome: text("outcome", { enum: ["confirmed", "retry", "failed"] }).notNull(),
    detail: text("detail").notNull().default(""),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("discord_role_log_project_idx").on(t.projectId, t.id)],
);

/**
 * A member's chat with the platform's Telegram bot: notifications by Telegram need the member to
 * have started the bot (`startedAt`, set when a message to them went through); `blockedAt` when
 * Telegram says they blocked it.
 */
export const telegramChat = pgTable("telegram_chat", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  telegramUserId: text("telegram_user_id").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }),
  blockedAt: timestamp("blocked_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
