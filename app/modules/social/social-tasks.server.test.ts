import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { project } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { socialAccount } from "#db/schema/social";
import type { Database } from "~/lib/db.server";
import { attemptTask, type AttemptInput, type Task } from "~/modules/tasks/completions.server";
import { taskContext } from "~/modules/tasks/task-page.server";
import { howChecked } from "~/modules/tasks/task-checks";
import { createTestDatabase } from "#tests/setup/test-db";
import { startSocialFakes, type FakeAccount, type SocialFakes } from "#tests/fakes/social/social-fakes";
import type { FakeProvider } from "#tests/fakes/social/endpoints";
import { socialConfigFromEnv, type SocialConfig } from "./social-config.server";
import { SOCIAL_CHECKS_PER_5_MINUTES, checkSocialTask, socialTaskAccess } from "./social-tasks.server";
import { connectedMember } from "#tests/setup/social-members";

/** Each social task's check through the fake providers' real HTTP APIs, and what a provider problem leaves behind: nothing. */

const NOW = new Date("2026-03-01T12:00:00Z");
const PUBLISHED = new Date("2026-01-01T00:00:00Z");
const CHANNEL = "UCprojectChannelAAAAAAAA";
const ada: Record<FakeProvider, FakeAccount> = {
  x: { id: "1500", handle: "ada", name: "Ada", avatarUrl: "https://pbs.twimg.com/ada.png" },
  youtube: { id: "UCadaAAAAAAAAAAAAAAAAAAA", handle: "ada", name: "Ada", avatarUrl: "https://yt3.ggpht.com/ada" },
  tiktok: { id: "-000adaOpenId", handle: "ada.tt", name: "Ada", avatarUrl: "https://p16.tiktokcdn.com/ada.jpeg" },
  instagram: { id: "17841400000000042", handle: "ada.ig", name: "Ada", avatarUrl: "https://scontent.cdninstagram.com/ada.jpg", accountType: "BUSINESS" },
  discord: { id: "800000000000004200", handle: "ada", name: "Ada", avatarUrl: "https://cdn.discordapp.com/avatars/800000000000004200/ada1.png" },
};
const lumen = { id: "2000", username: "LumenSwap", name: "Lumen Swap" };
const warn: { detail: unknown }[] = [];
const log = { warn: (fields: object) => void warn.push(fields as { detail: unknown }) };

let database: Database;
let fakes: SocialFakes;
let social: SocialConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  fakes = await startSocialFakes();
  social = socialConfigFromEnv(
    { ...fakes.env, SOCIAL_TOKEN_KEY: "22".repeat(32) },
    { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-social-tasks-")) },
  );
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(async () => {
  await fakes.stop();
  await database.close();
});
beforeEach(() => {
  fakes.reset();
  fakes.x.addUsers(lumen);
  warn.length = 0;
});

/** A member with their account on `provider` connected (tests/setup/social-members.ts), its token good for an hour. */
const member = (
  provider: FakeProvider,
  options: { scope?: string; status?: "active" | "needs_reconnect"; method?: "oauth" | "code"; who?: FakeAccount } = {},
) =>
  connectedMember({
    db: database.db,
    fakes,
    social,
    provider,
    now: NOW,
    tokenExpiresAt: new Date(NOW.getTime() + 3600_000),
    ...options,
    who: options.who ?? ada[provider],
  });

/** Each member holds their own account, so the one-account-one-member rule never trips the next test. */
let next = 0;
const fresh = (provider: FakeProvider): FakeAccount => {
  next += 1;
  const base = ada[provider];
  return { ...base, id: provider === "youtube" ? `UCfresh${String(next).padStart(17, "0")}` : `${base.id}${next}`, handle: `${base.handle}${next}` };
};

async function makeTask(type: Task["type"], config: Record<string, unknown>, fields: Partial<typeof task.$inferInsert> = {}) {
  const [row] = await database.db
    .insert(task)
    .values({ id: randomUUID(), projectId: "p", title: type, xp: 25, type, verification: "auto", config, publishedAt: PUBLISHED, ...fields })
    .returning();
  return row!;
}

const attempt = (t: Task, userId: string, input: AttemptInput = { kind: "check" }) =>
  attemptTask({ db: database.db, taskId: t.id, userId, input, social: { social, log }, now: NOW });

const completionOf = async (t: Task, userId: string) =>
  (
    await database.db
      .select()
      .from(completion)
      .where(and(eq(completion.taskId, t.id), eq(completion.userId, userId)))
  )[0];

/** A refusal left nothing behind: no completion, no place taken. */
async function expectNothingChanged(t: Task, userId: string) {
  expect(await completionOf(t, userId)).toBeUndefined();
  const [row] = await database.db.select({ slotsTaken: task.slotsTaken }).from(task).where(eq(task.id, t.id));
  expect(row?.slotsTaken).toBe(0);
}

describe("checking social tasks through the providers' APIs", () => {
  it("x_follow: found in the first page of the member's follows, approved with what was found; else 'not found yet'", async () => {
    const who = fresh("x");
    const userId = await member("x", { who });
    const t = await makeTask("x_follow", { handle: "lumenswap" }, { cap: 10 });

    fakes.x.setFollowing(who.id, ["7"]);
    expect(await attempt(t, userId)).toEqual({
      ok: false,
      code: "not_met",
      message: "Not found yet — X can take a minute to show a new follow. Try again in a minute.",
    });
    await expectNothingChanged(t, userId);

    fakes.x.setFollowing(who.id, ["7", lumen.id]);
    expect(await attempt(t, userId)).toMatchObject({ ok: true, status: "approved", xpAwarded: 25 });
    expect(await completionOf(t, userId)).toMatchObject({
      status: "approved",
      verifiedBy: "api",
      evidence: { id: lumen.id, url: "https://x.com/LumenSwap" },
      submission: { account: who.handle },
    });
    expect(fakes.apiRequests.x.map((r) => r.path)).toEqual([`/2/users/${who.id}/following`, `/2/users/${who.id}/following`]);
    // The token worked: the connection says when.
    const [profile] = await database.db.select().from(socialAccount).where(eq(socialAccount.accountId, who.id));
    expect(profile?.checkedAt).toEqual(NOW);
  });

  it("x_follow with proof allowed: a follow X does not list goes to the team, never approved by itself", async () => {
    const who = fresh("x");
    const userId = await member("x", { who });
    const t = await makeTask("x_follow", { handle: "lumenswap", allowProof: true });
    fakes.x.setFollowing(who.id, []);
    const refused = await attempt(t, userId);
    expect(!refused.ok && refused.code === "not_met" && refused.message).toMatch(/send proof below/);
    expect(await attempt(t, userId, { kind: "proof", url: "https://x.com/ada/following", imageUrl: null })).toMatchObject({ ok: true, status: "pending" });
    expect(await completionOf(t, userId)).toMatchObject({ status: "pending", verifiedBy: "review", evidence: null });
    // Without the task's permission, proof is refused.
    const strict = await makeTask("x_follow", { handle: "lumenswap" });
    expect(await attempt(strict, userId, { kind: "proof", url: "https://x.com/ada/following", imageUrl: null })).toMatchObject({ ok: false, code: "invalid" });
  });

  it("x_like and x_repost: the member's liked posts and the post's reposters, first page", async () => {
    const who = fresh("x");
    const userId = await member("x", { who });
    const like = await makeTask("x_like", { postUrl: "https://x.com/LumenSwap/status/900" });
    const repost = await makeTask("x_repost", { postUrl: "https://x.com/LumenSwap/status/901" });
    fakes.x.setLikes(who.id, ["1", "2"]);
    fakes.x.setReposts("901", ["3"]);
    expect(await attempt(like, userId)).toMatchObject({ ok: false, code: "not_met", message: expect.stringMatching(/like of this post was not found/) });
    expect(await attempt(repost, userId)).toMatchObject({ ok: false, code: "not_met", message: expect.stringMatching(/repost was not found/) });
    fakes.x.setLikes(who.id, ["900"]);
    fakes.x.setReposts("901", ["3", who.id]);
    expect(await attempt(like, userId)).toMatchObject({ ok: true, status: "approved" });
    expect(await attempt(repost, userId)).toMatchObject({ ok: true, status: "approved" });
    expect((await completionOf(like, userId))?.evidence).toEqual({ id: "900", url: "https://x.com/i/status/900" });
    expect((await completionOf(repost, userId))?.evidence).toEqual({ id: "901", url: "https://x.com/i/status/901" });
  });

  it("x_post: the member's recent posts, replies and reposts left out", async () => {
    const who = fresh("x");
    const userId = await member("x", { who });
    const t = await makeTask("x_post", { phrase: "#LumenLaunch" });
    fakes.x.addPosts(
      { id: "50", authorId: who.id, text: "replying #lumenlaunch", createdAt: "2026-02-28T10:00:00.000Z", reply: true },
      { id: "51", authorId: who.id, text: "RT #LumenLaunch", createdAt: "2026-02-28T11:00:00.000Z", repost: true },
    );
    expect(await attempt(t, userId)).toMatchObject({
      ok: false,
      message: "None of your recent posts on X contains “#LumenLaunch”. Replies and reposts do not count.",
    });
    fakes.x.addPosts({ id: "52", authorId: who.id, text: "Joining the #lumenlaunch today", createdAt: "2026-02-28T12:00:00.000Z" });
    expect(await attempt(t, userId)).toMatchObject({ ok: true, status: "approved" });
    expect((await completionOf(t, userId))?.evidence).toEqual({ id: "52", at: "2026-02-28T12:00:00.000Z", url: "https://x.com/i/status/52" });
  });

  it("youtube_subscribe: the member's subscriptions filtered by the channel", async () => {
    const who = fresh("youtube");
    const userId = await member("youtube", { who });
    const t = await makeTask("youtube_subscribe", { channelId: CHANNEL });
    expect(await attempt(t, userId)).toMatchObject({ ok: false, code: "not_met", message: expect.stringMatching(/not subscribed/) });
    fakes.youtube.setSubscriptions(who.id, [{ channelId: CHANNEL, id: "sub-1", publishedAt: "2026-02-20T09:00:00Z" }]);
    expect(await attempt(t, userId)).toMatchObject({ ok: true, status: "approved" });
    expect((await completionOf(t, userId))?.evidence).toMatchObject({ id: "sub-1", url: `https://www.youtube.com/channel/${CHANNEL}` });
    expect(fakes.apiRequests.youtube.at(-1)).toMatchObject({ path: "/youtube/v3/subscriptions", query: { mine: "true", forChannelId: CHANNEL } });
  });

  it("tiktok_post and instagram_post: recent videos' descriptions and recent media captions", async () => {
    const tt = fresh("tiktok");
    const ig = fresh("instagram");
    const tiktokUser = await member("tiktok", { who: tt });
    const instagramUser = await member("instagram", { who: ig });
    const tiktokTask = await makeTask("tiktok_post", { phrase: "#questline" });
    const instagramTask = await makeTask("instagram_post", { phrase: "lumen.example/join" });
    expect(await attempt(tiktokTask, tiktokUser)).toMatchObject({ ok: false, code: "not_met", message: expect.stringMatching(/recent TikTok videos/) });
    expect(await attempt(instagramTask, instagramUser)).toMatchObject({ ok: false, code: "not_met", message: expect.stringMatching(/professional/) });
    fakes.tiktok.setVideos(tt.id, [
      { id: "v1", video_description: "dance #Questline", create_time: 1_772_000_000, share_url: "https://www.tiktok.com/@ada.tt/video/v1" },
    ]);
    fakes.instagram.setMedia(ig.id, [
      { id: "m1", caption: "Join at https://lumen.example/join", timestamp: "2026-02-27T08:00:00+0000", permalink: "https://www.instagram.com/p/m1/" },
    ]);
    expect(await attempt(tiktokTask, tiktokUser)).toMatchObject({ ok: true, status: "approved" });
    expect(await attempt(instagramTask, instagramUser)).toMatchObject({ ok: true, status: "approved" });
    expect((await completionOf(tiktokTask, tiktokUser))?.evidence).toMatchObject({ id: "v1", url: "https://www.tiktok.com/@ada.tt/video/v1" });
    expect((await completionOf(instagramTask, instagramUser))?.evidence).toEqual({
      id: "m1",
      at: "2026-02-27T08:00:00.000Z",
      url: "https://www.instagram.com/p/m1/",
    });
  });
});

describe("Discord's server and role tasks, checked with the member's own token", () => {
  const GUILD = "900000000000000001";
  const HOLDER = "900000000000000011";
  const server = { guildId: GUILD, guildName: "Lumen", inviteUrl: "https://discord.gg/lumen" };

  it("finds the member in the server and with the role, says in words what is missing, and never counts Discord's problems against them", async () => {
    fakes.discord.addGuild({ id: GUILD, name: "Lumen", roles: [{ id: HOLDER, name: "Holder", position: 1, permissions: "0" }] });
    const who = fresh("discord");
    const userId = await member("discord", { who });
    const join = await makeTask("discord_join", server, { cap: 10 });
    const role = await makeTask("discord_role", { ...server, roleId: HOLDER, roleName: "Holder" });
    expect(howChecked(join)).toBe("Checked with Discord");

    expect(await attempt(join, userId)).toEqual({
      ok: false,
      code: "not_met",
      message: "You are not in Lumen on Discord yet. Join with the invite, then check again.",
    });
    await expectNothingChanged(join, userId);
    fakes.discord.setMember(GUILD, who.id, { roles: [], joinedAt: "2026-02-28T09:00:00.000Z" });
    expect(await attempt(role, userId)).toEqual({ ok: false, code: "not_met", message: "You do not have the Holder role in Lumen yet." });

    // Discord is busy: the member waits out its retry_after, nothing changes.
    fakes.discord.rateLimitNext(1, 2.5);
    expect(await attempt(join, userId)).toEqual({ ok: false, code: "limited", message: "Discord is busy: try again in 3 seconds.", retryAfterSeconds: 3 });
    await expectNothingChanged(join, userId);

    expect(await attempt(join, userId)).toMatchObject({ ok: true, status: "approved", xpAwarded: 25 });
    expect(await completionOf(join, userId)).toMatchObject({
      verifiedBy: "api",
      evidence: { id: GUILD, at: "2026-02-28T09:00:00.000Z" },
      submission: { account: who.handle },
    });
    fakes.discord.setMember(GUILD, who.id, { roles: [HOLDER] });
    expect(await attempt(role, userId)).toMatchObject({ ok: true, status: "approved" });
    expect((await completionOf(role, userId))?.evidence).toEqual({ id: HOLDER, at: "2026-02-28T09:00:00.000Z", label: "the Holder role in Lumen" });
    const page = await taskContext({ db: database.db, task: role, userId, social, now: NOW });
    expect(page).toMatchObject({ block: null, state: { status: "approved" }, found: { id: HOLDER } });

    // A token Discord refuses: reconnect, the connection marked.
    const other = fresh("discord");
    const otherUser = await member("discord", { who: other });
    fakes.revoke("discord", other.id);
    expect(await attempt(join, otherUser)).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringMatching(/Reconnect it in Settings › Connections › Discord/),
    });
    expect(await completionOf(join, otherUser)).toBeUndefined();

    // A connection without guilds.members.read is asked to reconnect before Discord is called.
    const calls = fakes.apiRequests.discord.length;
    const narrow = await member("discord", { who: fresh("discord"), scope: "identify guilds" });
    expect(await attempt(join, narrow)).toMatchObject({ ok: false, code: "conflict", message: expect.stringMatching(/guilds\.members\.read/) });
    expect(fakes.apiRequests.discord).toHaveLength(calls);
  });
});

describe("a provider's problem is never the member's: it says what to do next and changes nothing", () => {
  it("asks a member without the connection to connect first, without calling the provider", async () => {
    const userId = await member("tiktok", { who: fresh("tiktok") });
    const t = await makeTask("x_follow", { handle: "lumenswap" });
    expect(await attempt(t, userId)).toEqual({ ok: false, code: "conflict", message: "Connect your X account first (Settings › Connections › X)." });
    expect(fakes.apiRequests.x).toEqual([]);
    await expectNothingChanged(t, userId);
  });

  it("marks a refused token as needing a reconnect, and says so", async () => {
    const who = fresh("x");
    const userId = await member("x", { who });
    const t = await makeTask("x_follow", { handle: "lumenswap" });
    fakes.revoke("x", who.id);
    expect(await attempt(t, userId)).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringMatching(/Reconnect it in Settings › Connections › X/),
    });
    const [profile] = await database.db.select().from(socialAccount).where(eq(socialAccount.accountId, who.id));
    expect(profile?.status).toBe("needs_reconnect");
    await expectNothingChanged(t, userId);
    // The next try does not call X at all, and the page shows the reconnect card.
    const calls = fakes.apiRequests.x.length;
    expect(await attempt(t, userId)).toMatchObject({ ok: false, code: "conflict", message: expect.stringMatching(/Reconnect/) });
    expect(fakes.apiRequests.x).toHaveLength(calls);
    expect(await socialTaskAccess({ db: database.db, social, task: t, userId })).toMatchObject({ state: "needs_reconnect", provider: "x", handle: who.handle });
  });

  it("asks to reconnect when a scope is missing, whether the connection lacks it or the provider says so", async () => {
    const t = await makeTask("x_like", { postUrl: "https://x.com/LumenSwap/status/900" });
    const narrow = await member("x", { who: fresh("x"), scope: "users.read tweet.read follows.read offline.access" });
    expect(await attempt(t, narrow)).toMatchObject({ ok: false, code: "conflict", message: expect.stringMatching(/does not allow this check \(like\.read\)/) });
    expect(await socialTaskAccess({ db: database.db, social, task: t, userId: narrow })).toMatchObject({ state: "needs_reconnect" });
    await expectNothingChanged(t, narrow);

    const who = fresh("x");
    const userId = await member("x", { who });
    fakes.failNext("x", { kind: "missing_scope" });
    expect(await attempt(t, userId)).toMatchObject({ ok: false, code: "conflict", message: expect.stringMatching(/Reconnect it/) });
    await expectNothingChanged(t, userId);
  });

  it("waits out a rate limit by the provider's reset", async () => {
    const who = fresh("x");
    const userId = await member("x", { who });
    const t = await makeTask("x_follow", { handle: "lumenswap" });
    fakes.failNext("x", { kind: "rate_limited", resetAt: new Date(NOW.getTime() + 90_000) });
    expect(await attempt(t, userId)).toEqual({ ok: false, code: "limited", message: "X is busy: try again in 90 seconds.", retryAfterSeconds: 90 });
    await expectNothingChanged(t, userId);

    const tt = fresh("tiktok");
    const tiktokUser = await member("tiktok", { who: tt });
    const video = await makeTask("tiktok_post", { phrase: "#questline" });
    fakes.failNext("tiktok", { kind: "rate_limited", retryAfterSeconds: 600 });
    expect(await attempt(video, tiktokUser)).toEqual({
      ok: false,
      code: "limited",
      message: "TikTok is busy: try again in 10 minutes.",
      retryAfterSeconds: 600,
    });
  });

  it("answers 'could not check' when the provider is down or answers nonsense, logging the nonsense", async () => {
    const who = fresh("youtube");
    const userId = await member("youtube", { who });
    const t = await makeTask("youtube_subscribe", { channelId: CHANNEL });
    const couldNot = { ok: false, code: "unavailable", message: "Could not check with YouTube right now. Nothing changed: try again in a minute." };
    fakes.failNext("youtube", { kind: "server_error", status: 503 });
    expect(await attempt(t, userId)).toEqual(couldNot);
    expect(warn).toEqual([]);
    fakes.failNext("youtube", { kind: "malformed" });
    expect(await attempt(t, userId)).toEqual(couldNot);
    expect(warn).toHaveLength(1);
    expect(warn[0]).toMatchObject({ provider: "youtube", taskId: t.id, detail: expect.any(String) });
    await expectNothingChanged(t, userId);
  });

  it("checks an X account proven by a posted code with the app's token, except likes (only the member's own token reads them)", async () => {
    const who = fresh("x");
    const userId = await member("x", { who, method: "code" });
    const follow = await makeTask("x_follow", { handle: "lumenswap" });
    const like = await makeTask("x_like", { postUrl: "https://x.com/LumenSwap/status/900" });
    fakes.x.setFollowing(who.id, [lumen.id]);
    expect(await attempt(follow, userId)).toMatchObject({ ok: true, status: "approved" });
    expect(fakes.apiRequests.x.at(-1)).toMatchObject({ path: `/2/users/${who.id}/following`, authorization: "bearer" });
    expect(await attempt(like, userId)).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringMatching(/liked posts only to their own connection/),
    });
    await expectNothingChanged(like, userId);
    expect(await socialTaskAccess({ db: database.db, social, task: like, userId })).toEqual({ state: "not_connected", provider: "x" });
    expect(await socialTaskAccess({ db: database.db, social, task: follow, userId })).toMatchObject({ state: "connected" });
  });
});

describe("the task page of a social task", () => {
  it("says a provider that is not set up, asks to connect, and shows what was found once done", async () => {
    const who = fresh("x");
    const userId = await member("x", { who });
    const t = await makeTask("x_post", { phrase: "gm lumen" });
    const nothingSetUp = socialConfigFromEnv({ SOCIAL_TOKEN_KEY: "22".repeat(32) }, { isPublic: false, dataDir: "/nonexistent" });
    const bare = await taskContext({ db: database.db, task: t, userId, social: nothingSetUp, now: NOW });
    expect(bare.block).toEqual({ kind: "not_set_up", provider: "x" });
    expect(bare.social).toEqual({ state: "not_set_up", provider: "x" });

    const stranger = await member("youtube", { who: fresh("youtube") });
    expect((await taskContext({ db: database.db, task: t, userId: stranger, social, now: NOW })).social).toEqual({ state: "not_connected", provider: "x" });

    fakes.x.addPosts({ id: "77", authorId: who.id, text: "GM Lumen!", createdAt: "2026-03-01T11:00:00.000Z" });
    expect(await attempt(t, userId)).toMatchObject({ ok: true });
    const done = await taskContext({ db: database.db, task: t, userId, social, now: NOW });
    expect(done).toMatchObject({ block: null, state: { status: "approved" }, social: { state: "connected", handle: who.handle } });
    expect(done.found).toEqual({ id: "77", at: "2026-03-01T11:00:00.000Z", url: "https://x.com/i/status/77" });
  });

  it("needs no connection for reviewed proof", async () => {
    const t = await makeTask("instagram_follow", { handle: "lumen" }, { verification: "review" });
    expect(await socialTaskAccess({ db: database.db, social, task: t, userId: null })).toEqual({ state: "no_connection_needed", provider: "instagram" });
  });

  it("holds back a flood of checks by one member before it reaches the provider", async () => {
    const who = fresh("tiktok");
    const userId = await member("tiktok", { who });
    const t = await makeTask("tiktok_post", { phrase: "#never" });
    const before = fakes.apiRequests.tiktok.length;
    for (let i = 0; i < SOCIAL_CHECKS_PER_5_MINUTES; i++) expect(await attempt(t, userId)).toMatchObject({ ok: false, code: "not_met" });
    expect(await attempt(t, userId)).toMatchObject({ ok: false, code: "limited", message: expect.stringContaining("Too many checks in a row") });
    expect(fakes.apiRequests.tiktok.length - before).toBe(SOCIAL_CHECKS_PER_5_MINUTES);
    await expectNothingChanged(t, userId);
  });

  it("refuses to check a type no API checks", async () => {
    const t = await makeTask("tiktok_follow", { handle: "lumen" }, { verification: "review" });
    await expect(checkSocialTask({ db: database.db, social, task: t, userId: "nobody", now: NOW })).rejects.toThrow(/not checked through an API/);
  });
});
