import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Gate } from "../../app/modules/trust/trust-types.ts";
import { sql } from "drizzle-orm";
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
    /** What the airdrop holds of the project's treasury (its total while published, then what its tree pays); moves numbered under the row's lock. */
    escrowed: units("escrowed")
      .notNull()
      .default(sql`0`),
    escrowMoves: integer("escrow_moves").notNull().default(0),
    /** Who may take part (eligibility rules, trust-types.ts `gateSchema`); null: anyone. */
    gate: jsonb("gate").$type<Gate>(),
    /** Set at payout or freeze: how many entrants were kept out, by reason in words (counts only, shown to visitors). */
    excludedCounts: jsonb("excluded_counts").$type<Record<string, number>>(),
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
 * The frozen tree: `@openzeppelin/merkle-tree`'s array of its 2n − 1 nodes (root first, leaf i at
 * 2n − 2 − i; `contracts/merkle.ts`), all at `level` 0, in chunks of `AIRDROP_TREE_CHUNK` 32-byte
 * hashes (node k: chunk k / AIRDROP_TREE_CHUNK). A proof reads one hash per tree level
 * (substring), never the whole tree; the dump streams the chunks in order.
 */
export const airdropTreeChunk = pgTable(
  "airdrop_tree_chunk",
  {
    airdropId: text("airdrop_id")
      .notNull()
      .references(() => airdrop.id, { onDelete: "cascade" }),
    /** Always 0: the tree is one array (the column is kept from a layout with one row set per tree level). */
    level: integer("level").notNull(),
    chunk: integer("chunk").notNull(),
    hashes: bytea("hashes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.airdropId, t.level, t.chunk] })],
);

/** How far an airdrop's round on AirdropDistributor has come (see `round.server.ts`). */
export const AIRDROP_ROUND_STEPS = ["funding", "approving", "opening", "open", "sweeping", "swept", "failed", "previous_chain"] as const;
export type AirdropRoundStep = (typeof AIRDROP_ROUND_STEPS)[number];

/**
 * The one on-chain round of a frozen airdrop with a root: funded from the vault (the vault pays
 * `fundingId` at most once), approved and opened by the operator, swept after its deadline.
 * Each step's transaction goes through the operator's outbox (`operator_tx`).
 */
export const airdropRound = pgTable(
  "airdrop_round",
  {
    airdropId: text("airdrop_id")
      .primaryKey()
      .references(() => airdrop.id, { onDelete: "restrict" }),
    chainId: integer("chain_id").notNull(),
    /**
     * The hash of the chain's genesis block when the round was made: a chain started afresh (the
     * local chain under a kept database) has another, and the round is then `previous_chain`;
     * round ids are unique per run of a chain.
     */
    genesisHash: text("genesis_hash"),
    distributor: text("distributor").notNull(),
    /** The bytes32 the vault pays the round's total under, once. */
    fundingId: text("funding_id").notNull(),
    total: units("total").notNull(),
    /** The claim deadline as the contract holds it (seconds). */
    deadline: bigint("deadline", { mode: "number" }).notNull(),
    step: text("step", { enum: AIRDROP_ROUND_STEPS }).notNull().default("funding"),
    /** The round's id on the distributor, once `RoundCreated` is read from the opening's receipt. */
    roundId: bigint("round_id", { mode: "number" }),
    /** The current step's transaction (stored signed in the operator's outbox, `operator_tx`, before it is broadcast). */
    txHash: text("tx_hash"),
    /**
     * The current step's transactions signed so far: the latest is the outbox's intent
     * `airdrop-round:<airdrop>:<step>:<attempt>` (read by its unique key), the next is signed as `attempt + 1`.
     */
    attempt: integer("attempt").notNull().default(0),
    nonce: integer("nonce"),
    /** The block the opening was signed at: `RoundCreated` is looked for from there. */
    fromBlock: bigint("from_block", { mode: "number" }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    openTxHash: text("open_tx_hash"),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    sweepRequestedAt: timestamp("sweep_requested_at", { withTimezone: true }),
    sweepRequestedBy: text("sweep_requested_by"),
    sweepTxHash: text("sweep_tx_hash"),
    swept: units("swept"),
    sweptAt: timestamp("swept_at", { withTimezone: true }),
    failure: text("failure"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("airdrop_round_chain_round_key").on(t.chainId, t.genesisHash, t.distributor, t.roundId), index("airdrop_round_step_idx").on(t.step)],
);

/** A `Claimed` event read from the distributor, once per (chain, tx, log). */
export const airdropClaim = pgTable(
  "airdrop_claim",
  {
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    airdropId: text("airdrop_id")
      .notNull()
      .references(() => airdrop.id, { onDelete: "restrict" }),
    leaf: integer("leaf").notNull(),
    account: text("account").notNull(),
    amount: units("amount").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), uniqueIndex("airdrop_claim_leaf_key").on(t.airdropId, t.leaf)],
);
