import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { accessContext } from "#db/schema/trust";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { UNKNOWN_NETWORK, agentHashOf, networkHashOf, networkPrefixOf, purgeAccessContext, recordAccess } from "./access-context.server";

const hashKey = Buffer.from("test-trust-key-0123456789abcdefghijklmnop");

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function member(id: string) {
  await database.db.insert(user).values({ id, email: `${id}@example.com` });
  return id;
}

describe("networkPrefixOf", () => {
  it("reads the /24 of an IPv4 address, the /48 of an IPv6 one, and a mapped IPv6 address as its IPv4", () => {
    expect(networkPrefixOf("203.0.113.77")).toBe("203.0.113.0/24");
    expect(networkPrefixOf(" 10.1.0.5 ")).toBe("10.1.0.0/24");
    expect(networkPrefixOf("2001:0DB8:0012:abcd::1")).toBe("2001:db8:12::/48");
    expect(networkPrefixOf("2001:db8::")).toBe("2001:db8:0::/48");
    expect(networkPrefixOf("::1")).toBe("0:0:0::/48");
    expect(networkPrefixOf("fe80::1%eth0")).toBe("fe80:0:0::/48");
    expect(networkPrefixOf("[2001:db8:12:1::9]")).toBe("2001:db8:12::/48");
    expect(networkPrefixOf("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(networkPrefixOf("::ffff:cb00:714d")).toBe("203.0.113.0/24");
    expect(networkPrefixOf("64:ff9b:1::203.0.113.77")).toBe("64:ff9b:1::/48");
  });

  it("reads nothing from what is not an address", () => {
    for (const garbage of [null, undefined, "", "unknown", "256.1.1.1", "1.2.3", "1.2.3.4:8080", "2001:db8::1::2", "::ffff:999.0.0.1", "x".repeat(10_000)]) {
      expect(networkPrefixOf(garbage)).toBeNull();
    }
  });
});

describe("the hashes", () => {
  it("are HMAC-SHA256 hex of the prefix and of the trimmed, shortened user agent, with one fixed bucket for no address", () => {
    const hmac = (text: string) => createHmac("sha256", hashKey).update(text).digest("hex");
    expect(networkHashOf(hashKey, "203.0.113.9")).toBe(hmac("203.0.113.0/24"));
    expect(networkHashOf(hashKey, "::ffff:203.0.113.200")).toBe(networkHashOf(hashKey, "203.0.113.9"));
    expect(networkHashOf(hashKey, "203.0.114.9")).not.toBe(networkHashOf(hashKey, "203.0.113.9"));
    for (const loopback of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) expect(networkHashOf(hashKey, loopback)).toBe(UNKNOWN_NETWORK);
    expect(networkHashOf(Buffer.from("another-key-0123456789abcdefghijklmnop"), "203.0.113.9")).not.toBe(networkHashOf(hashKey, "203.0.113.9"));
    expect(networkHashOf(hashKey, "not an address")).toBe(UNKNOWN_NETWORK);
    expect(networkHashOf(hashKey, null)).toBe(UNKNOWN_NETWORK);
    expect(agentHashOf(hashKey, "  Mozilla/5.0  ")).toBe(hmac("Mozilla/5.0"));
    expect(agentHashOf(hashKey, null)).toBe(hmac(""));
    expect(agentHashOf(hashKey, "a".repeat(600))).toBe(hmac("a".repeat(512)));
  });
});

describe("recordAccess", () => {
  it("keeps nothing in the clear, and one sign-in per member, network and day", async () => {
    const db = database.db;
    const userId = await member("access-1");
    const now = new Date("2026-11-21T08:00:00Z");
    const at = (hours: number) => new Date(now.getTime() + hours * 3600_000);
    const agent = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0";
    await recordAccess({ db, hashKey, userId, kind: "sign_up", address: "198.51.100.23", userAgent: agent, now });
    await recordAccess({ db, hashKey, userId, kind: "sign_in", address: "198.51.100.23", userAgent: agent, now });
    await recordAccess({ db, hashKey, userId, kind: "sign_in", address: "198.51.100.99", userAgent: "another agent", now: at(3) });
    await recordAccess({ db, hashKey, userId, kind: "sign_in", address: "192.0.2.1", userAgent: agent, now: at(4) });
    await recordAccess({ db, hashKey, userId, kind: "sign_in", address: "198.51.100.23", userAgent: agent, now: at(17) });
    await recordAccess({ db, hashKey, userId, kind: "sign_in", address: "garbage", userAgent: null, now: at(18) });

    const rows = await db.select().from(accessContext).where(eq(accessContext.userId, userId)).orderBy(accessContext.createdAt);
    expect(rows.map((row) => [row.kind, row.networkHash, row.createdAt.toISOString()])).toEqual([
      ["sign_up", networkHashOf(hashKey, "198.51.100.1"), now.toISOString()],
      ["sign_in", networkHashOf(hashKey, "198.51.100.1"), now.toISOString()],
      ["sign_in", networkHashOf(hashKey, "192.0.2.1"), at(4).toISOString()],
      ["sign_in", networkHashOf(hashKey, "198.51.100.1"), at(17).toISOString()],
      ["sign_in", UNKNOWN_NETWORK, at(18).toISOString()],
    ]);
    expect(rows[0]!.agentHash).toBe(agentHashOf(hashKey, agent));
    const stored = JSON.stringify(rows);
    for (const clear of ["198.51.100", "192.0.2", "Mozilla", "Firefox"]) expect(stored).not.toContain(clear);
  });
});

describe("purgeAccessContext", () => {
  it("deletes context older than 30 days and keeps the rest", async () => {
    const db = database.db;
    const userId = await member("access-2");
    const now = new Date("2026-12-30T12:00:00Z");
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600_000);
    await db.delete(accessContext);
    await db.insert(accessContext).values([
      { id: "old", userId, kind: "sign_in", networkHash: "n", agentHash: "a", createdAt: daysAgo(30.01) },
      { id: "edge", userId, kind: "sign_up", networkHash: "n", agentHash: "a", createdAt: daysAgo(29.99) },
      { id: "new", userId, kind: "sign_in", networkHash: "n", agentHash: "a", createdAt: daysAgo(1) },
    ]);
    expect(await purgeAccessContext({ db, now })).toBe(1);
    expect((await db.select({ id: accessContext.id }).from(accessContext).orderBy(accessContext.id)).map((row) => row.id)).toEqual(["edge", "new"]);
  });
});
