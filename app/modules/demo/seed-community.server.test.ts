import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import { discordRoleReward, projectDiscord, projectTelegram } from "#db/schema/community";
import { project } from "#db/schema/projects";
import { task } from "#db/schema/quests";
import type { Database } from "~/lib/db.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { recordSocialLink } from "~/modules/social/social-oauth.server";
import { socialConfigFromEnv, type SocialConfig } from "~/modules/social/social-config.server";
import { runDiscordRoles } from "~/modules/community/role-grant-job.server";
import { connectedMember } from "#tests/setup/social-members";
import { createTestDatabase } from "#tests/setup/test-db";
import { DEMO_TELEGRAM_MEMBER, startDemoSocialFakes } from "#tests/fakes/social/demo";
import { DEMO_DISCORD } from "./community-demo";
import { seedCommunity } from "./seed-community.server";

/**
 * The demo's community campaign against the demo's own fakes (`SOCIAL_FAKES=on`): the project's
 * bots saved through the real checks, and a member who connected both accounts completing the
 * three tasks and receiving the role the rule grants.
 */

let database: Database;
let demo: Awaited<ReturnType<typeof startDemoSocialFakes>>;
let social: SocialConfig;
const db = () => database.db;
const NOW = new Date();

beforeAll(async () => {
  [database, demo] = await Promise.all([createTestDatabase(), startDemoSocialFakes(0)]);
  social = socialConfigFromEnv(
    { ...demo.env, SOCIAL_TOKEN_KEY: "55".repeat(32) },
    { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-community-demo-")) },
  );
  await db()
    .insert(user)
    .values([{ id: "owner", name: "Owner", email: "owner@example.com", emailVerified: true }]);
  await db().insert(project).values({ id: "lumen", slug: "lumen-swap", name: "Lumen Swap", createdBy: "owner" });
});
afterAll(async () => {
  await Promise.all([database.close(), demo.stop()]);
});

describe("the demo's community campaign", () => {
  it("saves Lumen Swap's bots through the fakes, and a member completing its three tasks gets the Lumen Quester role", async () => {
    const seeded = await seedCommunity({ db: db(), social, isPublic: false, projectId: "lumen", ownerId: "owner", now: NOW });
    expect(seeded.bots).toBe(true);
    const [discordBot] = await db().select().from(projectDiscord);
    const [telegramBot] = await db().select().from(projectTelegram);
    expect(discordBot).toMatchObject({ guildId: DEMO_DISCORD.guildId, problems: [] });
    expect(telegramBot).toMatchObject({ chatTitle: "Lumen Swap", problems: [] });
    expect(await db().select({ roleName: discordRoleReward.roleName }).from(discordRoleReward)).toEqual([{ roleName: "Lumen Quester" }]);

    // A member connected the fakes' demo accounts (as the fakes' login pages do).
    const discordId = demo.member.discord.id;
    const member = await connectedMember({ db: db(), fakes: demo.fakes, social, provider: "discord", who: demo.member.discord, now: NOW });
    const telegramId = String(DEMO_TELEGRAM_MEMBER.id);
    await db().insert(account).values({ id: "a-telegram", userId: member, providerId: "telegram", accountId: telegramId });
    await recordSocialLink({ db: db(), providerId: "telegram", accountId: telegramId, userId: member, method: "widget", now: NOW });

    const tasks = await db().select().from(task).where(eq(task.campaignId, seeded.campaignId));
    expect(tasks.map((t) => t.type).sort()).toEqual(["discord_join", "discord_role", "telegram_join"]);
    for (const t of tasks) {
      const done = await attemptTask({ db: db(), social: { social }, taskId: t.id, userId: member, input: { kind: "check" }, now: NOW });
      expect(done, t.type).toMatchObject({ ok: true });
    }
    expect(demo.fakes.discord.memberRoles(DEMO_DISCORD.guildId, discordId)).toEqual([DEMO_DISCORD.holderRoleId]);
    await runDiscordRoles({ db: db(), social, now: NOW });
    expect(demo.fakes.discord.memberRoles(DEMO_DISCORD.guildId, discordId)).toEqual([DEMO_DISCORD.holderRoleId, DEMO_DISCORD.questerRoleId]);
  });
});
