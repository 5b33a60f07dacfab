import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { clearGuesses, FREE_GUESSES, takeGuess } from "./account-guesses.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const t0 = 1_800_000_000_000;

it("lets an account take a few guesses, then doubles the wait each time, whatever address they come from", async () => {
  const db = database.db;
  const guess = (now: number, email = "ann@example.com") => takeGuess({ db, kind: "password", email, now });
  // Racing guesses: exactly the free ones pass.
  const racing = await Promise.all(Array.from({ length: 12 }, () => guess(t0)));
  expect(racing.filter((r) => r.ok)).toHaveLength(FREE_GUESSES.password);
  expect(racing.find((r) => !r.ok)).toEqual({
    ok: false,
    code: "limited",
    message: "Too many attempts for this account. Try again in 1 second.",
    retryAfterSeconds: 1,
  });
  // The same account in other spelling counts the same.
  expect((await guess(t0 + 500, " ANN@example.com ")).ok).toBe(false);
  expect((await guess(t0 + 1000)).ok).toBe(true);
  expect(await guess(t0 + 2000)).toMatchObject({ ok: false, retryAfterSeconds: 1 });
  expect((await guess(t0 + 3000)).ok).toBe(true);
  expect(await guess(t0 + 3000)).toMatchObject({ ok: false, retryAfterSeconds: 4 });
  // Another account is not touched.
  expect((await guess(t0 + 3000, "bob@example.com")).ok).toBe(true);
});

it("never locks for good: the wait stops at 15 minutes, an hour of quiet or a right guess starts afresh", async () => {
  const db = database.db;
  const email = "cy@example.com";
  let now = t0;
  for (let i = 0; i < 40; i++) {
    const turn = await takeGuess({ db, kind: "code", email, now });
    if (!turn.ok) now += turn.retryAfterSeconds * 1000;
    expect(turn.ok || turn.retryAfterSeconds <= 900).toBe(true);
  }
  const capped = await takeGuess({ db, kind: "code", email, now });
  expect(capped).toMatchObject({ ok: false, retryAfterSeconds: 900 });
  expect((await takeGuess({ db, kind: "code", email, now: now + 3_600_000 })).ok).toBe(true);

  for (let i = 0; i < FREE_GUESSES.code; i++) await takeGuess({ db, kind: "code", email, now: now + 3_600_000 });
  expect((await takeGuess({ db, kind: "code", email, now: now + 3_600_000 })).ok).toBe(false);
  await clearGuesses({ db, kind: "code", email });
  expect((await takeGuess({ db, kind: "code", email, now: now + 3_600_000 })).ok).toBe(true);
});

it("counts racing first guesses for a fresh account, none of them failing", async () => {
  const db = database.db;
  // Each account's first guesses race to create its row; the losers must count on the winner's.
  for (let account = 0; account < 20; account++) {
    const email = `race-${account}@example.com`;
    const turns = await Promise.all(Array.from({ length: 4 }, () => takeGuess({ db, kind: "password", email, now: t0 })));
    expect(turns.every((turn) => turn.ok)).toBe(true);
    expect(await takeGuess({ db, kind: "password", email, now: t0 })).toEqual({ ok: true });
    expect(await takeGuess({ db, kind: "password", email, now: t0 })).toMatchObject({ ok: false, code: "limited" });
  }
});
