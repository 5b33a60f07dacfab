import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { units } from "./ledger.ts";

/**
 * How far each of a chain's event subscriptions (the deposit scanner's vault events, the claim
 * scanner's distributor events, …) has read: one cursor per (chain, subscription), kept by
 * app/modules/chain/event-scanner.server.ts. A cursor belongs to the contract it was read for; a
 * scan for another address starts afresh.
 */
export const chainEventCursor = pgTable(
  "chain_event_cursor",
  {
    chainId: integer("chain_id").notNull(),
    /** The subscription's name, e.g. `deposits` or `claims`. */
    subscription: text("subscription").notNull(),
    /** The contract whose events were read. */
    address: text("address").notNull(),
    /** The first block not read yet. */
    nextBlock: bigint("next_block", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.subscription] })],
);

export const OPERATOR_TX_STATES = ["stored", "broadcast", "included", "confirmed", "replaced", "failed"] as const;
export type OperatorTxState = (typeof OPERATOR_TX_STATES)[number];
/** The states in which a transaction may still land: its nonce is spoken for. */
export const LIVE_OPERATOR_TX_STATES = ["stored", "broadcast", "included"] as const satisfies readonly OperatorTxState[];

/**
 * The operator's outbox (decision 055): every transaction the platform signs, stored signed before
 * it is broadcast, then followed by app/modules/chain/operator-outbox.server.ts: `stored` →
 * `broadcast` → `included` (mined, not yet deep) → `confirmed` (at the chain's confirmation depth),
 * or `replaced` (another transaction took its nonce) or `failed` (reverted, or the chain was started
 * afresh), with the reason in words. A transaction stuck unmined is signed again with the same
 * nonce and a higher fee: `tx_hash` is then the newest, `earlier_hashes` the ones it replaced (any
 * of them may be the one mined). One nonce sequence per (chain, signer).
 */
export const operatorTx = pgTable(
  "operator_tx",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What the transaction is for, e.g. `withdrawal:<id>:<attempt>`: signed at most once. */
    intentKey: text("intent_key").notNull(),
    chainId: integer("chain_id").notNull(),
    /** The hash of the chain's genesis block when signed: a chain started afresh has another. */
    genesisHash: text("genesis_hash").notNull(),
    signer: text("signer").notNull(),
    toAddress: text("to_address").notNull(),
    data: text("data").notNull(),
    value: units("value")
      .notNull()
      .default(sql`0`),
    nonce: integer("nonce").notNull(),
    rawTx: text("raw_tx").notNull(),
    txHash: text("tx_hash").notNull(),
    earlierHashes: text("earlier_hashes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    state: text("state", { enum: OPERATOR_TX_STATES }).notNull().default("stored"),
    /** Why it was replaced or failed, in words. */
    failure: text("failure"),
    /** The latest block when it was prepared: its effects are looked for from there. */
    fromBlock: bigint("from_block", { mode: "number" }).notNull(),
    includedBlock: bigint("included_block", { mode: "number" }),
    /** Times it was signed again with a higher fee. */
    bumps: integer("bumps").notNull().default(0),
    broadcastAt: timestamp("broadcast_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("operator_tx_intent_key").on(t.intentKey),
    index("operator_tx_live_idx")
      .on(t.chainId, t.signer, t.nonce)
      .where(sql`${t.state} in ('stored', 'broadcast', 'included')`),
  ],
);
