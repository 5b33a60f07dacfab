import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { journalEntry } from "#db/schema/ledger";
import { projectFollow } from "#db/schema/reach";
import { campaign, completion, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { walletAddress } from "#db/schema/wallets";
import type { Services } from "~/services/services.server";
import { apiTestProject, callApi } from "~/modules/api/api-test-kit.server";
import { awardXp, setLeaderboardVisibility } from "~/modules/leaderboards/leaderboards.server";
import { setEmailShare } from "~/modules/projects/member-identity.server";
import { createTestServices } from "#tests/setup/test-services";
import { getLeaderboard } from "~/modules/api/endpoints/leaderboard.server";
import { getLeaderboardMember } from "~/modules/api/endpoints/leaderboard-member.server";
import { getMember } from "~/modules/api/endpoints/member.server";
import { listMembers } from "~/modules/api/endpoints/members.server";
import { listPayouts } from "~/modules/api/endpoints/reward-pool-payouts.server";
import { listRewardPools } from "~/modules/api/endpoints/reward-pools.server";

let services: Services;
let mine: Awaited<ReturnType<typeof apiTestProject>>;
let theirs: Awaited<ReturnType<typeof apiTestProject>>;
let key: string;
const WALLET = getAddress("0x00000000000000000000000000000000000000c1");
const STRANGER_WALLET = getAddress("0x00000000000000000000000000000000000000c2");
const at = (day: number) => new Date(Date.UTC(2026, 0, day));

beforeAll(async () => {
  services = await createTestServices({ API_RATE_LIMIT_PER_MINUTE: "1000" });
  const { db } = services.database;
  mine = await apiTestProject(services, "mine");
  theirs = await apiTestProject(services, "theirs");
  key = await mine.keyWith(["read"]);
  const members = ["a", "b", "c", "d", "e", "hidden", "follower", "stranger", "other"];
  await db.insert(user).values(members.map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() })));
  await db.insert(walletAddress).values([
    { id: "w1", userId: "a", address: WALLET, chainId: 1 },
    { id: "w2", userId: "stranger", address: STRANGER_WALLET, chainId: 1 },
  ]);
  const dates = { startsAt: at(1), endsAt: at(10), publishedAt: at(1) };
  await db.insert(campaign).values([
    { id: "c-mine", projectId: mine.projectId, slug: "c", name: "Launch", ...dates },
    { id: "c-theirs", projectId: theirs.projectId, slug: "c", name: "Theirs", ...dates },
  ]);
  await db.insert(task).values({ id: "t1", projectId: mine.projectId, campaignId: "c-mine", title: "T", type: "visit_link", xp: 1, verification: "none" });
  await db.insert(completion).values([
    { id: "k1", taskId: "t1", userId: "a", period: "once", status: "approved" },
    { id: "k2", taskId: "t1", userId: "b", period: "once", status: "pending" },
  ]);
  // Scores in `mine`: a 500, b 400, hidden 350, c 300, d 300 (reached later than c), e 100; `other` only in theirs.
  const award = (userId: string, amount: number, day: number, projectId = mine.projectId, campaignId: string | null = "c-mine") =>
    awardXp({ db, award: { userId, projectId, campaignId, sourceType: "test", sourceId: `${userId}-${day}`, amount, at: at(day) } });
  await award("a", 500, 2);
  await award("b", 400, 2);
  await award("hidden", 350, 2, mine.projectId, null);
  await award("c", 300, 3);
  await award("d", 300, 4);
  await award("e", 100, 5, mine.projectId, null);
  await award("other", 900, 2, theirs.projectId, "c-theirs");
  await setLeaderboardVisibility({ db, userId: "hidden", visible: false });
  await db.insert(projectFollow).values({ userId: "follower", projectId: mine.projectId });
  await setEmailShare({ db, userId: "b", projectId: mine.projectId, shared: true });

  // Pools: an XP pool paid to `a` (its award) and granted to `b` (not yet paid); a token pool paid by one ledger entry.
  await db.insert(rewardPool).values([
    { id: "p-xp", campaignId: "c-mine", kind: "xp", distribution: "fcfs", winners: 2, amount: 100n, status: "distributing", createdAt: at(1) },
    {
      id: "p-token",
      campaignId: "c-mine",
      kind: "token",
      asset: "QUEST:31337",
      distribution: "ranking",
      winners: 1,
      rankAmounts: ["7000"],
      escrowed: 7000n,
      status: "paid",
      paidAt: at(11),
      createdAt: at(2),
    },
    { id: "p-theirs", campaignId: "c-theirs", kind: "xp", distribution: "fcfs", winners: 1, amount: 5n, createdAt: at(3) },
  ]);
  const [entry] = await db
    .insert(journalEntry)
    .values({ idempotencyKey: "grants-p-token", kind: "reward_paid", createdAt: at(11) })
    .returning({ id: journalEntry.id });
  await db.insert(rewardGrant).values([
    { poolId: "p-xp", userId: "a", position: 1, amount: 100n },
    { poolId: "p-xp", userId: "b", position: 2, amount: 100n },
    { poolId: "p-token", userId: "a", position: 1, amount: 7000n, entryId: entry!.id },
  ]);
  await awardXp({ db, award: { userId: "a", projectId: mine.projectId, campaignId: null, sourceType: "reward", sourceId: "p-xp", amount: 100, at: at(12) } });
});
afterAll(() => services.close());

const call = (endpoint: Parameters<typeof callApi>[1], path: string, params: Record<string, string> = {}, withKey = key) =>
  callApi(services, endpoint, { key: withKey, path, params });

describe("GET /api/v1/members/{id} and ?wallet=", () => {
  it("is what the team may see: no e-mail unless shared with this project, wallets, XP, exact rank and completions", async () => {
    const a = await call(getMember, "/members/a", { id: "a" });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      id: "a",
      name: "A",
      username: null,
      image: null,
      email: null,
      wallets: [WALLET],
      social_accounts: [],
      xp: 600,
      rank: 1,
      completions: { pending: 0, approved: 1, rejected: 0 },
    });
    expect((await call(getMember, "/members/b", { id: "b" })).body).toMatchObject({ email: "b@example.com", rank: 2, completions: { pending: 1 } });
    // Hidden from public boards: the rank they would have among those shown.
    expect((await call(getMember, "/members/hidden", { id: "hidden" })).body).toMatchObject({ xp: 350, rank: 3 });
    expect((await call(getMember, "/members/follower", { id: "follower" })).body).toMatchObject({ xp: 0, rank: null });
  });

  it("finds a member by linked wallet in any case; a wallet of someone who never took part finds nobody", async () => {
    for (const wallet of [WALLET, WALLET.toLowerCase(), `0x${WALLET.slice(2).toUpperCase()}`]) {
      const found = await call(listMembers, `/members?wallet=${wallet}`);
      expect(found.status).toBe(200);
      expect(found.body).toEqual({ data: [expect.objectContaining({ id: "a", wallets: [WALLET] })], next_cursor: null });
    }
    expect((await call(listMembers, `/members?wallet=${STRANGER_WALLET}`)).body).toEqual({ data: [], next_cursor: null });
    const bad = await call(listMembers, "/members?wallet=0xnope");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: { code: "invalid", message: "The query is refused: see fields.", fields: { wallet: "wallet must be an address: 0x and 40 hex digits" } },
    });
  });

  it("lists the project's members by cursor: XP, completions or a follow make one", async () => {
    const first = await call(listMembers, "/members?limit=4");
    const body = first.body as { data: { id: string }[]; next_cursor: string };
    expect(body.data.map((m) => m.id)).toEqual(["a", "b", "c", "d"]);
    const rest = await call(listMembers, `/members?limit=4&cursor=${body.next_cursor}`);
    expect(rest.body).toEqual({
      data: [expect.objectContaining({ id: "e" }), expect.objectContaining({ id: "follower" }), expect.objectContaining({ id: "hidden" })],
      next_cursor: null,
    });
  });

  it("does not know members of other projects only, nor anyone by their id alone (404)", async () => {
    for (const id of ["other", "stranger", "nobody"]) {
      const answer = await call(getMember, `/members/${id}`, { id });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: { code: "not_found", message: "No member with this id has taken part in this project." } });
    }
    expect((await call(getMember, "/members/other", { id: "other" }, await theirs.keyWith(["read"]))).status).toBe(200);
  });
});

describe("GET /api/v1/leaderboard", () => {
  it("pages the project's board with exact ranks by cursor, hidden members left out", async () => {
    const first = await call(getLeaderboard, "/leaderboard?limit=2");
    expect(first.body).toEqual({
      data: [
        { rank: 1, member_id: "a", xp: 600, name: "A", username: null, image: null },
        { rank: 2, member_id: "b", xp: 400, name: "B", username: null, image: null },
      ],
      next_cursor: expect.any(String),
      window: "all",
      campaign_id: null,
    });
    const cursor = (first.body as { next_cursor: string }).next_cursor;
    const second = await call(getLeaderboard, `/leaderboard?limit=2&cursor=${cursor}`);
    // Ranks count visible members (`hidden` is left out): d ties c's score but reached it later.
    expect((second.body as { data: { rank: number; member_id: string }[] }).data.map((r) => [r.rank, r.member_id])).toEqual([
      [3, "c"],
      [4, "d"],
    ]);
    const third = await call(getLeaderboard, `/leaderboard?limit=2&cursor=${(second.body as { next_cursor: string }).next_cursor}`);
    expect(third.body).toMatchObject({ data: [{ rank: 5, member_id: "e" }], next_cursor: null });
  });

  it("reads a campaign's board and a window; another project's campaign is not found; a bad window is refused", async () => {
    const campaignBoard = await call(getLeaderboard, "/leaderboard?campaign_id=c-mine");
    expect((campaignBoard.body as { data: { member_id: string; xp: number }[] }).data.map((r) => [r.member_id, r.xp])).toEqual([
      ["a", 500],
      ["b", 400],
      ["c", 300],
      ["d", 300],
    ]);
    const theirsBoard = await call(getLeaderboard, "/leaderboard?campaign_id=c-theirs");
    expect(theirsBoard.status).toBe(404);
    expect(theirsBoard.body).toEqual({ error: { code: "not_found", message: "This project has no campaign with this id." } });
    const bad = await call(getLeaderboard, "/leaderboard?window=year&cursor=nope!");
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { error: { fields: object } }).error.fields).sort()).toEqual(["cursor", "window"]);
  });

  it("answers a member's exact rank on a board, null without XP there, 404 for a member the project does not know", async () => {
    expect((await call(getLeaderboardMember, "/leaderboard/members/d", { member_id: "d" })).body).toEqual({
      member_id: "d",
      rank: 4,
      xp: 300,
      window: "all",
      campaign_id: null,
    });
    expect((await call(getLeaderboardMember, "/leaderboard/members/e?campaign_id=c-mine", { member_id: "e" })).body).toMatchObject({ rank: null, xp: 0 });
    expect((await call(getLeaderboardMember, "/leaderboard/members/other", { member_id: "other" })).status).toBe(404);
  });
});

describe("GET /api/v1/reward-pools and /reward-pools/{id}/payouts", () => {
  it("lists the project's pools with their state and what they paid, by cursor", async () => {
    const first = await call(listRewardPools, "/reward-pools?limit=1");
    expect(first.body).toEqual({
      data: [
        {
          id: "p-xp",
          campaign_id: "c-mine",
          campaign_name: "Launch",
          kind: "xp",
          asset: null,
          distribution: "fcfs",
          winners: 2,
          amount: "100",
          rank_amounts: null,
          escrowed: "0",
          returned: "0",
          state: "paying",
          paid_to: 2,
          paid_total: "200",
          created_at: at(1).toISOString(),
          paid_at: null,
        },
      ],
      next_cursor: expect.any(String),
    });
    const second = await call(listRewardPools, `/reward-pools?cursor=${(first.body as { next_cursor: string }).next_cursor}`);
    expect(second.body).toEqual({
      data: [expect.objectContaining({ id: "p-token", state: "paid", asset: "QUEST:31337", rank_amounts: ["7000"], paid_at: at(11).toISOString() })],
      next_cursor: null,
    });
  });

  it("lists a pool's grants in rank order with when each was paid; another project's pool is not found", async () => {
    const xp = await call(listPayouts, "/reward-pools/p-xp/payouts?limit=1", { id: "p-xp" });
    expect(xp.body).toEqual({
      data: [{ member_id: "a", rank: 1, kind: "xp", amount: "100", asset: null, paid_at: at(12).toISOString() }],
      next_cursor: expect.any(String),
    });
    const rest = await call(listPayouts, `/reward-pools/p-xp/payouts?cursor=${(xp.body as { next_cursor: string }).next_cursor}`, { id: "p-xp" });
    expect(rest.body).toEqual({ data: [{ member_id: "b", rank: 2, kind: "xp", amount: "100", asset: null, paid_at: null }], next_cursor: null });
    expect((await call(listPayouts, "/reward-pools/p-token/payouts", { id: "p-token" })).body).toEqual({
      data: [{ member_id: "a", rank: 1, kind: "token", amount: "7000", asset: "QUEST:31337", paid_at: at(11).toISOString() }],
      next_cursor: null,
    });
    const other = await call(listPayouts, "/reward-pools/p-theirs/payouts", { id: "p-theirs" });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { code: "not_found", message: "This project has no reward pool with this id." } });
  });
});
