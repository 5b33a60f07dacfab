import { customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { units } from "./ledger.ts";
import { project } from "./projects.ts";
import { AIRDROP_RULES, AIRDROP_STATUSES } from "../../app/modules/airdrops/airdrop-types.ts";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * A project's airdrop: tasks earn its points (board `a:<id>|all`); when it ends its allocation is
 * frozen into `airdrop_allocation` and a Merkle tree (`airdrop_tree_chunk`) that
 * AirdropDistributor checks claims against.
 */
export const airdrop = pgTable(
  "airdrop",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => project.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** The token paid, e.g. `QUEST:31337`: its chain must have an AirdropDistributor. */
    asset: text("asset").notNull(),
    rule: text("rule", { enum: AIRDROP_RULES }).notNull(),
    /** `pro_rata`: the total shared; `top`: the sum of `rankAmounts`. Base units. */
    total: units("total").notNull(),
    /** `top`: the amount of each rank, best first (decimal strings). */
    rankAmounts: jsonb("rank_amounts").$type<string[]>(),
    minPoints: integer("min_points").notNull().default(0),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    claimDeadline: timestamp("claim_deadline", { withTimezone: true }).notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    status: text("status", { enum: AIRDROP_STATUSES }).notNull().default("open"),
    /** Set by the freeze: the tree's root (null when nobody can claim), its leaves, and what they pay or return. */
    frozenAt: timestamp("frozen_at", { withTimezone: true }),
    root: text("root"),
    leaves: integer("leaves"),
    claimable: units("claimable"),
    unclaimable: units("unclaimable"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("airdrop_project_slug_key").on(t.projectId, t.slug), index("airdrop_status_ends_idx").on(t.status, t.endsAt)],
);

/** A member's frozen share: `leaf` is their index in the tree, null when they had no wallet at the freeze. */
export const airdropAllocation = pgTable(
  "airdrop_allocation",
  {
    airdropId: text("airdrop_id")
      .notNull()
      .references(() => airdrop.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    rank: integer("rank").notNull(),
    points: integer("points").notNull(),
    amount: units("amount").notNull(),
    account: text("account"),
    leaf: integer("leaf"),
  },
  (t) => [
    primaryKey({ columns: [t.airdropId, t.userId] }),
    // No index on rank: a million-row freeze writes faster without it, and listing by rank sorts one airdrop's rows.
    uniqueIndex("airdrop_allocation_leaf_key").on(t.airdropId, t.leaf),
  ],
);

/**
 * The frozen tree, level by level (leaves first), in chunks of `AIRDROP_TREE_CHUNK` 32-byte
 * hashes: a proof reads one hash from each level (substring), never the whole tree.
 */
export const airdropTreeChunk = pgTable(
  "airdrop_tree_chunk",
  {
    airdropId: text("airdrop_id")
      .notNull()
      .references(() => airdrop.id, { onDelete: "cascade" }),
    level: integer("level").notNull(),
    chunk: integer("chunk").notNull(),
    hashes: bytea("hashes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.airdropId, t.level, t.chunk] })],
);
