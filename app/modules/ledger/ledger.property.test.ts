// Model-based property tests of the ledger API: random batches of credits, holds, releases,
// settles and transfers over a few members and two assets, with keys drawn from a small pool so
// retries and duplicates happen, each batch run concurrently. After every batch the outcomes must
// be those of some serial order of the batch (checked against a model), and the database must
// agree with the model: balances, platform accounts, sums per asset, one entry per key.

import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLATFORM } from "#db/schema/ledger";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { questAsset, type Asset } from "./assets";
import {
  balanceOf,
  checkLedger,
  credit,
  hold,
  InsufficientFunds,
  platformBalance,
  release,
  settle,
  transfer,
  type PlatformAccount,
  type Posted,
} from "./ledger.server";

const ASSETS: Asset[] = [questAsset(31337), questAsset(8453)];
const PLATFORM_ACCOUNTS: PlatformAccount[] = ["treasury", "withdrawals_in_flight", "onchain"];
type Op = "credit" | "hold" | "release" | "settle" | "transfer";
type Command = { key: string; op: Op; member: string; asset: Asset; amount: bigint };
type Outcome = "created" | "duplicate" | "refused";

let database: Database;
let run = 0;
/** How often each outcome came up, to know the runs covered refusals and retries. */
const seen: Record<Outcome, number> = { created: 0, duplicate: 0, refused: 0 };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The model: account balances by `holder|name|asset` and the keys posted so far. */
type Model = { balances: Map<string, bigint>; posted: Set<string> };

const account = (holder: string, name: string, asset: Asset) => `${holder}|${name}|${asset}`;

/** The lines a command posts, as in ledger.server.ts. */
function linesOf({ op, member, asset, amount }: Command): [string, bigint][] {
  const from = (name: string, holder = member) => [account(holder, name, asset), -amount] as [string, bigint];
  const to = (name: string, holder = member) => [account(holder, name, asset), amount] as [string, bigint];
  if (op === "credit") return [from("treasury", PLATFORM), to("available")];
  if (op === "hold") return [from("available"), to("held")];
  if (op === "release") return [from("held"), to("available")];
  if (op === "settle") return [from("held"), to("withdrawals_in_flight", PLATFORM)];
  return [from("withdrawals_in_flight", PLATFORM), to("onchain", PLATFORM)];
}

/** What the ledger should do with `command` in state `model`, and the state after it. */
function step(model: Model, command: Command): { outcome: Outcome; next: Model } {
  if (model.posted.has(command.key)) return { outcome: "duplicate", next: model };
  const balances = new Map(model.balances);
  for (const [name, amount] of linesOf(command)) {
    const balance = (balances.get(name) ?? 0n) + amount;
    if (balance < 0n && !name.startsWith(`${PLATFORM}|`)) return { outcome: "refused", next: model };
    balances.set(name, balance);
  }
  return { outcome: "created", next: { balances, posted: new Set(model.posted).add(command.key) } };
}

/**
 * A serial order of `commands` in which each gets the outcome it really got, starting from
 * `model`; returns the state after it, or null when no order explains the outcomes.
 */
function serialize(model: Model, commands: Command[], outcomes: Outcome[]): Model | null {
  const full = (1 << commands.length) - 1;
  const dead = new Set<number>();
  const search = (done: number, state: Model): Model | null => {
    if (done === full) return state;
    if (dead.has(done)) return null;
    for (let i = 0; i < commands.length; i++) {
      if (done & (1 << i)) continue;
      const { outcome, next } = step(state, commands[i]!);
      if (outcome !== outcomes[i]) continue;
      const found = search(done | (1 << i), next);
      if (found) return found;
    }
    dead.add(done);
    return null;
  };
  return search(0, model);
}

function execute(db: Db, { key, op, member, asset, amount }: Command): Promise<Posted> {
  const movement = { db, key, kind: `prop_${op}`, userId: member, asset, amount };
  if (op === "credit") return credit(movement);
  if (op === "hold") return hold(movement);
  if (op === "release") return release(movement);
  if (op === "settle") return settle({ ...movement, to: "withdrawals_in_flight" });
  return transfer({ db, key, kind: "prop_transfer", asset, amount, from: "withdrawals_in_flight", to: "onchain" });
}

/** The outcome a settled call reports, checked for its shape on the way. */
function outcomeOf(result: PromiseSettledResult<Posted>): Outcome {
  if (result.status === "rejected") {
    expect(result.reason).toBeInstanceOf(InsufficientFunds);
    return "refused";
  }
  return result.value.created ? "created" : "duplicate";
}

async function entriesOf(db: Db, prefix: string): Promise<Map<string, number>> {
  const rows = rowsOf(await db.execute(sql`select idempotency_key, id from journal_entry where idempotency_key like ${`${prefix}%`}`));
  return new Map(rows.map((row) => [String(row.idempotency_key), Number(row.id)]));
}

/** The platform accounts' balances, to compare the run's movements against. */
async function platformBalances(db: Db): Promise<Map<string, bigint>> {
  const accounts = ASSETS.flatMap((asset) => PLATFORM_ACCOUNTS.map((name) => ({ name, asset })));
  const balances = await Promise.all(accounts.map(({ name, asset }) => platformBalance({ db, name, asset })));
  return new Map(accounts.map(({ name, asset }, i) => [account(PLATFORM, name, asset), balances[i]!]));
}

/**
 * Every invariant over the whole database, and every account of the run against the model. The
 * reads are independent and nothing writes meanwhile, so they go at once: on PostgreSQL each
 * runs on a connection of its own, and a busy machine's scheduling delay is paid once per
 * batch rather than once per read.
 */
async function expectAgrees(db: Db, model: Model, members: string[]) {
  const [audit, sums, lineSums, reused, balances, platform] = await Promise.all([
    checkLedger({ db }),
    db.execute(sql`select asset, sum(balance)::text as total from ledger_account group by asset having sum(balance) <> 0`),
    db.execute(sql`select asset, sum(amount)::text as total from journal_line group by asset having sum(amount) <> 0`),
    db.execute(sql`select idempotency_key from journal_entry group by idempotency_key having count(*) > 1`),
    Promise.all(members.map((userId) => balanceOf({ db, userId }))),
    platformBalances(db),
  ]);
  expect(audit).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
  expect(rowsOf(sums)).toEqual([]);
  expect(rowsOf(lineSums)).toEqual([]);
  expect(rowsOf(reused)).toEqual([]);
  members.forEach((userId, m) => {
    for (const asset of ASSETS) {
      const row = balances[m]!.find((balance) => balance.asset === asset);
      const expected = {
        available: model.balances.get(account(userId, "available", asset)) ?? 0n,
        held: model.balances.get(account(userId, "held", asset)) ?? 0n,
      };
      expect({ available: row?.available ?? 0n, held: row?.held ?? 0n }).toEqual(expected);
    }
  });
  for (const [name, balance] of platform) expect(balance).toBe(model.balances.get(name) ?? 0n);
}

const commandArbitrary = fc.record({
  op: fc.oneof(
    { arbitrary: fc.constant<Op>("credit"), weight: 3 },
    { arbitrary: fc.constant<Op>("hold"), weight: 3 },
    { arbitrary: fc.constant<Op>("release"), weight: 2 },
    { arbitrary: fc.constant<Op>("settle"), weight: 2 },
    { arbitrary: fc.constant<Op>("transfer"), weight: 1 },
  ),
  member: fc.nat({ max: 2 }),
  asset: fc.constantFrom(...ASSETS),
  amount: fc.bigInt({ min: 1n, max: 40n }),
});

describe("ledger properties", () => {
  it("agrees with a serial model after every concurrent batch of postings, retries included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(commandArbitrary, { minLength: 3, maxLength: 14 }),
        fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        async (pool, batches) => {
          const db = database.db;
          const prefix = `r${++run}-`;
          // Each key names one command: a retry sends the same command again.
          const commands: Command[] = pool.map((c, i) => ({ ...c, key: `${prefix}k${i}`, member: `${prefix}m${c.member}` }));
          const members = [...new Set(commands.map((c) => c.member))];
          let model: Model = { balances: await platformBalances(db), posted: new Set() };
          for (const picks of batches) {
            const batch = picks.map((i) => commands[i % commands.length]!);
            const results = await Promise.allSettled(batch.map((command) => execute(db, command)));
            const outcomes = results.map(outcomeOf);
            for (const outcome of outcomes) seen[outcome]++;
            const entries = await entriesOf(db, prefix);
            // A key is posted once, and every call with it reports that entry.
            results.forEach((result, i) => {
              if (result.status === "fulfilled") expect(result.value.entryId).toBe(entries.get(batch[i]!.key));
            });
            const next = serialize(model, batch, outcomes);
            expect(
              next,
              `no serial order explains ${JSON.stringify(batch.map((c, i) => [c.op, c.member, c.asset, String(c.amount), outcomes[i]]))}`,
            ).not.toBeNull();
            model = next!;
            expect([...entries.keys()].sort()).toEqual([...model.posted].sort());
            await expectAgrees(db, model, members);
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(Math.min(seen.created, seen.duplicate, seen.refused)).toBeGreaterThan(50);
  });

  it("never holds more than the balance under concurrent holds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 100n }),
        fc.array(fc.bigInt({ min: 1n, max: 60n }), { minLength: 2, maxLength: 12 }),
        async (funds, amounts) => {
          const db = database.db;
          const prefix = `r${++run}-`;
          const userId = `${prefix}m`;
          const asset = ASSETS[0]!;
          await credit({ db, key: `${prefix}fund`, kind: "prop_credit", userId, asset, amount: funds });
          const results = await Promise.allSettled(amounts.map((amount, i) => hold({ db, key: `${prefix}h${i}`, kind: "prop_hold", userId, asset, amount })));
          const held = amounts.filter((_, i) => results[i]!.status === "fulfilled").reduce((sum, amount) => sum + amount, 0n);
          expect(held).toBeLessThanOrEqual(funds);
          expect(await balanceOf({ db, userId })).toEqual([{ asset, available: funds - held, held }]);
          results.forEach((result, i) => {
            if (result.status === "fulfilled") return;
            expect(result.reason).toBeInstanceOf(InsufficientFunds);
            // Holds only take away, so a refused hold did not fit in what was left at the end either.
            expect(amounts[i]!).toBeGreaterThan(funds - held);
          });
          expect(await checkLedger({ db })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
        },
      ),
      { numRuns: 40 },
    );
  });
});
