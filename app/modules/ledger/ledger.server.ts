import { and, desc, eq, inArray, like, or, sql } from "drizzle-orm";
import { journalEntry, journalLine, ledgerAccount, PLATFORM, type LedgerAccountName } from "#db/schema/ledger";
import { preparedPerDb, rowsOf, type Db } from "~/lib/db.server";
import type { Asset } from "./assets";

/**
 * The double-entry ledger: the one way money moves inside Questline (decision 013).
 *
 * Each member has, per asset, an `available` and a `held` account; each project a `treasury`
 * (what it funds token rewards from) and each token reward pool an `escrow` (what it will pay);
 * the platform has `treasury`, `onchain` (the world beyond the vault), `deposits_in_transit`
 * (seen on chain, not yet credited), `withdrawals_in_flight` (sent on chain, not yet confirmed)
 * and `fees`. Every movement is one journal entry whose lines sum to zero per asset, posted by
 * the SQL function `questline_post` (db/functions/questline_post.sql) in the caller's transaction (pass a transaction's handle as
 * `db` to tie a posting to other writes). Every posting carries an idempotency key: the same key
 * twice posts once. A member account never goes below zero: the database refuses it inside the
 * posting, whatever runs concurrently, and `InsufficientFunds` is thrown; nor does a project's
 * treasury or a pool's escrow.
 */

export type PlatformAccount = Exclude<LedgerAccountName, "available" | "held">;
export type LedgerLine = { holder: string; name: LedgerAccountName; asset: Asset; amount: bigint };
export type Posting = {
  db: Db;
  /** The same key posts once: a retry gets the first entry back with `created: false`. */
  key: string;
  kind: string;
  /** The member whose history shows the entry. */
  userId?: string | null;
  reference?: string | null;
  memo?: string | null;
};
export type Posted = { entryId: number; created: boolean };

export class InsufficientFunds extends Error {
  override name = "InsufficientFunds";
  constructor() {
    super("Not enough available balance.");
  }
}

/** Whether a database error (or one it wraps) is `questline_post` refusing to take a member below zero. */
function isNegativeBalance(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ("code" in error && error.code === "QL003") return true;
  return "cause" in error && isNegativeBalance(error.cause);
}

const positive = (amount: bigint) => {
  if (typeof amount !== "bigint" || amount <= 0n) throw new RangeError("Ledger amounts are positive whole base units");
  return amount;
};

/** Posts one balanced entry. Most callers want the named movements below. */
export async function post({ db, key, kind, userId = null, reference = null, memo = null, lines }: Posting & { lines: LedgerLine[] }): Promise<Posted> {
  const payload = JSON.stringify(lines.map((line) => ({ holder: line.holder, name: line.name, asset: line.asset, amount: line.amount.toString() })));
  try {
    const [row] = rowsOf(
      await db.execute(sql`select entry_id, created from questline_post(${key}, ${kind}, ${userId}, ${reference}, ${memo}, ${payload}::jsonb)`),
    );
    return { entryId: Number(row!.entry_id), created: Boolean(row!.created) };
  } catch (error) {
    if (isNegativeBalance(error)) throw new InsufficientFunds();
    throw error;
  }
}

/** An account by holder and name (see `PLATFORM` for the holders). */
export type AccountRef = { holder: string; name: LedgerAccountName };
export const memberAvailable = (userId: string): AccountRef => ({ holder: userId, name: "available" });
export const projectTreasury = (projectId: string): AccountRef => ({ holder: `project:${projectId}`, name: "treasury" });
export const poolEscrow = (poolId: string): AccountRef => ({ holder: `pool:${poolId}`, name: "escrow" });
export const airdropEscrow = (airdropId: string): AccountRef => ({ holder: `airdrop:${airdropId}`, name: "escrow" });
export const platformAccount = (name: PlatformAccount): AccountRef => ({ holder: PLATFORM, name });

/** Moves an amount from one account to another; fails with `InsufficientFunds` if `from` may not go below zero and would. */
export function move({ from, to, asset, amount, ...p }: Posting & { from: AccountRef; to: AccountRef; asset: Asset; amount: bigint }): Promise<Posted> {
  const value = positive(amount);
  return post({
    ...p,
    lines: [
      { ...from, asset, amount: -value },
      { ...to, asset, amount: value },
    ],
  });
}

/**
 * Brings an escrow from `current` to `target`: the difference moves between a project's treasury
 * and the escrow in one posting under `key` (the caller numbers its moves under its row's lock,
 * so the same move is never posted twice). Returns whether anything moved; throws
 * `InsufficientFunds` when the treasury is short.
 */
export async function rebalanceEscrow({
  current,
  target,
  treasury,
  escrow,
  kind,
  ...p
}: Omit<Posting, "kind"> & {
  asset: Asset;
  treasury: AccountRef;
  escrow: AccountRef;
  current: bigint;
  target: bigint;
  kind: { in: string; out: string };
}): Promise<boolean> {
  const delta = target - current;
  if (delta === 0n) return false;
  await move({
    ...p,
    kind: delta > 0n ? kind.in : kind.out,
    amount: delta > 0n ? delta : -delta,
    from: delta > 0n ? treasury : escrow,
    to: delta > 0n ? escrow : treasury,
  });
  return true;
}

/** One account's balance (0 before its first posting). */
export async function accountBalance({ db, account, asset }: { db: Db; account: AccountRef; asset: Asset }): Promise<bigint> {
  const [row] = await db
    .select({ balance: ledgerAccount.balance })
    .from(ledgerAccount)
    .where(and(eq(ledgerAccount.holder, account.holder), eq(ledgerAccount.name, account.name), eq(ledgerAccount.asset, asset)));
  return row?.balance ?? 0n;
}

/** Every balance of the holders whose name starts with `prefix` (e.g. `pool:` + ids), by holder and asset. */
export async function balancesOf({ db, holders }: { db: Db; holders: string[] | { prefix: string } }) {
  const which = Array.isArray(holders)
    ? holders.length
      ? inArray(ledgerAccount.holder, holders)
      : sql`false`
    : like(ledgerAccount.holder, `${holders.prefix}%`);
  return db
    .select({ holder: ledgerAccount.holder, name: ledgerAccount.name, asset: ledgerAccount.asset, balance: ledgerAccount.balance })
    .from(ledgerAccount)
    .where(which)
    .orderBy(ledgerAccount.asset);
}

type Movement = Posting & { userId: string; asset: Asset; amount: bigint };

const member = (userId: string, name: "available" | "held", asset: Asset, amount: bigint): LedgerLine => ({ holder: userId, name, asset, amount });
const platform = (name: PlatformAccount, asset: Asset, amount: bigint): LedgerLine => ({ holder: PLATFORM, name, asset, amount });

/** Adds to a member's available balance, taken from a platform account (`treasury` by default). */
export function credit({ from = "treasury", ...m }: Movement & { from?: PlatformAccount }): Promise<Posted> {
  const amount = positive(m.amount);
  return post({ ...m, lines: [platform(from, m.asset, -amount), member(m.userId, "available", m.asset, amount)] });
}

/** Moves part of a member's available balance to held (e.g. a requested withdrawal); fails with `InsufficientFunds`. */
export function hold(m: Movement): Promise<Posted> {
  const amount = positive(m.amount);
  return post({ ...m, lines: [member(m.userId, "available", m.asset, -amount), member(m.userId, "held", m.asset, amount)] });
}

/** Gives held funds back to the member's available balance (e.g. a cancelled withdrawal). */
export function release(m: Movement): Promise<Posted> {
  const amount = positive(m.amount);
  return post({ ...m, lines: [member(m.userId, "held", m.asset, -amount), member(m.userId, "available", m.asset, amount)] });
}

/** Hands held funds to a platform account (e.g. a withdrawal sent on chain goes `withdrawals_in_flight`). */
export function settle({ to, ...m }: Movement & { to: PlatformAccount }): Promise<Posted> {
  const amount = positive(m.amount);
  return post({ ...m, lines: [member(m.userId, "held", m.asset, -amount), platform(to, m.asset, amount)] });
}

/** Moves funds between two platform accounts (no member's balance changes). */
export function transfer({ from, to, ...m }: Posting & { asset: Asset; amount: bigint; from: PlatformAccount; to: PlatformAccount }): Promise<Posted> {
  const amount = positive(m.amount);
  return post({ ...m, lines: [platform(from, m.asset, -amount), platform(to, m.asset, amount)] });
}

export type Balance = { asset: Asset; available: bigint; held: bigint };

/** A member's balances per asset (only assets they ever held), from the cached account balances. */
export async function balanceOf({ db, userId, asset }: { db: Db; userId: string; asset?: Asset }): Promise<Balance[]> {
  const rows = await balancesStatement(db).execute({ userId, asset: asset ?? null });
  const byAsset = new Map<Asset, Balance>();
  for (const row of rows) {
    const key = row.asset as Asset;
    const balance = byAsset.get(key) ?? { asset: key, available: 0n, held: 0n };
    if (row.name === "available") balance.available = row.balance;
    if (row.name === "held") balance.held = row.balance;
    byAsset.set(key, balance);
  }
  return [...byAsset.values()].sort((a, b) => a.asset.localeCompare(b.asset));
}

/** A member's accounts, or those of one asset: read on the dashboard and the balance page, prepared once per connection. */
const balancesStatement = preparedPerDb((db) =>
  db
    .select({ name: ledgerAccount.name, asset: ledgerAccount.asset, balance: ledgerAccount.balance })
    .from(ledgerAccount)
    .where(
      and(
        eq(ledgerAccount.holder, sql.placeholder("userId")),
        sql`(${sql.placeholder("asset")}::text is null or ${ledgerAccount.asset} = ${sql.placeholder("asset")})`,
      ),
    )
    .prepare("questline_balances"),
);

export type HistoryItem = {
  entryId: number;
  kind: string;
  reference: string | null;
  memo: string | null;
  createdAt: Date;
  asset: Asset;
  /** What the entry did to the member's available and held balances. */
  available: bigint;
  held: bigint;
  /** What the entry moved in all (e.g. a withdrawal confirmed between platform accounts). */
  gross: bigint;
};

/**
 * A member's entries, newest first, `perPage` to a page (pages count from 1): the entries about
 * them and those that moved one of their accounts (a reward pool pays many members in one entry).
 * With `changing`, only the entries that moved that account of theirs (`available`: what they can
 * spend; a withdrawal's later steps, between held and platform accounts, are left out).
 */
export async function history({
  db,
  userId,
  page = 1,
  perPage = 20,
  changing,
}: {
  db: Db;
  userId: string;
  page?: number;
  perPage?: number;
  changing?: LedgerAccountName;
}) {
  const moved = (name?: LedgerAccountName) =>
    sql`${journalEntry.id} in (select ${journalLine.entryId} from ${journalLine} join ${ledgerAccount} on ${ledgerAccount.id} = ${journalLine.accountId}
        where ${ledgerAccount.holder} = ${userId}${name ? sql` and ${ledgerAccount.name} = ${name}` : sql``})`;
  const entries = await db
    .select({ id: journalEntry.id, kind: journalEntry.kind, reference: journalEntry.reference, memo: journalEntry.memo, createdAt: journalEntry.createdAt })
    .from(journalEntry)
    .where(changing ? moved(changing) : or(eq(journalEntry.userId, userId), moved()))
    .orderBy(desc(journalEntry.id))
    .limit(perPage + 1)
    .offset((page - 1) * perPage);
  const shown = entries.slice(0, perPage);
  const lines = shown.length
    ? await db
        .select({ entryId: journalLine.entryId, asset: journalLine.asset, amount: journalLine.amount, holder: ledgerAccount.holder, name: ledgerAccount.name })
        .from(journalLine)
        .innerJoin(ledgerAccount, eq(ledgerAccount.id, journalLine.accountId))
        .where(
          inArray(
            journalLine.entryId,
            shown.map((e) => e.id),
          ),
        )
    : [];
  const items: HistoryItem[] = shown.map((entry) => {
    const all = lines.filter((line) => line.entryId === entry.id);
    const own = (name: string) => all.filter((line) => line.holder === userId && line.name === name).reduce((total, line) => total + line.amount, 0n);
    return {
      entryId: entry.id,
      kind: entry.kind,
      reference: entry.reference,
      memo: entry.memo,
      createdAt: entry.createdAt,
      asset: (all[0]?.asset ?? "") as Asset,
      available: own("available"),
      held: own("held"),
      gross: all.reduce((total, line) => (line.amount > 0n ? total + line.amount : total), 0n),
    };
  });
  return { items, hasMore: entries.length > perPage };
}

export type LedgerCheck = {
  /** Entries whose lines do not sum to zero in some asset. */
  unbalancedEntries: number;
  /** Accounts whose cached balance differs from the sum of their lines. */
  mismatchedAccounts: number;
  /** Member, project and pool accounts below zero. */
  negativeMembers: number;
};

/** Checks the ledger's invariants over every row (tests, and an operator's audit). */
export async function checkLedger({ db }: { db: Db }): Promise<LedgerCheck> {
  const [row] = rowsOf(
    await db.execute(sql`
      select
        (select count(*) from (select 1 from journal_line group by entry_id, asset having sum(amount) <> 0) u) as unbalanced,
        (select count(*) from ledger_account a
           where a.balance <> coalesce((select sum(l.amount) from journal_line l where l.account_id = a.id), 0)) as mismatched,
        (select count(*) from ledger_account where holder <> ${PLATFORM} and balance < 0) as negative`),
  );
  return { unbalancedEntries: Number(row!.unbalanced), mismatchedAccounts: Number(row!.mismatched), negativeMembers: Number(row!.negative) };
}

/** A platform account's balance (0 before its first posting). */
export async function platformBalance({ db, name, asset }: { db: Db; name: PlatformAccount; asset: Asset }): Promise<bigint> {
  const [row] = await db
    .select({ balance: ledgerAccount.balance })
    .from(ledgerAccount)
    .where(and(eq(ledgerAccount.holder, PLATFORM), eq(ledgerAccount.name, name), eq(ledgerAccount.asset, asset)));
  return row?.balance ?? 0n;
}
