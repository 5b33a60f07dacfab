import { sql } from "drizzle-orm";
import { bigint, boolean, check, customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { project } from "./projects.ts";

/** Token amounts in base units (wei-like), exact: numeric(78, 0) read and written as bigint. */
export const units = customType<{ data: bigint; driverData: string }>({
  dataType: () => "numeric(78, 0)",
  toDriver: (value) => value.toString(),
  fromDriver: (value) => BigInt(value),
});

/**
 * The double-entry ledger (see app/modules/ledger and decision 013). Every movement is one
 * `journal_entry` with `journal_line`s summing to zero per asset, posted only by the SQL
 * function `questline_post` (db/migrations/0008), which also keeps each account's cached
 * balance in the same transaction. Entries and lines are immutable: triggers refuse updates
 * and deletes, so a correction is a new entry.
 */
export const LEDGER_ACCOUNTS = ["available", "held", "treasury", "escrow", "onchain", "deposits_in_transit", "withdrawals_in_flight", "fees"] as const;
export type LedgerAccountName = (typeof LEDGER_ACCOUNTS)[number];
/**
 * The holder of the platform's own accounts. Other holders: a project (`project:<id>`, its
 * `treasury`), a reward pool (`pool:<id>`, its `escrow`), an airdrop (`airdrop:<id>`, its
 * `escrow`) or a member (their user id: `available` and `held`). Every holder but the platform
 * is refused a balance below zero.
 */
export const PLATFORM = "platform";

export const ledgerAccount = pgTable(
  "ledger_account",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** A member's user id, `platform`, `project:<id>` or `pool:<id>`. */
    holder: text("holder").notNull(),
    name: text("name", { enum: LEDGER_ACCOUNTS }).notNull(),
    /** e.g. `QUEST:31337`: a token symbol and the chain it lives on. */
    asset: text("asset").notNull(),
    /**
     * The sum of this account's lines, kept by `questline_post` in the posting's transaction,
     * which also refuses any posting that would leave a member account below zero.
     */
    balance: units("balance")
      .notNull()
      .default(sql`0`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_account_key").on(t.holder, t.name, t.asset),
    check(
      "ledger_account_member_names",
      sql`(${t.holder} = 'platform' or ${t.holder} like 'project:%' or ${t.holder} like 'pool:%' or ${t.holder} like 'airdrop:%') = (${t.name} not in ('available', 'held'))`,
    ),
  ],
);

export const journalEntry = pgTable(
  "journal_entry",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** A retried request with the same key posts nothing new and gets the first entry back. */
    idempotencyKey: text("idempotency_key").notNull(),
    /** What happened, e.g. `deposit_credit`, `withdrawal_hold` (see app/modules/ledger). */
    kind: text("kind").notNull(),
    /** The member the entry concerns (their history lists it), if any. */
    userId: text("user_id"),
    /** What it belongs to: a deposit's or withdrawal's id, a reward grant, … */
    reference: text("reference"),
    memo: text("memo"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("journal_entry_idempotency_key").on(t.idempotencyKey),
    index("journal_entry_user_idx").on(t.userId, t.id),
    index("journal_entry_reference_idx").on(t.reference),
  ],
);

export const journalLine = pgTable(
  "journal_line",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: bigint("entry_id", { mode: "number" })
      .notNull()
      .references(() => journalEntry.id),
    accountId: bigint("account_id", { mode: "number" })
      .notNull()
      .references(() => ledgerAccount.id),
    asset: text("asset").notNull(),
    /** Signed: what the account gains (positive) or gives (negative). Never zero. */
    amount: units("amount").notNull(),
  },
  (t) => [
    index("journal_line_entry_idx").on(t.entryId),
    index("journal_line_account_idx").on(t.accountId, t.id),
    check("journal_line_not_zero", sql`${t.amount} <> 0`),
  ],
);

/** A member's deposit reference: the bytes32 they pass to `DepositVault.deposit`. */
export const depositReference = pgTable(
  "deposit_reference",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    ref: text("ref").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deposit_reference_ref_key").on(t.ref)],
);

export const DEPOSIT_STATUSES = ["pending", "credited", "reorged", "unmatched"] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** A project's deposit reference: a deposit carrying it funds the project's treasury. */
export const projectDepositReference = pgTable(
  "project_deposit_reference",
  {
    projectId: text("project_id")
      .primaryKey()
      .references(() => project.id, { onDelete: "cascade" }),
    ref: text("ref").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("project_deposit_reference_ref_key").on(t.ref)],
);

/** A `Deposited` event the scanner saw: one row per (chain, transaction, log index). */
export const deposit = pgTable(
  "deposit",
  {
    id: text("id").primaryKey(),
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    fromAddress: text("from_address").notNull(),
    ref: text("ref").notNull(),
    /** The member or project whose reference it carries; both null when it matches nobody (`unmatched`). */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    projectId: text("project_id").references(() => project.id, { onDelete: "set null" }),
    asset: text("asset").notNull(),
    amount: units("amount").notNull(),
    status: text("status", { enum: DEPOSIT_STATUSES }).notNull().default("pending"),
    /** Confirmations when last looked at, and how many crediting needs. */
    confirmations: integer("confirmations").notNull().default(0),
    required: integer("required").notNull(),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("deposit_chain_tx_log_key").on(t.chainId, t.txHash, t.logIndex),
    index("deposit_user_idx").on(t.userId, t.createdAt),
    index("deposit_pending_idx").on(t.chainId, t.status),
  ],
);

export const WITHDRAWAL_STATUSES = ["requested", "sending", "sent", "confirmed", "failed", "cancelled"] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** A member's withdrawal to one of their wallets; `id` is the bytes32 the vault pays at most once. */
export const withdrawal = pgTable(
  "withdrawal",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "restrict" }),
    chainId: integer("chain_id").notNull(),
    asset: text("asset").notNull(),
    toAddress: text("to_address").notNull(),
    /** What leaves the member's balance; `fee` of it goes to the platform, the rest on chain. */
    amount: units("amount").notNull(),
    fee: units("fee")
      .notNull()
      .default(sql`0`),
    status: text("status", { enum: WITHDRAWAL_STATUSES }).notNull().default("requested"),
    /** The request's idempotency key (a double-submitted form creates one withdrawal). */
    requestKey: text("request_key").notNull(),
    /** Sending attempts so far (a Retry starts the next). */
    attempts: integer("attempts").notNull().default(0),
    /** The current attempt's transaction (its signed form is in the operator's outbox, `operator_tx`). */
    txHash: text("tx_hash"),
    nonce: integer("nonce"),
    /** Why it failed, in words. */
    failure: text("failure"),
    /** True while operators have paused withdrawals and this one waits. */
    waiting: boolean("waiting").notNull().default(false),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("withdrawal_request_key").on(t.userId, t.requestKey),
    index("withdrawal_user_idx").on(t.userId, t.createdAt),
    index("withdrawal_status_idx").on(t.status),
  ],
);

/** Platform switches operators flip, e.g. `withdrawals_paused`. */
export const platformSetting = pgTable("platform_setting", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
