import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import type { Database } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { listConnections } from "./connections.server";
import { socialConfigFromEnv, type SocialConfig } from "./social-config.server";
import { VERIFY_X_PER_HOUR, canVerifyXByPost, verificationCode, verifyXByPost } from "./verify-x.server";

let database: Database;
let fakes: SocialFakes;
let social: SocialConfig;
const logger = createLogger("silent");
const now = new Date("2026-06-01T12:00:00Z");

beforeAll(async () => {
  database = await createTestDatabase();
  fakes = await startSocialFakes();
  social = socialConfigFromEnv(fakes.env, { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-verify-x-")) });
  await database.db.insert(user).values(["ann", "bob", "cat", "dan"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
});
afterAll(async () => {
  await database?.close();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

const verify = (userId: string, postUrl: string, at = now) => verifyXByPost({ db: database.db, social, logger, userId, postUrl, now: at });

/** A public post by `username` carrying `text`, as X serves it. */
function post(id: string, authorId: string, username: string, text: string) {
  fakes.x.addUsers({ id: authorId, username, name: username });
  fakes.x.addPosts({ id, authorId, text, createdAt: now.toISOString() });
  return `https://x.com/${username}/status/${id}`;
}

describe("verifying an X account by a posted code", () => {
  it("is offered only with X set up and an app token", () => {
    expect(canVerifyXByPost(social)).toBe(true);
    expect(canVerifyXByPost({ ...social, xBearerToken: null })).toBe(false);
    expect(canVerifyXByPost({ ...social, providers: {} })).toBe(false);
  });

  it("gives each member one code, kept until it proves an account", async () => {
    const code = await verificationCode({ db: database.db, userId: "ann" });
    expect(code).toMatch(/^QL-[A-Z2-9]{8}$/);
    expect(await verificationCode({ db: database.db, userId: "ann" })).toBe(code);
    expect(await verificationCode({ db: database.db, userId: "bob" })).not.toBe(code);
  });

  it("connects the post's author when the post carries the member's code, read with the app's token", async () => {
    const code = await verificationCode({ db: database.db, userId: "ann" });
    const url = post("5001", "801", "ann_on_x", `Verifying my Questline account: ${code}`);
    expect(await verify("ann", url)).toEqual({ ok: true, handle: "ann_on_x" });
    const x = (await listConnections({ db: database.db, social, userId: "ann" })).find((c) => c.provider === "x");
    expect(x?.account).toMatchObject({ accountId: "801", handle: "ann_on_x", method: "code", status: "active", missingScopes: [] });
    expect(fakes.apiRequests.x.at(-1)).toMatchObject({ path: "/2/tweets/5001" });
    // A new code for next time: the old post proves nothing more.
    expect(await verificationCode({ db: database.db, userId: "ann" })).not.toBe(code);
  });

  it("refuses a link that is not a post, a post without the code, an unknown post, changing nothing", async () => {
    expect(await verify("bob", "https://example.com/x")).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { postUrl: expect.stringContaining("Paste the link") },
    });
    const url = post("5002", "802", "bob_on_x", "Hello world");
    expect(await verify("bob", url)).toMatchObject({ ok: false, code: "invalid", errors: { postUrl: expect.stringContaining("does not contain your code") } });
    expect(await verify("bob", "https://x.com/bob_on_x/status/999999")).toMatchObject({ ok: false, errors: { postUrl: expect.stringContaining("not found") } });
    expect(await database.db.select().from(account).where(eq(account.userId, "bob"))).toEqual([]);
  });

  it("refuses an X account another member holds, and a second X account for one member", async () => {
    const annCode = await verificationCode({ db: database.db, userId: "ann" });
    expect(await verify("ann", post("5003", "803", "ann_second", annCode))).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringContaining("already have an X account"),
    });

    const catCode = await verificationCode({ db: database.db, userId: "cat" });
    // ann's account (801) posting cat's code: one account belongs to one member.
    fakes.x.addPosts({ id: "5004", authorId: "801", text: catCode, createdAt: now.toISOString() });
    expect(await verify("cat", "https://x.com/ann_on_x/status/5004")).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringContaining("another member"),
    });
  });

  it("says X could not be checked when the app's token is refused or X is down, and limits a flood", async () => {
    const code = await verificationCode({ db: database.db, userId: "dan" });
    const url = post("5005", "805", "dan_on_x", code);
    fakes.failNext("x", { kind: "server_error", status: 503 });
    expect(await verify("dan", url)).toMatchObject({ ok: false, code: "unavailable" });
    fakes.failNext("x", { kind: "malformed" });
    expect(await verify("dan", url)).toMatchObject({ ok: false, code: "unavailable" });
    for (let i = 2; i < VERIFY_X_PER_HOUR; i++) await verify("dan", "https://x.com/dan_on_x/status/1");
    expect(await verify("dan", url)).toMatchObject({ ok: false, code: "limited" });
    // An hour later it goes through.
    expect(await verify("dan", url, new Date(now.getTime() + 3600_000 + 1000))).toEqual({ ok: true, handle: "dan_on_x" });
  });
});
