import { randomUUID } from "node:crypto";
import type { FakeProvider } from "#tests/fakes/social/endpoints";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { createPublicClient, http, type PublicClient } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, reviewDecision, task } from "#db/schema/quests";
import { raffleEntrant, rewardGrant } from "#db/schema/rewards";
import { user } from "#db/schema/auth";
import { xpEvent } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { failureMessage } from "~/lib/result";
import { boardKey, naiveRankOf, rankOf, WINDOWS } from "~/modules/leaderboards/leaderboards.server";
import { distributeEndedCampaigns } from "~/modules/rewards/distribute.server";
import { drawChainOf, type DrawChains } from "~/modules/rewards/draw-chains.server";
import { createRewardPool } from "~/modules/rewards/reward-pools.server";
import type { RewardPoolInput } from "~/modules/rewards/reward.schema";
import { attemptTask, type Task } from "~/modules/tasks/completions.server";
import { taskContext } from "~/modules/tasks/task-page.server";
import { histogramDrift } from "#tests/setup/board-checks";
import { connectedMember } from "#tests/setup/social-members";
import { createTestDatabase } from "#tests/setup/test-db";
import { startSocialFakes, type FakeAccount, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { recheckFollowsBeforeRewards } from "./recheck.server";
import { socialConfigFromEnv, type SocialConfig } from "./social-config.server";

/**
 * Follows re-checked once before a campaign's rewards are paid, through the fake providers' real
 * HTTP APIs: an un-follow voids the approval and takes its XP back exactly; a kept follow stays; a
 * provider's problem leaves the approval standing; nothing is checked twice; the pools then pay by
 * what is left.
 */

const HOUR = 3_600_000;
// The boards' windows read the database's clock, so the campaign ran in the last few days.
const NOW = new Date();
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);
const START = at(-72);
const END = at(-1);
const CHANNEL = "UCprojectChannelAAAAAAAA";
const lumen = { id: "2000", username: "LumenSwap", name: "Lumen Swap" };
const warned: { fields: object; message?: string }[] = [];
const log = { warn: (fields: object, message?: string) => void warned.push({ fields, message }), info: () => undefined };

let database: Database;
let fakes: SocialFakes;
let social: SocialConfig;
let localChain: LocalChain;
let chains: DrawChains;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  fakes = await startSocialFakes();
  social = socialConfigFromEnv(
    { ...fakes.env, SOCIAL_TOKEN_KEY: "33".repeat(32) },
    { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-recheck-")) },
  );
  localChain = await startLocalChain();
  const client = createPublicClient({ transport: http(localChain.url) }) as PublicClient;
  chains = new Map([[LOCAL_CHAIN_ID, drawChainOf(client, { chainId: LOCAL_CHAIN_ID, confirmations: 1 })]]);
  await db().insert(user).values({ id: "own", email: "own@example.com", name: "Owner" });
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
});
afterAll(async () => {
  await fakes?.stop();
  await database?.close();
  await localChain?.stop();
});
beforeEach(() => {
  fakes.reset();
  fakes.x.addUsers(lumen);
  warned.length = 0;
});

let next = 0;
/** A member connected to `provider` with an account of their own. */
async function member(provider: FakeProvider) {
  next += 1;
  const who: FakeAccount =
    provider === "youtube"
      ? { id: `UCmember${String(next).padStart(16, "0")}`, handle: `yt${next}`, name: `Member ${next}`, avatarUrl: "https://yt3.ggpht.com/m" }
      : provider === "discord"
        ? {
            id: `81${String(next).padStart(16, "0")}`,
            handle: `member${next}`,
            name: `Member ${next}`,
            avatarUrl: "https://cdn.discordapp.com/avatars/1/m.png",
          }
        : { id: `15${next}`, handle: `member${next}`, name: `Member ${next}`, avatarUrl: "https://pbs.twimg.com/m.png" };
  return { who, userId: await connectedMember({ db: db(), fakes, social, provider, who, now: START }) };
}

/** A published campaign from START to END and its tasks. */
async function makeCampaign(tasks: { key: string; type: Task["type"]; config: Record<string, unknown>; xp: number; cap?: number }[]) {
  const id = randomUUID();
  await db()
    .insert(campaign)
    .values({ id, projectId: "p", slug: id.slice(0, 8), name: "Season", startsAt: START, endsAt: END, publishedAt: at(-80) });
  const rows = await db()
    .insert(task)
    .values(
      tasks.map((t) => ({
        id: randomUUID(),
        projectId: "p",
        campaignId: id,
        title: t.key,
        type: t.type,
        config: t.config,
        xp: t.xp,
        cap: t.cap ?? null,
        verification: t.type === "visit_link" ? ("none" as const) : ("auto" as const),
        publishedAt: at(-80),
      })),
    )
    .returning();
  return { id, tasks: Object.fromEntries(tasks.map((t, i) => [t.key, rows[i]!])) as Record<string, Task> };
}

/** The member does the task during the campaign (`hours` from now), and it is approved. */
async function complete(t: Task, userId: string, hours: number) {
  const input = t.type === "visit_link" ? ({ kind: "visit" } as const) : ({ kind: "check" } as const);
  const done = await attemptTask({ db: db(), taskId: t.id, userId, input, social: { social, log }, now: at(hours) });
  if (!done.ok) throw new Error(failureMessage(done));
  expect(done.status).toBe("approved");
  return done.completionId;
}

const completionRow = async (id: string) => (await db().select().from(completion).where(eq(completion.id, id)))[0]!;
const taskRow = async (id: string) => (await db().select().from(task).where(eq(task.id, id)))[0]!;
const recheck = (campaignId: string, now = NOW) => recheckFollowsBeforeRewards({ db: db(), social, campaignId, now, log });
const followingCalls = () => fakes.apiRequests.x.filter((r) => r.path.endsWith("/following")).length;

/** The member's score on each of the campaign's, project's and global boards, all windows. */
async function scores(userId: string, campaignId: string) {
  const out: Record<string, number | null> = {};
  for (const scope of [{ kind: "global" } as const, { kind: "project", projectId: "p" } as const, { kind: "campaign", campaignId } as const]) {
    for (const w of WINDOWS) out[boardKey(scope, w)] = (await rankOf({ db: db(), board: boardKey(scope, w), userId }))?.score ?? null;
  }
  return out;
}
const plus = (before: Record<string, number | null>, delta: number) =>
  Object.fromEntries(Object.entries(before).map(([board, score]) => [board, (score ?? 0) + delta || null]));

describe("re-checking follows before a campaign's rewards", () => {
  it("voids an un-follow's approval (reason, place, XP on every board), keeps a kept follow, and leaves tasks that opted out alone", async () => {
    const c = await makeCampaign([
      { key: "follow", type: "x_follow", config: { handle: "lumenswap" }, xp: 25, cap: 3 },
      { key: "optOut", type: "x_follow", config: { handle: "lumenswap", recheckBeforeRewards: false }, xp: 5 },
    ]);
    const { follow, optOut } = c.tasks as Record<string, Task>;
    const kept = await member("x");
    const gone = await member("x");
    for (const m of [kept, gone]) fakes.x.setFollowing(m.who.id, [lumen.id]);
    const keptId = await complete(follow!, kept.userId, -50);
    const goneId = await complete(follow!, gone.userId, -49);
    const goneOptOut = await complete(optOut!, gone.userId, -48);
    expect((await taskRow(follow!.id)).slotsTaken).toBe(2);
    const before = await scores(gone.userId, c.id);
    expect(before[boardKey({ kind: "campaign", campaignId: c.id }, "7d")]).toBe(30);
    expect(await rankOf({ db: db(), board: boardKey({ kind: "campaign", campaignId: c.id }, "all"), userId: gone.userId })).toEqual({ rank: 1, score: 30 });

    fakes.x.setFollowing(gone.who.id, ["7"]);
    expect(await recheck(c.id)).toEqual({ checked: 2, kept: 1, voided: 1, skipped: 0 });

    const voided = await completionRow(goneId);
    expect(voided).toMatchObject({
      status: "rejected",
      reason: "You unfollowed @lumenswap before the rewards were paid, so this task no longer counts.",
      verifiedBy: "api",
      evidence: { id: lumen.id, url: "https://x.com/LumenSwap", recheckedAt: NOW.toISOString(), recheck: "not_found", voidedAt: NOW.toISOString() },
    });
    expect(
      await db()
        .select({ reviewerId: reviewDecision.reviewerId, decision: reviewDecision.decision })
        .from(reviewDecision)
        .where(eq(reviewDecision.completionId, goneId)),
    ).toEqual([{ reviewerId: null, decision: "rejected" }]);
    expect(await completionRow(keptId)).toMatchObject({
      status: "approved",
      evidence: { id: lumen.id, url: "https://x.com/LumenSwap", recheckedAt: NOW.toISOString(), recheck: "found" },
    });
    expect(await completionRow(goneOptOut)).toMatchObject({ status: "approved", evidence: { id: lumen.id, url: "https://x.com/LumenSwap" } });
    expect((await completionRow(goneOptOut)).evidence).not.toHaveProperty("recheckedAt");
    // The place under the cap is free again.
    expect((await taskRow(follow!.id)).slotsTaken).toBe(1);

    // The follow's 25 XP is off every board it counted on, exactly: the opted-out task's 5 remain.
    expect(await scores(gone.userId, c.id)).toEqual(plus(before, -25));
    const campaignBoard = boardKey({ kind: "campaign", campaignId: c.id }, "all");
    expect(await rankOf({ db: db(), board: campaignBoard, userId: kept.userId })).toEqual({ rank: 1, score: 25 });
    expect(await rankOf({ db: db(), board: campaignBoard, userId: gone.userId })).toEqual({ rank: 2, score: 5 });
    for (const userId of [kept.userId, gone.userId]) {
      for (const w of WINDOWS) {
        const board = boardKey({ kind: "global" }, w);
        expect((await rankOf({ db: db(), board, userId }))?.rank).toBe(await naiveRankOf({ db: db(), board, userId }));
      }
    }
    expect(await histogramDrift(db())).toEqual([]);
    const events = await db()
      .select({ type: xpEvent.sourceType, amount: xpEvent.amount })
      .from(xpEvent)
      .where(and(eq(xpEvent.sourceId, goneId), eq(xpEvent.userId, gone.userId)))
      .orderBy(asc(xpEvent.sourceType));
    expect(events).toEqual([
      { type: "completion", amount: 25 },
      { type: "completion_void", amount: -25 },
    ]);

    // The member sees why on the task page.
    const context = await taskContext({ db: db(), task: await taskRow(follow!.id), userId: gone.userId, social, now: NOW });
    expect(context.state).toEqual({ status: "rejected", reason: "You unfollowed @lumenswap before the rewards were paid, so this task no longer counts." });
    expect(context.block).toEqual({ kind: "campaign", status: "ended" });

    // Once only: a second run calls nobody and changes nothing, whatever the follows now are.
    const calls = followingCalls();
    fakes.x.setFollowing(kept.who.id, []);
    fakes.x.setFollowing(gone.who.id, [lumen.id]);
    expect(await recheck(c.id, at(1))).toEqual({ checked: 0, kept: 0, voided: 0, skipped: 0 });
    expect(followingCalls()).toBe(calls);
    expect(await completionRow(keptId)).toMatchObject({ status: "approved" });
    expect(await scores(gone.userId, c.id)).toEqual(plus(before, -25));
  });

  it("voids a YouTube unsubscription with its own words, and keeps a subscription", async () => {
    const c = await makeCampaign([{ key: "subscribe", type: "youtube_subscribe", config: { channelId: CHANNEL }, xp: 30 }]);
    const { subscribe } = c.tasks as Record<string, Task>;
    const stays = await member("youtube");
    const leaves = await member("youtube");
    for (const m of [stays, leaves]) fakes.youtube.setSubscriptions(m.who.id, [{ channelId: CHANNEL, id: `sub-${m.who.id}` }]);
    const staysId = await complete(subscribe!, stays.userId, -30);
    const leavesId = await complete(subscribe!, leaves.userId, -29);
    fakes.youtube.setSubscriptions(leaves.who.id, []);

    expect(await recheck(c.id)).toEqual({ checked: 2, kept: 1, voided: 1, skipped: 0 });
    expect(await completionRow(leavesId)).toMatchObject({
      status: "rejected",
      reason: "You unsubscribed from the YouTube channel before the rewards were paid, so this task no longer counts.",
    });
    expect(await completionRow(staysId)).toMatchObject({ status: "approved", evidence: { id: `sub-${stays.who.id}`, recheck: "found" } });
    expect(await scores(leaves.userId, c.id)).toEqual(Object.fromEntries(Object.keys(await scores(leaves.userId, c.id)).map((b) => [b, null])));
    expect(await histogramDrift(db())).toEqual([]);
  });

  it("voids a Discord approval of a member who left the server or lost the role, with its own words; keeps the rest; a rate limit skips", async () => {
    const GUILD = "900000000000000001";
    const HOLDER = "900000000000000011";
    fakes.discord.addGuild({ id: GUILD, name: "Lumen", roles: [{ id: HOLDER, name: "Holder", position: 1, permissions: "0" }] });
    const server = { guildId: GUILD, guildName: "Lumen", inviteUrl: "https://discord.gg/lumen" };
    const c = await makeCampaign([
      { key: "join", type: "discord_join", config: server, xp: 10 },
      { key: "role", type: "discord_role", config: { ...server, roleId: HOLDER, roleName: "Holder" }, xp: 20 },
    ]);
    const { join, role } = c.tasks as Record<string, Task>;
    const stays = await member("discord");
    const leaves = await member("discord");
    const demoted = await member("discord");
    /** Each completion's id, and its status once re-checked. */
    const expected = new Map<string, "approved" | "rejected">();
    for (const [i, m] of [stays, leaves, demoted].entries()) {
      fakes.discord.setMember(GUILD, m.who.id, { roles: [HOLDER] });
      expected.set(await complete(join!, m.userId, -40 + i), m === leaves ? "rejected" : "approved");
      expected.set(await complete(role!, m.userId, -30 + i), m === stays ? "approved" : "rejected");
    }
    fakes.discord.removeMember(GUILD, leaves.who.id);
    fakes.discord.setMember(GUILD, demoted.who.id, { roles: [] });

    // Discord limits the first re-check: the first task's (by id) first completion (by id) stands, skipped.
    const first = [join!, role!].sort((a, b) => a.id.localeCompare(b.id))[0]!;
    const firstChecked = (await db().select({ id: completion.id }).from(completion).where(eq(completion.taskId, first.id)).orderBy(asc(completion.id)))[0]!.id;
    const firstVoided = expected.get(firstChecked) === "rejected";
    expected.set(firstChecked, "approved");
    fakes.discord.rateLimitNext(1, 5);
    expect(await recheck(c.id)).toEqual({ checked: 6, kept: firstVoided ? 3 : 2, voided: firstVoided ? 2 : 3, skipped: 1 });

    for (const [id, status] of expected) expect((await completionRow(id)).status, id).toBe(status);
    expect(await completionRow(firstChecked)).toMatchObject({ evidence: { recheck: "skipped", recheckReason: "Discord is busy: try again in 5 seconds." } });
    const reasons = await db().select({ taskId: completion.taskId, reason: completion.reason }).from(completion).where(eq(completion.status, "rejected"));
    for (const r of reasons.filter((r) => r.taskId === join!.id)) {
      expect(r.reason).toBe("You left Lumen on Discord before the rewards were paid, so this task no longer counts.");
    }
    for (const r of reasons.filter((r) => r.taskId === role!.id)) {
      expect(r.reason).toBe("You no longer had the Holder role in Lumen on Discord when the rewards were paid, so this task no longer counts.");
    }
    expect(reasons.filter((r) => r.taskId === join!.id || r.taskId === role!.id)).toHaveLength(firstVoided ? 2 : 3);
    expect(await histogramDrift(db())).toEqual([]);
  });

  it("leaves an approval standing when the provider or the connection fails, says why in its evidence, logs once and does not ask again", async () => {
    const c = await makeCampaign([{ key: "follow", type: "x_follow", config: { handle: "lumenswap" }, xp: 25 }]);
    const { follow } = c.tasks as Record<string, Task>;
    const down = await member("x");
    const refused = await member("x");
    for (const m of [down, refused]) fakes.x.setFollowing(m.who.id, [lumen.id]);
    const downId = await complete(follow!, down.userId, -20);
    const refusedId = await complete(follow!, refused.userId, -19);
    const before = await scores(down.userId, c.id);
    // Both un-follow, but X is down for one and the other's token has been revoked.
    for (const m of [down, refused]) fakes.x.setFollowing(m.who.id, []);
    fakes.failNext("x", { kind: "server_error", status: 503 }, { path: `/2/users/${down.who.id}/following` });
    fakes.revoke("x", refused.who.id);

    expect(await recheck(c.id)).toEqual({ checked: 2, kept: 0, voided: 0, skipped: 2 });
    expect(await completionRow(downId)).toMatchObject({
      status: "approved",
      evidence: {
        recheck: "skipped",
        recheckedAt: NOW.toISOString(),
        recheckReason: "Could not check with X right now. Nothing changed: try again in a minute.",
      },
    });
    expect(await completionRow(refusedId)).toMatchObject({
      status: "approved",
      evidence: { recheck: "skipped", recheckReason: expect.stringMatching(/reconnect/i) },
    });
    expect(await scores(down.userId, c.id)).toEqual(before);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ fields: { campaignId: c.id, skipped: 2 } });

    const calls = followingCalls();
    expect(await recheck(c.id, at(1))).toEqual({ checked: 0, kept: 0, voided: 0, skipped: 0 });
    expect(followingCalls()).toBe(calls);
    expect(warned).toHaveLength(1);
  });

  it("checks nothing when the provider is not configured, and nothing of an approval the API never found (reviewed proof)", async () => {
    const c = await makeCampaign([{ key: "follow", type: "x_follow", config: { handle: "lumenswap", allowProof: true }, xp: 25 }]);
    const { follow } = c.tasks as Record<string, Task>;
    const m = await member("x");
    fakes.x.setFollowing(m.who.id, [lumen.id]);
    const id = await complete(follow!, m.userId, -10);
    fakes.x.setFollowing(m.who.id, []);
    const none = socialConfigFromEnv(
      { SOCIAL_TOKEN_KEY: "33".repeat(32) },
      { isPublic: false, dataDir: mkdtempSync(path.join(tmpdir(), "questline-recheck-")) },
    );
    expect(await recheckFollowsBeforeRewards({ db: db(), social: none, campaignId: c.id, now: NOW, log })).toEqual({
      checked: 0,
      kept: 0,
      voided: 0,
      skipped: 0,
    });
    expect(await completionRow(id)).toMatchObject({ status: "approved" });
    expect(followingCalls()).toBe(1);

    // Approved from proof by the team: X never listed the follow, so asking X again proves nothing.
    await db().update(completion).set({ verifiedBy: "review", evidence: null }).where(eq(completion.id, id));
    expect(await recheck(c.id)).toEqual({ checked: 0, kept: 0, voided: 0, skipped: 0 });
    expect(await completionRow(id)).toMatchObject({ status: "approved", evidence: null });
  });
});

describe("the campaign's pools, paid after the re-check", () => {
  const xpPool = (input: Partial<RewardPoolInput> & Pick<RewardPoolInput, "distribution">): RewardPoolInput => ({
    kind: "xp",
    asset: null,
    winners: null,
    amount: null,
    rankAmounts: null,
    ...input,
  });
  const create = async (campaignId: string, input: RewardPoolInput) => {
    const created = await createRewardPool({ db: db(), campaignId, actorId: "own", input, raffleChainId: LOCAL_CHAIN_ID, now: at(-70) });
    if (!created.ok) throw new Error(failureMessage(created));
    return created.value.id;
  };
  const grants = async (poolId: string) =>
    (await db().select().from(rewardGrant).where(eq(rewardGrant.poolId, poolId)).orderBy(asc(rewardGrant.position))).map((g) => [g.userId, g.amount]);

  it("see the voided approvals: the un-follower is no completer, no raffle entrant, and ranks by the XP left; a second run pays nothing", async () => {
    const c = await makeCampaign([
      { key: "follow", type: "x_follow", config: { handle: "lumenswap" }, xp: 20 },
      { key: "visit", type: "visit_link", config: { url: "https://example.com" }, xp: 10 },
    ]);
    const { follow, visit } = c.tasks as Record<string, Task>;
    const fcfs = await create(c.id, xpPool({ distribution: "fcfs", winners: 3, amount: 100n }));
    const ranking = await create(c.id, xpPool({ distribution: "ranking", winners: 3, rankAmounts: [300n, 200n, 100n] }));
    const raffle = await create(c.id, xpPool({ distribution: "raffle", winners: 3, amount: 50n }));
    // The un-follower finishes first and would win every pool's first place.
    const [gone, first, second] = [await member("x"), await member("x"), await member("x")];
    for (const [i, m] of [gone, first, second].entries()) {
      fakes.x.setFollowing(m.who.id, [lumen.id]);
      await complete(follow!, m.userId, -60 + i);
      await complete(visit!, m.userId, -50 + i);
    }
    fakes.x.setFollowing(gone.who.id, []);

    const run = await distributeEndedCampaigns({ db: db(), chains, social, log, now: NOW });
    expect(run).toEqual({ pools: 2, grants: 5, frozen: 1, failed: 0 });
    expect(
      await completionRow(
        (
          await db()
            .select()
            .from(completion)
            .where(and(eq(completion.taskId, follow!.id), eq(completion.userId, gone.userId)))
        )[0]!.id,
      ),
    ).toMatchObject({
      status: "rejected",
    });
    expect(await grants(fcfs)).toEqual([
      [first.userId, 100n],
      [second.userId, 100n],
    ]);
    expect(await grants(ranking)).toEqual([
      [first.userId, 300n],
      [second.userId, 200n],
      [gone.userId, 100n],
    ]);
    const entrants = await db()
      .select({ userId: raffleEntrant.userId })
      .from(raffleEntrant)
      .where(eq(raffleEntrant.poolId, raffle))
      .orderBy(asc(raffleEntrant.position));
    expect(entrants.map((e) => e.userId)).toEqual([first.userId, second.userId]);
    // The un-follower keeps the visit's 10 XP and the ranking's 100 (reward XP counts on the global board, not the campaign's).
    expect(await rankOf({ db: db(), board: boardKey({ kind: "campaign", campaignId: c.id }, "all"), userId: gone.userId })).toEqual({ rank: 3, score: 10 });
    expect((await rankOf({ db: db(), board: boardKey({ kind: "global" }, "all"), userId: gone.userId }))?.score).toBe(110);
    expect(await histogramDrift(db())).toEqual([]);

    // The raffle is drawn on a later run from the frozen entrants; nothing is re-checked again.
    const calls = followingCalls();
    const drawn = await distributeEndedCampaigns({ db: db(), chains, social, log, now: at(1) });
    expect(drawn).toMatchObject({ pools: 1, frozen: 0, failed: 0 });
    expect(followingCalls()).toBe(calls);
    expect((await grants(raffle)).map(([userId]) => userId).sort()).toEqual([first.userId, second.userId].sort());
    expect(await distributeEndedCampaigns({ db: db(), chains, social, log, now: at(2) })).toEqual({ pools: 0, grants: 0, frozen: 0, failed: 0 });
  });

  it("without social providers, pay as the approvals stood: nothing can be checked", async () => {
    const c = await makeCampaign([{ key: "follow", type: "x_follow", config: { handle: "lumenswap" }, xp: 20 }]);
    const { follow } = c.tasks as Record<string, Task>;
    const fcfs = await create(c.id, xpPool({ distribution: "fcfs", winners: 3, amount: 100n }));
    const m = await member("x");
    fakes.x.setFollowing(m.who.id, [lumen.id]);
    await complete(follow!, m.userId, -40);
    fakes.x.setFollowing(m.who.id, []);
    expect(await distributeEndedCampaigns({ db: db(), chains, now: NOW })).toEqual({ pools: 1, grants: 1, frozen: 0, failed: 0 });
    expect(await grants(fcfs)).toEqual([[m.userId, 100n]]);
    expect(followingCalls()).toBe(1);
  });
});
