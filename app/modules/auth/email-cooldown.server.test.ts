import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { claimEmailCooldown, releaseEmailCooldown } from "./email-cooldown.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("claimEmailCooldown", () => {
  it("lets one e-mail through per address every 30 seconds and says how long to wait", async () => {
    const db = database.db;
    const t0 = new Date("2026-11-21T10:00:00Z");
    expect(await claimEmailCooldown({ db, email: "A@example.com", now: t0 })).toEqual({ ok: true });
    expect(await claimEmailCooldown({ db, email: "a@example.com", now: new Date(t0.getTime() + 1_000) })).toEqual({
      ok: false,
      retryAfterSeconds: 29,
    });
    expect(await claimEmailCooldown({ db, email: "a@example.com", now: new Date(t0.getTime() + 29_500) })).toEqual({
      ok: false,
      retryAfterSeconds: 1,
    });
    expect(await claimEmailCooldown({ db, email: "a@example.com", now: new Date(t0.getTime() + 30_000) })).toEqual({ ok: true });
    expect(await claimEmailCooldown({ db, email: "b@example.com", now: new Date(t0.getTime() + 30_000) })).toEqual({ ok: true });
  });

  it("lets exactly one of many racing claims win", async () => {
    const now = new Date();
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimEmailCooldown({ db: database.db, email: "race@example.com", now })));
    expect(claims.filter((c) => c.ok)).toHaveLength(1);
  });

  it("can be given back when sending failed", async () => {
    const db = database.db;
    expect((await claimEmailCooldown({ db, email: "c@example.com" })).ok).toBe(true);
    await releaseEmailCooldown({ db, email: "C@example.com" });
    expect((await claimEmailCooldown({ db, email: "c@example.com" })).ok).toBe(true);
  });
});
