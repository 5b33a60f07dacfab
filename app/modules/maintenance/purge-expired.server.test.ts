import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailCodeCooldown, rateLimit, user, verification } from "#db/schema/auth";
import { appEvent } from "#db/schema/reach";
import { accessContext } from "#db/schema/trust";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { purgeExpired } from "./purge-expired.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("purgeExpired", () => {
  it("deletes expired codes, stale limits and old sign-in context, and keeps live ones", async () => {
    const db = database.db;
    const now = new Date("2026-11-21T12:00:00Z");
    const ago = (ms: number) => new Date(now.getTime() - ms);
    await db.insert(verification).values([
      { id: "v-old", identifier: "a", value: "x", expiresAt: ago(1000) },
      { id: "v-live", identifier: "b", value: "y", expiresAt: new Date(now.getTime() + 60_000) },
    ]);
    await db.insert(rateLimit).values([
      { id: "r-old", key: "k1", count: 1, lastRequest: ago(2 * 3600_000).getTime() },
      { id: "r-live", key: "k2", count: 1, lastRequest: ago(1000).getTime() },
    ]);
    await db.insert(emailCodeCooldown).values([
      { email: "old@example.com", sentAt: ago(2 * 3600_000) },
      { email: "live@example.com", sentAt: ago(1000) },
    ]);
    await db.insert(user).values({ id: "member", email: "member@example.com" });
    await db.insert(accessContext).values([
      { id: "a-old", userId: "member", kind: "sign_up", networkHash: "n", agentHash: "a", createdAt: ago(31 * 24 * 3600_000) },
      { id: "a-live", userId: "member", kind: "sign_in", networkHash: "n", agentHash: "a", createdAt: ago(29 * 24 * 3600_000) },
    ]);
    const day = 24 * 3600_000;
    const event = (key: string, createdAt: Date, read: { notified: boolean; webhooked: boolean }) => ({
      key,
      type: "member.joined",
      projectId: null,
      data: { userId: "member" },
      createdAt,
      notifiedAt: read.notified ? createdAt : null,
      webhookedAt: read.webhooked ? createdAt : null,
    });
    await db
      .insert(appEvent)
      .values([
        event("e-old-read", ago(31 * day), { notified: true, webhooked: true }),
        event("e-old-unwebhooked", ago(31 * day), { notified: true, webhooked: false }),
        event("e-old-unnotified", ago(31 * day), { notified: false, webhooked: true }),
        event("e-recent-read", ago(29 * day), { notified: true, webhooked: true }),
      ]);
    expect(await purgeExpired({ db, now })).toEqual({
      codes: 1,
      rateLimits: 1,
      cooldowns: 1,
      mails: 0,
      accessContext: 1,
      events: 1,
      apiAnswers: 0,
      webhookLog: { deliveries: 0, attempts: 0 },
    });
    expect((await db.select({ key: appEvent.key }).from(appEvent).orderBy(appEvent.key)).map((e) => e.key)).toEqual([
      "e-old-unnotified",
      "e-old-unwebhooked",
      "e-recent-read",
    ]);
    expect((await db.select().from(verification)).map((v) => v.id)).toEqual(["v-live"]);
    expect((await db.select().from(rateLimit)).map((r) => r.id)).toEqual(["r-live"]);
    expect((await db.select().from(emailCodeCooldown)).map((c) => c.email)).toEqual(["live@example.com"]);
    expect((await db.select().from(accessContext)).map((a) => a.id)).toEqual(["a-live"]);
  });
});
