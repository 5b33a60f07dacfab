import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, task } from "#db/schema/quests";
import type { Database } from "~/lib/db.server";
import { awardXp, setLeaderboardVisibility } from "~/modules/leaderboards/leaderboards.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { memberRewards } from "./member-rewards.server";
import { pendingShareLine } from "./pool-words";
import { createRewardPool } from "./reward-pools.server";
import type { RewardPoolInput } from "./reward.schema";
import { failureMessage } from "~/lib/result";

const DAY = 86_400_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);
const MEMBERS = ["m1", "m2", "m3", "m4", "hid", "own"];

let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(MEMBERS.map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await setLeaderboardVisibility({ db: db(), userId: "hid", visible: false });
});
afterAll(() => database.close());

/** A live, published campaign (day −1 to +10) with one link task, saved pools and `scores` on its board. */
async function liveCampaign({
  pools,
  scores = {},
  visitors = [],
}: {
  pools: Partial<RewardPoolInput>[];
  scores?: Record<string, number>;
  visitors?: string[];
}) {
  const id = randomUUID();
  const taskId = randomUUID();
  await db()
    .insert(campaign)
    .values({ id, projectId: "p", slug: id.slice(0, 8), name: `Season ${id.slice(0, 4)}`, startsAt: at(-1), endsAt: at(10), publishedAt: at(-2) });
  await db()
    .insert(task)
    .values({
      id: taskId,
      projectId: "p",
      campaignId: id,
      publishedAt: at(-2),
      title: "Visit",
      type: "visit_link",
      verification: "none",
      xp: 10,
      config: { url: "https://example.com" },
    });
  const ids: string[] = [];
  for (const input of pools) {
    const created = await createRewardPool({
      db: db(),
      campaignId: id,
      actorId: "own",
      raffleChainId: 31337,
      input: { kind: "xp", asset: null, distribution: "ranking", winners: 2, amount: null, rankAmounts: [100n, 50n], ...input },
      now: at(-1),
    });
    if (!created.ok) throw new Error(failureMessage(created));
    ids.push(created.value.id);
  }
  // Scores in the order given: earlier members reach a tied score first.
  for (const [i, [userId, amount]] of Object.entries(scores).entries()) {
    await awardXp({
      db: db(),
      award: { userId, projectId: "p", campaignId: id, sourceType: "test", sourceId: `${id}:${userId}`, amount, at: new Date(at(-0.5).getTime() + i * 1000) },
    });
  }
  for (const userId of visitors) {
    const result = await attemptTask({ db: db(), taskId, userId, input: { kind: "visit" }, now: at(0) });
    expect(result.ok).toBe(true);
  }
  return { id, pools: ids };
}

const pendingOf = async (userId: string) => (await memberRewards({ db: db(), userId, filter: "pending" })).items;

describe("memberRewards", () => {
  it("lists a leaderboard pool as pending only while the member holds a paid rank, counted as the payout counts", async () => {
    // m2 and m3 tie at 30; m2 reached it first. The hidden member and the owner score too: the
    // payout counts the hidden member (they still win) and leaves out the owner (nobody pays themselves).
    const c = await liveCampaign({ pools: [{}], scores: { own: 90, hid: 50, m2: 30, m3: 30, m1: 10 } });
    const ranks = async (userId: string) => (await pendingOf(userId)).filter((r) => r.poolId === c.pools[0]).map((r) => r.rank);
    expect(await ranks("hid")).toEqual([1]);
    expect(await ranks("m2")).toEqual([2]);
    expect(await ranks("m3")).toEqual([]);
    expect(await ranks("m1")).toEqual([]);
    // Not on the board at all, and the project's own team: never in the running.
    expect(await ranks("m4")).toEqual([]);
    expect(await ranks("own")).toEqual([]);
  });

  it("lists the other pools as pending once the member has completed every task", async () => {
    const c = await liveCampaign({ pools: [{ distribution: "fcfs", winners: 5, amount: 10n, rankAmounts: null }], visitors: ["m1"] });
    expect((await pendingOf("m1")).map((r) => r.poolId)).toContain(c.pools[0]);
    expect((await pendingOf("m2")).map((r) => r.poolId)).not.toContain(c.pools[0]);
  });

  it("carries the pool's amount on pending pools, and for an everyone pool the completers who share it so far", async () => {
    const c = await liveCampaign({
      pools: [
        { distribution: "raffle", winners: 2, amount: 70n, rankAmounts: null },
        { distribution: "fcfs", winners: 3, amount: 5n, rankAmounts: null },
        { distribution: "everyone", winners: null, amount: 100n, rankAmounts: null },
      ],
      visitors: ["m1", "m2", "own"],
    });
    const pending = (await pendingOf("m1")).filter((r) => c.pools.includes(r.poolId));
    const line = (i: number) => {
      const r = pending.find((p) => p.poolId === c.pools[i])!;
      return pendingShareLine({ ...r, decimals: 18, amount: r.poolAmount }, r.entrants);
    };
    expect(line(0)).toBe("70 XP each for the 2 winners drawn at random");
    expect(line(1)).toBe("5 XP each for the first 3 members to finish");
    // The owner completed it too, but the project's team shares no reward: m1 and m2 split it.
    expect(line(2)).toBe("100 XP split equally among the members who complete every task: 50 XP each among the 2 so far");
  });

  it("fills every page: pools the member is out of the running for take no place", async () => {
    // 25 leaderboard pools where m4 holds rank 1, and 30 where m4 is last of three (two paid ranks).
    const mine = await liveCampaign({ pools: Array.from({ length: 25 }, () => ({})), scores: { m4: 40, m1: 20 } });
    await liveCampaign({ pools: Array.from({ length: 30 }, () => ({})), scores: { m1: 40, m2: 30, m4: 20 } });
    const first = await memberRewards({ db: db(), userId: "m4", filter: "pending" });
    const second = await memberRewards({ db: db(), userId: "m4", filter: "pending", page: 2 });
    expect(first.items).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(second.items).toHaveLength(5);
    expect(second.hasMore).toBe(false);
    expect(new Set([...first.items, ...second.items].map((r) => r.poolId))).toEqual(new Set(mine.pools));
    expect([...first.items, ...second.items].every((r) => r.rank === 1)).toBe(true);
  });
});
