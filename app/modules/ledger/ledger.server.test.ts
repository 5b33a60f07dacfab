import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { questAsset } from "./assets";
import { balanceOf, checkLedger, credit, history, hold, InsufficientFunds, platformBalance, post, release, settle, transfer } from "./ledger.server";

let database: Database;
const Q = questAsset(31337);

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(["a", "b", "c"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
});
afterAll(() => database.close());

describe("ledger", () => {
  it("credits, holds, releases and settles, each as one balanced entry", async () => {
    const db = database.db;
    await credit({ db, key: "t1", kind: "reward", userId: "a", asset: Q, amount: 100n });
    await hold({ db, key: "t2", kind: "withdrawal_hold", userId: "a", asset: Q, amount: 60n });
    expect(await balanceOf({ db, userId: "a" })).toEqual([{ asset: Q, available: 40n, held: 60n }]);
    await release({ db, key: "t3", kind: "withdrawal_release", userId: "a", asset: Q, amount: 10n });
    await settle({ db, key: "t4", kind: "withdrawal_sent", userId: "a", asset: Q, amount: 50n, to: "withdrawals_in_flight" });
    expect(await balanceOf({ db, userId: "a", asset: Q })).toEqual([{ asset: Q, available: 50n, held: 0n }]);
    expect(await platformBalance({ db, name: "treasury", asset: Q })).toBe(-100n);
    expect(await platformBalance({ db, name: "withdrawals_in_flight", asset: Q })).toBe(50n);
    await transfer({ db, key: "t5", kind: "withdrawal_confirmed", asset: Q, amount: 50n, from: "withdrawals_in_flight", to: "onchain" });
    expect(await platformBalance({ db, name: "withdrawals_in_flight", asset: Q })).toBe(0n);
    expect(await checkLedger({ db })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
  });

  it("posts a retried key once", async () => {
    const db = database.db;
    const first = await credit({ db, key: "once", kind: "reward", userId: "b", asset: Q, amount: 5n });
    const again = await credit({ db, key: "once", kind: "reward", userId: "b", asset: Q, amount: 5n });
    expect(first.created).toBe(true);
    expect(again).toEqual({ entryId: first.entryId, created: false });
    expect((await balanceOf({ db, userId: "b" }))[0]!.available).toBe(5n);
  });

  it("refuses to take a member below zero and changes nothing", async () => {
    const db = database.db;
    await expect(hold({ db, key: "too-much", kind: "withdrawal_hold", userId: "b", asset: Q, amount: 6n })).rejects.toBeInstanceOf(InsufficientFunds);
    await expect(release({ db, key: "no-held", kind: "withdrawal_release", userId: "c", asset: Q, amount: 1n })).rejects.toBeInstanceOf(InsufficientFunds);
    expect((await balanceOf({ db, userId: "b" }))[0]).toEqual({ asset: Q, available: 5n, held: 0n });
    expect(await balanceOf({ db, userId: "c" })).toEqual([]);
    // The failed keys were not used up: the same key posts once the funds are there.
    await credit({ db, key: "more", kind: "reward", userId: "b", asset: Q, amount: 1n });
    expect((await hold({ db, key: "too-much", kind: "withdrawal_hold", userId: "b", asset: Q, amount: 6n })).created).toBe(true);
  });

  it("never overdraws under concurrent holds", async () => {
    const db = database.db;
    await credit({ db, key: "c-fund", kind: "reward", userId: "c", asset: Q, amount: 10n });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => hold({ db, key: `c-hold-${i}`, kind: "withdrawal_hold", userId: "c", asset: Q, amount: 3n })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientFunds)).toBe(true);
    expect(await balanceOf({ db, userId: "c" })).toEqual([{ asset: Q, available: 1n, held: 9n }]);
  });

  it("refuses unbalanced entries, zero or negative amounts, and changes to posted rows", async () => {
    const db = database.db;
    const refused = (message: RegExp) => ({ cause: expect.objectContaining({ message: expect.stringMatching(message) }) });
    await expect(
      post({
        db,
        key: "bad",
        kind: "x",
        lines: [
          { holder: "a", name: "available", asset: Q, amount: 1n },
          { holder: "platform", name: "treasury", asset: Q, amount: -2n },
        ],
      }),
    ).rejects.toMatchObject(refused(/does not balance/));
    await expect(post({ db, key: "bad2", kind: "x", lines: [{ holder: "a", name: "available", asset: Q, amount: 1n }] })).rejects.toMatchObject(
      refused(/two lines/),
    );
    expect(() => credit({ db, key: "zero", kind: "reward", userId: "a", asset: Q, amount: 0n })).toThrow(RangeError);
    await expect(db.execute(sql`update journal_line set amount = amount + 1`)).rejects.toMatchObject(refused(/immutable/));
    await expect(db.execute(sql`delete from journal_entry`)).rejects.toMatchObject(refused(/immutable/));
    expect(await checkLedger({ db })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
  });

  it("lists a member's history newest first, a page at a time", async () => {
    const db = database.db;
    const first = await history({ db, userId: "a", perPage: 2 });
    expect(first.items.map((item) => [item.kind, item.available, item.held])).toEqual([
      ["withdrawal_sent", 0n, -50n],
      ["withdrawal_release", 10n, -10n],
    ]);
    expect(first.hasMore).toBe(true);
    const second = await history({ db, userId: "a", page: 2, perPage: 2 });
    expect(second.items.map((item) => item.kind)).toEqual(["withdrawal_hold", "reward"]);
    expect(second.hasMore).toBe(false);
  });

  it("lists only the entries that moved an account of the member's, when asked", async () => {
    const db = database.db;
    const spendable = await history({ db, userId: "a", perPage: 2, changing: "available" });
    expect(spendable.items.map((item) => [item.kind, item.available])).toEqual([
      ["withdrawal_release", 10n],
      ["withdrawal_hold", -60n],
    ]);
    expect(spendable.hasMore).toBe(true);
    expect((await history({ db, userId: "a", page: 2, perPage: 2, changing: "available" })).items.map((item) => item.kind)).toEqual(["reward"]);
  });
});
