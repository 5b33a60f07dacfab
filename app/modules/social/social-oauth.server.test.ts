import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { socialAccount } from "#db/schema/social";
import type { Database } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { socialConfigFromEnv, type SocialConfig } from "./social-config.server";
import { readProfile } from "./social-oauth.server";

let database: Database;
let fakes: SocialFakes;
let social: SocialConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  fakes = await startSocialFakes();
  social = socialConfigFromEnv(
    { ...fakes.env, SOCIAL_TOKEN_KEY: "33".repeat(32) },
    { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-social-oauth-")) },
  );
});
afterAll(async () => {
  await fakes.stop();
  await database.close();
});

describe("readProfile", () => {
  it("keeps each connecting account's creation time and followers where its provider gives them", async () => {
    const created = "2016-03-04T05:06:07.000Z";
    const accounts = {
      x: { id: "901", handle: "ada", name: "Ada", avatarUrl: "https://pbs.twimg.com/ada.png", createdAt: created, followers: 42 },
      youtube: { id: "UCadaAAAAAAAAAAAAAAAAAAA", handle: "ada", name: "Ada", avatarUrl: "https://yt3.ggpht.com/ada=s88", createdAt: created, followers: 7 },
      tiktok: { id: "-000adaOpenId", handle: "ada", name: "Ada", avatarUrl: "https://p16.tiktokcdn.com/ada.jpeg", createdAt: created, followers: 9 },
      instagram: { id: "17841400000000901", handle: "ada", name: "Ada", avatarUrl: "https://scontent.cdninstagram.com/ada.jpg", followers: 310 },
    } as const;
    for (const [provider, who] of Object.entries(accounts) as [keyof typeof accounts, (typeof accounts)[keyof typeof accounts]][]) {
      const { accessToken } = fakes.issueToken(provider, who);
      const profile = await readProfile({ db: database.db, provider, config: social.providers[provider]!, accessToken, logger: createLogger("silent") });
      expect(profile?.id).toBe(who.id);
    }
    const rows = await database.db.select().from(socialAccount).orderBy(socialAccount.provider);
    expect(rows.map((row) => [row.provider, row.accountCreatedAt?.toISOString() ?? null, row.followers])).toEqual([
      ["instagram", null, 310],
      // TikTok gives followers only under user.info.stats, a scope Questline does not ask for; never a creation time.
      ["tiktok", null, null],
      ["x", created, 42],
      ["youtube", created, 7],
    ]);
  });
});
