import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";

/**
 * XP and leaderboards. Every award is an immutable event; boards are kept exact as awards land.
 * A board is a scope (`global`, `p:<project>`, `c:<campaign>`, `a:<airdrop>`) and a window (`all`, `30d`, `7d`),
 * written `<scope>|<window>`.
 */

export const xpEvent = pgTable(
  "xp_event",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    projectId: text("project_id"),
    campaignId: text("campaign_id"),
    /** What earned it: a completion, a crusade bonus, … */
    sourceType: text("source_type").notNull(),
    sourceId: text("source_id").notNull(),
    amount: integer("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Exactly once per source and member.
    uniqueIndex("xp_event_source_key").on(t.sourceType, t.sourceId, t.userId),
    index("xp_event_user_idx").on(t.userId, t.createdAt),
    index("xp_event_project_idx").on(t.projectId, t.createdAt),
  ],
);

/** A member's score on a board. `reachedAt` breaks ties: who reached the score first ranks higher. */
export const leaderboardEntry = pgTable(
  "leaderboard_entry",
  {
    board: text("board").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    score: bigint("score", { mode: "number" }).notNull(),
    reachedAt: timestamp("reached_at", { withTimezone: true }).notNull(),
    /** False for members who opted out of public boards. */
    visible: boolean("visible").notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.board, t.userId] }),
    index("leaderboard_entry_rank_idx").on(t.board, t.visible, t.score.desc().nullsFirst(), t.reachedAt, t.userId),
  ],
);

/** How many visible members hold each score on a board: a member's rank is one plus the members above. */
export const leaderboardHistogram = pgTable(
  "leaderboard_histogram",
  {
    board: text("board").notNull(),
    score: bigint("score", { mode: "number" }).notNull(),
    members: integer("members").notNull(),
  },
  (t) => [primaryKey({ columns: [t.board, t.score] })],
);

/** XP per member, scope and UTC day: what leaves the 7- and 30-day windows when a day ends. */
export const xpDaily = pgTable(
  "xp_daily",
  {
    scope: text("scope").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.day, t.userId] })],
);

/** The last UTC day whose XP has been taken out of the windowed boards. */
export const xpWindowState = pgTable("xp_window_state", {
  id: integer("id").primaryKey().default(1),
  expiredThrough: date("expired_through", { mode: "string" })
    .notNull()
    .default(sql`(now() at time zone 'utc')::date - 1`),
});

/** A member's leaderboard preferences (Settings › Leaderboard). */
export const leaderboardPreference = pgTable("leaderboard_preference", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  visible: boolean("visible").notNull().default(true),
  displayName: text("display_name"),
});
