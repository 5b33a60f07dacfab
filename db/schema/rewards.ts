import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Gate } from "../../app/modules/trust/trust-types.ts";
import { sql } from "drizzle-orm";
import { user } from "./auth.ts";
import { units } from "./ledger.ts";
import { campaign } from "./quests.ts";
import { DISTRIBUTIONS, POOL_STATUSES, REWARD_KINDS } from "../../app/modules/rewards/pool-types.ts";

/**
 * Reward pools: what a campaign pays when it ends, on top of its tasks' XP. An `xp` pool awards
 * XP; a `token` pool pays an asset from the project's treasury, escrowed in the pool's own ledger
 * account from the moment it is saved (decision 022).
 */
export const rewardPool = pgTable(
  "reward_pool",
  {
    id: text("id").primaryKey(),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaign.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: REWARD_KINDS }).notNull().default("xp"),
    /** `token` pools: the asset paid, e.g. `QUEST:31337`. */
    asset: text("asset"),
    distribution: text("distribution", { enum: DISTRIBUTIONS }).notNull(),
    /** How many members are paid: first N completers, N drawn, top N. Null for `everyone`. */
    winners: integer("winners"),
    /** Per winner (`fcfs`, `raffle`) or the total split among completers (`everyone`): XP, or token base units. */
    amount: units("amount"),
    /** `ranking`: amount by rank, best first (decimal strings); ranks past the list's end get its last amount. */
    rankAmounts: jsonb("rank_amounts").$type<string[]>(),
    /** `token` pools: what the pool's escrow holds (the most it can pay), and how many times it moved. */
    escrowed: units("escrowed")
      .notNull()
      .default(sql`0`),
    escrowMoves: integer("escrow_moves").notNull().default(0),
    /** What went back to the project's treasury when the pool was paid (token pools). */
    returned: units("returned")
      .notNull()
      .default(sql`0`),
    /** `raffle`: SHA-256 of `secret`, shown from the moment the pool is saved; the secret is shown once drawn. */
    commitment: text("commitment"),
    secret: text("secret"),
    /** `raffle`, set when the campaign ends: the frozen entrant list's hash and size, and the block whose hash seeds the draw. */
    entrantsHash: text("entrants_hash"),
    entrantsCount: integer("entrants_count"),
    drawChainId: integer("draw_chain_id"),
    drawBlock: bigint("draw_block", { mode: "number" }),
    drawBlockHash: text("draw_block_hash"),
    /** `raffle`: the seed the draw used (see raffle-proof.ts), recorded when it is drawn. */
    seed: text("seed"),
    status: text("status", { enum: POOL_STATUSES }).notNull().default("open"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Who may take part (eligibility rules, trust-types.ts `gateSchema`); null: anyone. */
    gate: jsonb("gate").$type<Gate>(),
    /** Set at payout or freeze: how many entrants were kept out, by reason in words (counts only, shown to visitors). */
    excludedCounts: jsonb("excluded_counts").$type<Record<string, number>>(),
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
    check("reward_pool_asset", sql`(${t.kind} = 'token') = (${t.asset} is not null)`),
  ],
);

/** A raffle's entrants, frozen in draw order when its campaign ends. */
export const raffleEntrant = pgTable(
  "raffle_entrant",
  {
    poolId: text("pool_id")
      .notNull()
      .references(() => rewardPool.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    userId: text("user_id").notNull(),
    /**
     * The entrant's id in this raffle's public proof, drawn on and hashed in place of the member's
     * id (entrant-ids.server.ts): unrelated from one pool to the next. Null for raffles frozen
     * before entrants had one, whose proofs list (and whose draws used) the member's id.
     */
    entrantId: text("entrant_id"),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.position] }), uniqueIndex("raffle_entrant_entrant_key").on(t.poolId, t.entrantId)],
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
    /** XP, or token base units. */
    amount: units("amount").notNull(),
    /** `token` pools: the ledger entry that paid it. */
    entryId: bigint("entry_id", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.poolId, t.userId] }),
    uniqueIndex("reward_grant_position_key").on(t.poolId, t.position),
    index("reward_grant_user_idx").on(t.userId, t.createdAt),
  ],
);
