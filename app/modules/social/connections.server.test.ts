import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { disconnect, linkErrorMessage, listConnections } from "./connections.server";
import { socialConfigFromEnv } from "./social-config.server";
import { LINK_ERRORS, recordSocialLink, validateSocialLink } from "./social-oauth.server";

let database: Database;
const social = socialConfigFromEnv(
  { X_CLIENT_ID: "id", X_CLIENT_SECRET: "secret", SOCIAL_TOKEN_KEY: "00".repeat(32) },
  { isPublic: false, dataDir: "/nonexistent" },
);
const day = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(["ann", "bob", "cat"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
});
afterAll(() => database.close());

/** What better-auth does when a link goes through: the account row, then its after-hook. */
async function link(userId: string, accountId: string, now: Date) {
  await database.db
    .insert(account)
    .values({ id: randomUUID(), userId, providerId: "x", accountId, scope: "users.read,tweet.read", createdAt: now, updatedAt: now });
  await database.db
    .insert(socialAccount)
    .values({ provider: "x", accountId, handle: `h${accountId}` })
    .onConflictDoNothing();
  await recordSocialLink({ db: database.db, providerId: "x", accountId, userId, now });
}

describe("social connections", () => {
  const t0 = new Date("2026-03-01T00:00:00Z");

  it("lists every provider, with the configured ones connectable and the missing scopes named", async () => {
    await link("ann", "100", t0);
    const connections = await listConnections({ db: database.db, social, userId: "ann" });
    expect(connections.map((c) => [c.provider, c.configured, c.account?.handle ?? null])).toEqual([
      ["x", true, "h100"],
      ["youtube", false, null],
      ["tiktok", false, null],
      ["instagram", false, null],
      ["discord", false, null],
      ["telegram", false, null],
    ]);
    expect(connections[0]!.account?.missingScopes).toEqual(["follows.read", "like.read", "offline.access"]);
  });

  it("refuses a second account of the same provider for one member", async () => {
    expect(await validateSocialLink({ db: database.db, userId: "ann", providerId: "x", profile: { id: "101" }, now: t0 })).toEqual({
      error: LINK_ERRORS.onePerProvider,
    });
    // Reconnecting the same account is not a second one.
    expect(await validateSocialLink({ db: database.db, userId: "ann", providerId: "x", profile: { id: "100" }, now: t0 })).toBeNull();
  });

  it("lets another member link an unlinked account only after 30 days; its last holder may relink at once", async () => {
    const unlinked = await disconnect({ db: database.db, userId: "ann", provider: "x", now: t0 });
    expect(unlinked).toEqual({ ok: true, handle: "h100" });
    expect(await database.db.select().from(account).where(eq(account.userId, "ann"))).toEqual([]);

    const soon = new Date(t0.getTime() + 29 * day);
    expect(await validateSocialLink({ db: database.db, userId: "bob", providerId: "x", profile: { id: "100" }, now: soon })).toEqual({
      error: LINK_ERRORS.relinkWait,
    });
    expect(await validateSocialLink({ db: database.db, userId: "ann", providerId: "x", profile: { id: "100" }, now: soon })).toBeNull();
    const later = new Date(t0.getTime() + 30 * day + 1000);
    expect(await validateSocialLink({ db: database.db, userId: "bob", providerId: "x", profile: { id: "100" }, now: later })).toBeNull();

    await link("bob", "100", later);
    const [row] = await database.db.select().from(socialAccount).where(eq(socialAccount.accountId, "100"));
    expect(row).toMatchObject({ lastUserId: "bob", unlinkedAt: null, status: "active" });
  });

  it("holds one account to one member in the database too", async () => {
    await expect(
      database.db.insert(account).values({ id: randomUUID(), userId: "cat", providerId: "x", accountId: "100", createdAt: t0, updatedAt: t0 }),
    ).rejects.toThrow();
  });

  it("refuses Instagram personal accounts and profiles without an id", async () => {
    expect(
      await validateSocialLink({ db: database.db, userId: "cat", providerId: "instagram", profile: { id: "9", refusal: LINK_ERRORS.instagramPersonal } }),
    ).toEqual({
      error: LINK_ERRORS.instagramPersonal,
    });
    expect(await validateSocialLink({ db: database.db, userId: "cat", providerId: "x", profile: {} })).toEqual({ error: LINK_ERRORS.profileUnavailable });
    // Other providers (none today) are not ours to judge.
    expect(await validateSocialLink({ db: database.db, userId: "cat", providerId: "siwe", profile: {} })).toBeNull();
  });

  it("says nothing connected when disconnecting twice, and every refusal in words", async () => {
    expect(await disconnect({ db: database.db, userId: "cat", provider: "x" })).toMatchObject({ ok: false, code: "not_found" });
    expect(linkErrorMessage("x", "account_already_linked_to_different_user")).toContain("already connected to another member");
    expect(linkErrorMessage("instagram", LINK_ERRORS.instagramPersonal)).toContain("personal Instagram account");
    // An unknown code from the provider is quoted, cut short.
    expect(linkErrorMessage("tiktok", "x".repeat(500))).toBe(`TikTok could not be connected (${"x".repeat(60)}). Nothing changed: try again.`);
  });
});
