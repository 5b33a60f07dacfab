import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, user } from "#db/schema/auth";
import { discordRoleGrant, discordRoleLog, projectDiscord } from "#db/schema/community";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, crusade, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { leaderboardEntry } from "#db/schema/xp";
import { memberExclusion } from "#db/schema/trust";
import type { Database } from "~/lib/db.server";
import { socialConfigFromEnv, type SocialConfig } from "~/modules/social/social-config.server";
import { voidApproval } from "~/modules/tasks/void-approval.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { checkDiscordBot, NOT_IN_SERVER, saveDiscordBot } from "./discord-settings.server";
import { runDiscordRoles } from "./role-grant-job.server";
import { addRoleReward, listRoleRewards, removeRoleReward } from "./role-rewards.server";

/**
 * Discord roles as rewards through the Discord fake's REST API over HTTP: the bot's permission
 * check in words, and the job granting, retrying and taking back roles as the facts change,
 * marking a change done only when Discord confirmed it.
 */

const MANAGE_ROLES = String(1 << 28);
const GUILD = "300000000000000001";
const OTHER_GUILD = "300000000000000002";
const BOT = "400000000000000001";
const BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.fake-bot-token.abcdefghijklmnopqrstuvwxyz0123456789";
const ROLE = { bot: "500000000000000001", holder: "500000000000000002", mods: "500000000000000003", plain: "500000000000000004" };
const T0 = new Date("2026-11-20T12:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

let database: Database;
let fakes: SocialFakes;
let social: SocialConfig;
const db = () => database.db;
const requests = () => fakes.discord.roleRequests;

beforeAll(async () => {
  database = await createTestDatabase();
  fakes = await startSocialFakes();
  social = socialConfigFromEnv(
    { ...fakes.env, SOCIAL_TOKEN_KEY: "44".repeat(32) },
    { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-discord-roles-")) },
  );
  fakes.discord.addGuild({
    id: GUILD,
    name: "Lumen",
    roles: [
      { id: ROLE.bot, name: "Questline", position: 5, permissions: MANAGE_ROLES },
      { id: ROLE.holder, name: "Holder", position: 2, permissions: "0" },
      { id: ROLE.mods, name: "Mods", position: 9, permissions: "0" },
      { id: ROLE.plain, name: "Plain", position: 3, permissions: "0" },
    ],
  });
  fakes.discord.addBot({ token: BOT_TOKEN, userId: BOT, username: "QuestBot" });
  await db().insert(user).values({ id: "own", email: "own@example.com", name: "Owner" });
  await db().insert(project).values({ id: "p", slug: "p", name: "Lumen Swap" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await db()
    .insert(campaign)
    .values({ id: "c", projectId: "p", slug: "c", name: "Launch week", startsAt: at(-86_400), endsAt: at(86_400), publishedAt: at(-86_400) });
  await db()
    .insert(task)
    .values(
      ["t1", "t2"].map((id) => ({
        id,
        projectId: "p",
        campaignId: "c",
        title: id,
        type: "visit_link" as const,
        xp: 10,
        verification: "none" as const,
        publishedAt: at(-86_400),
      })),
    );
});
afterAll(async () => {
  await fakes?.stop();
  await database?.close();
});

/** A member with a connected Discord account, in the server unless `inServer` is false, who completed the campaign. */
async function completer(id: string, discordId: string, { inServer = true } = {}) {
  await db()
    .insert(user)
    .values({ id, email: `${id}@example.com`, name: id });
  await db()
    .insert(account)
    .values({ id: `acc-${id}`, userId: id, providerId: "discord", accountId: discordId });
  await db()
    .insert(completion)
    .values(["t1", "t2"].map((t) => ({ id: `${id}-${t}`, taskId: t, userId: id, period: "once", status: "approved" as const })));
  if (inServer) fakes.discord.setMember(GUILD, discordId, { roles: [] });
}

const grantOf = async (userId: string, roleId = ROLE.holder) => {
  const [row] = await db()
    .select()
    .from(discordRoleGrant)
    .where(and(eq(discordRoleGrant.userId, userId), eq(discordRoleGrant.roleId, roleId)));
  return row;
};
const run = (now: Date) => runDiscordRoles({ db: db(), social, now });

describe("the bot's permission check", () => {
  it("says in words what the bot is missing, and keeps the token encrypted", async () => {
    const saved = await saveDiscordBot({ db: db(), social, projectId: "p", userId: "own", input: { token: BOT_TOKEN, guildId: OTHER_GUILD }, now: T0 });
    expect(saved).toEqual({ ok: true, problems: [expect.stringContaining(NOT_IN_SERVER)] });
    const [row] = await db().select().from(projectDiscord).where(eq(projectDiscord.projectId, "p"));
    expect(row!.botToken).not.toContain(BOT_TOKEN);
    expect(row!.botUsername).toBe("QuestBot");

    // In the server, but with a role without Manage Roles.
    fakes.discord.joinBot(GUILD, BOT, [ROLE.plain]);
    const noManage = await saveDiscordBot({ db: db(), social, projectId: "p", userId: "own", input: { token: "", guildId: GUILD }, now: T0 });
    expect(noManage.ok && noManage.problems).toEqual([expect.stringContaining("The bot lacks Manage Roles")]);

    // Manage Roles now, and a rule for a role above the bot's.
    fakes.discord.joinBot(GUILD, BOT, [ROLE.bot]);
    expect(await addRoleReward({ db: db(), social, projectId: "p", userId: "own", input: { roleId: ROLE.mods, trigger: "level", level: "50" } })).toMatchObject(
      { ok: true },
    );
    const above = await checkDiscordBot({ db: db(), social, projectId: "p", now: T0 });
    expect(above.ok && above.problems).toEqual(["Move the bot's role above Mods in Server Settings › Roles."]);
    // @everyone and the bot's own managed role are not offered; a role it cannot see is refused.
    expect(await addRoleReward({ db: db(), social, projectId: "p", userId: "own", input: { roleId: GUILD, trigger: "level", level: "3" } })).toMatchObject({
      ok: false,
      errors: { roleId: expect.any(String) },
    });
    const [mods] = await listRoleRewards({ db: db(), projectId: "p" });
    await removeRoleReward({ db: db(), projectId: "p", rewardId: mods!.id, now: T0 });
    expect((await checkDiscordBot({ db: db(), social, projectId: "p", now: T0 })).ok && (await db().select().from(projectDiscord))[0]!.problems).toEqual([]);
  });
});

describe("the role job", () => {
  let ruleId: string;

  it("grants the role and marks it done only when Discord confirmed it, never asking twice", async () => {
    const added = await addRoleReward({
      db: db(),
      social,
      projectId: "p",
      userId: "own",
      input: { roleId: ROLE.holder, trigger: "campaign", campaignId: "c" },
    });
    if (!added.ok) throw new Error("rule refused");
    ruleId = added.id;
    await completer("ann", "600000000000000001");

    expect(await run(at(1))).toMatchObject({ attempted: 1, confirmed: 1 });
    expect(fakes.discord.memberRoles(GUILD, "600000000000000001")).toEqual([ROLE.holder]);
    expect(requests().at(-1)).toMatchObject({ method: "PUT", roleId: ROLE.holder, status: 204, reason: "Completed Launch week", botUserId: BOT });
    expect(await grantOf("ann")).toMatchObject({ want: "held", state: "done", reason: "Completed Launch week", confirmedAt: at(1) });

    const before = requests().length;
    expect(await run(at(2))).toMatchObject({ attempted: 0 });
    expect(requests().length).toBe(before);
  });

  it("waits for Discord's retry_after after a 429 and succeeds at the retry time", async () => {
    await completer("bob", "600000000000000002");
    fakes.discord.rateLimitNext(1, 30);
    await run(at(10));
    expect(await grantOf("bob")).toMatchObject({ state: "pending", nextAttemptAt: at(40), lastError: expect.stringContaining("rate limit") });
    const before = requests().length;
    await run(at(39));
    expect(requests().length).toBe(before);
    await run(at(40));
    expect(await grantOf("bob")).toMatchObject({ state: "done", confirmedAt: at(40) });
    expect(fakes.discord.memberRoles(GUILD, "600000000000000002")).toEqual([ROLE.holder]);
  });

  it("asks a member outside the server to join, and grants once they have", async () => {
    await completer("cy", "600000000000000003", { inServer: false });
    await run(at(100));
    expect(await grantOf("cy")).toMatchObject({ state: "pending", lastError: "Join Lumen to receive the role", nextAttemptAt: at(130) });
    fakes.discord.setMember(GUILD, "600000000000000003", { roles: [] });
    await run(at(130));
    expect(await grantOf("cy")).toMatchObject({ state: "done" });
  });

  it("takes the role back when an approval is voided, and when the team excludes the member", async () => {
    await voidApproval({ db: db(), completionId: "ann-t2", reason: "The link was never opened", now: at(200) });
    await db().insert(memberExclusion).values({ id: "x1", projectId: "p", scope: "project", scopeId: "p", userId: "bob", reason: "Same device as ann" });
    await run(at(200));
    expect(requests().slice(-2)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: "DELETE", userId: "600000000000000001", status: 204 }),
        expect.objectContaining({ method: "DELETE", userId: "600000000000000002", status: 204 }),
      ]),
    );
    expect(fakes.discord.memberRoles(GUILD, "600000000000000001")).toEqual([]);
    expect(fakes.discord.memberRoles(GUILD, "600000000000000002")).toEqual([]);
    expect(await grantOf("ann")).toMatchObject({ want: "removed", state: "done", reason: "Approval voided: The link was never opened" });
    expect(await grantOf("bob")).toMatchObject({ want: "removed", state: "done", reason: "Excluded from Lumen Swap: Same device as ann" });
  });

  it("keeps a grant Discord refused pending with the reason in words, retried after the backoff", async () => {
    const mods = await addRoleReward({ db: db(), social, projectId: "p", userId: "own", input: { roleId: ROLE.mods, trigger: "campaign", campaignId: "c" } });
    expect(mods.ok).toBe(true);
    await run(at(300));
    const refused = await grantOf("cy", ROLE.mods);
    expect(refused).toMatchObject({ state: "pending", nextAttemptAt: at(330), lastError: expect.stringContaining("Manage Roles and its role above Mods") });
    expect(fakes.discord.memberRoles(GUILD, "600000000000000003")).toEqual([ROLE.holder]);
    // Fixed in the server: the bot's role moved above Mods.
    fakes.discord.addGuild({
      id: GUILD,
      name: "Lumen",
      roles: [
        { id: ROLE.bot, name: "Questline", position: 10, permissions: MANAGE_ROLES },
        { id: ROLE.holder, name: "Holder", position: 2, permissions: "0" },
        { id: ROLE.mods, name: "Mods", position: 9, permissions: "0" },
      ],
    });
    await run(at(330));
    expect(await grantOf("cy", ROLE.mods)).toMatchObject({ state: "done" });
    const log = await db().select().from(discordRoleLog).where(eq(discordRoleLog.grantId, refused!.id));
    expect(log.map((l) => l.outcome)).toEqual(["retry", "confirmed"]);
  });

  it("takes a removed rule's roles back", async () => {
    await removeRoleReward({ db: db(), projectId: "p", rewardId: ruleId, now: at(400) });
    await run(at(400));
    expect(await grantOf("cy")).toMatchObject({ want: "removed", state: "done", reason: "The rule was removed" });
    expect(fakes.discord.memberRoles(GUILD, "600000000000000003")).toEqual([ROLE.mods]);
  });

  it("never calls Discord twice for one row when two runs overlap", async () => {
    for (const [id, discordId] of [
      ["dee", "600000000000000004"],
      ["eve", "600000000000000005"],
      ["fay", "600000000000000006"],
    ] as const)
      await completer(id, discordId);
    const before = requests().length;
    await Promise.all([run(at(500)), run(at(500)), run(at(500))]);
    const puts = requests()
      .slice(before)
      .map((r) => `${r.userId}/${r.roleId}`);
    expect(puts.sort()).toEqual(["600000000000000004", "600000000000000005", "600000000000000006"].map((u) => `${u}/${ROLE.mods}`));
  });

  it("grants for a level, a crusade and a reward won, and keeps a role another rule still grants", async () => {
    await db().insert(user).values({ id: "gus", email: "gus@example.com", name: "gus" });
    await db().insert(account).values({ id: "acc-gus", userId: "gus", providerId: "discord", accountId: "600000000000000007" });
    fakes.discord.setMember(GUILD, "600000000000000007", { roles: [] });
    // Level 3 at 300 XP on the project's all-time board.
    await db()
      .insert(leaderboardEntry)
      .values({ board: "p:p|all", userId: "gus", score: 300, reachedAt: at(600) });
    await db()
      .insert(crusade)
      .values({ id: "k", projectId: "p", slug: "k", name: "Deep dive", publishedAt: at(-86_400) });
    await db()
      .insert(task)
      .values({
        id: "k1",
        projectId: "p",
        crusadeId: "k",
        crusadePosition: 1,
        title: "k1",
        type: "visit_link",
        xp: 5,
        verification: "none",
        publishedAt: at(-86_400),
      });
    await db().insert(completion).values({ id: "gus-k1", taskId: "k1", userId: "gus", period: "once", status: "approved" });
    await db().insert(rewardPool).values({ id: "pool", campaignId: "c", distribution: "everyone", amount: 100n });
    await db().insert(rewardGrant).values({ poolId: "pool", userId: "gus", position: 1, amount: 100n });
    const rule = (input: Record<string, string>) =>
      addRoleReward({ db: db(), social, projectId: "p", userId: "own", input: { roleId: ROLE.holder, ...input } });
    const level = await rule({ trigger: "level", level: "3" });
    expect(await rule({ trigger: "level", level: "4" })).toMatchObject({ ok: true });
    expect(await rule({ trigger: "pool", poolId: "pool" })).toMatchObject({ ok: true });
    expect(await rule({ trigger: "crusade", crusadeId: "k", roleId: ROLE.mods })).toMatchObject({ ok: true });

    await run(at(600));
    const reasons = await db()
      .select({ reason: discordRoleGrant.reason, state: discordRoleGrant.state })
      .from(discordRoleGrant)
      .where(eq(discordRoleGrant.userId, "gus"));
    expect(reasons.map((r) => `${r.reason}: ${r.state}`).sort()).toEqual([
      "Finished Deep dive: done",
      "Reached level 3: done",
      "Won in the Launch week reward: done",
    ]);
    expect(fakes.discord.memberRoles(GUILD, "600000000000000007")?.sort()).toEqual([ROLE.holder, ROLE.mods].sort());

    // The level rule goes; the reward's rule still grants Holder: no DELETE.
    const before = requests().length;
    if (!level.ok) throw new Error("rule refused");
    await removeRoleReward({ db: db(), projectId: "p", rewardId: level.id, now: at(700) });
    await run(at(700));
    expect(requests().length).toBe(before);
    expect(fakes.discord.memberRoles(GUILD, "600000000000000007")).toContain(ROLE.holder);
  });
});
