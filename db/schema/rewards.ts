import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { user } from "./auth.ts";
import { campaign } from "./quests.ts";

/**
 * Reward pools: what a campaign pays when it ends, on top of its tasks' XP. `kind` names the
 * asset; only `xp` exists today (token pools and off-chain prizes come later, as new kinds).
 */
export const REWARD_KINDS = ["xp"] as const;
export const DISTRIBUTIONS = ["fcfs", "raffle", "ranking", "everyone"] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];
export const POOL_STATUSES = ["open", "distributing", "paid"] as const;

export const rewardPool = pgTable(
  "reward_pool",
  {
    id: text("id").primaryKey(),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaign.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: REWARD_KINDS }).notNull().default("xp"),
    distribution: text("distribution", { enum: DISTRIBUTIONS }).notNull(),
    /** How many members are paid: first N completers, N drawn, top N. Null for `everyone`. */
    winners: integer("winners"),
    /** Per winner (`fcfs`, `raffle`) or the total split among completers (`everyone`). */
    amount: integer("amount"),
    /** `ranking`: amount by rank, best first; ranks past the list's end get its last amount. */
    rankAmounts: jsonb("rank_amounts").$type<number[]>(),
    /** `raffle`: the seed the draw used, recorded when it is drawn (see draw-raffle.ts). */
    seed: text("seed"),
    status: text("status", { enum: POOL_STATUSES }).notNull().default("open"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("reward_pool_campaign_idx").on(t.campaignId, t.createdAt),
    index("reward_pool_status_idx").on(t.status),
    check(
      "reward_pool_shape",
      sql`(${t.distribution} in ('fcfs', 'raffle') and ${t.winners} > 0 and ${t.amount} > 0)
        or (${t.distribution} = 'ranking' and ${t.winners} > 0 and ${t.rankAmounts} is not null)
        or (${t.distribution} = 'everyone' and ${t.winners} is null and ${t.amount} > 0)`,
    ),
  ],
);

/** What one member got from one pool: at most one grant per pool and member. */
export const rewardGrant = pgTable(
  "reward_grant",
  {
    poolId: text("pool_id")
      .notNull()
      .references(() => rewardPool.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** Finishing order (`fcfs`, `everyone`), draw order (`raffle`) or rank (`ranking`), from 1. */
    position: integer("position").notNull(),
    amount: integer("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.poolId, t.userId] }),
    uniqueIndex("reward_grant_position_key").on(t.poolId, t.position),
    index("reward_grant_user_idx").on(t.userId),
  ],
);
