import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "./db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { withinRateLimit } from "./rate-limit.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it("lets `max` requests through per window, concurrent ones included, and starts afresh after it", async () => {
  const db = database.db;
  const now = 1_000_000;
  const results = await Promise.all(Array.from({ length: 8 }, () => withinRateLimit({ db, key: "k", max: 5, windowSeconds: 60, now })));
  expect(results.filter(Boolean)).toHaveLength(5);
  expect(await withinRateLimit({ db, key: "k", max: 5, windowSeconds: 60, now: now + 59_000 })).toBe(false);
  expect(await withinRateLimit({ db, key: "other", max: 5, windowSeconds: 60, now })).toBe(true);
  expect(await withinRateLimit({ db, key: "k", max: 5, windowSeconds: 60, now: now + 61_000 })).toBe(true);
});

it("counts every one of many first requests racing for a fresh key (on PostgreSQL, each on its own connection)", async () => {
  const db = database.db;
  for (let round = 0; round < 200; round++) {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => withinRateLimit({ db, key: `fresh-${round}`, max: 4, windowSeconds: 60, now: 5_000_000 })),
    );
    expect(results.filter(Boolean), `round ${round}`).toHaveLength(4);
  }
});
