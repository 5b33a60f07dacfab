import { bigint, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

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
