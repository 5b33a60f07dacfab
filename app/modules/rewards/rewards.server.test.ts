import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { xpEvent } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { awardXp, boardKey, rankOf, setLeaderboardVisibility } from "~/modules/leaderboards/leaderboards.server";
import { attemptTask, reviewCompletion } from "~/modules/tasks/completions.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { completersOf, distributeEndedCampaigns } from "./distribute.server";
import type { Hex } from "viem";
import { createPublicClient, http, type PublicClient } from "viem";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { drawChainOf, type DrawChains } from "./draw-chains.server";
import { drawRaffle } from "./draw-raffle";
import { entrantIdOf } from "./entrant-ids.server";
import { commitmentOf, entrantListHash, raffleSeed } from "./raffle-proof";
import { createRewardPool, deleteRewardPool, listRewardPools, updateRewardPool } from "./reward-pools.server";
import type { RewardPoolInput } from "./reward.schema";
import { failureMessage } from "~/lib/result";

let database: Database;
let localChain: LocalChain;
let client: PublicClient;
let chains: DrawChains;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);

beforeAll(async () => {
  localChain = await startLocalChain();
  client = createPublicClient({ transport: http(localChain.url) }) as PublicClient;
  chains = new Map([[LOCAL_CHAIN_ID, drawChainOf(client, { chainId: LOCAL_CHAIN_ID, confirmations: 1 })]]);
  database = await createTestDatabase();
  const db = database.db;
  await db
    .insert(user)
    .values(["own", "adm", "rev", "out", ...Array.from({ length: 8 }, (_, i) => `m${i + 1}`)].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "adm", role: "admin" },
    { projectId: "p", userId: "rev", role: "reviewer" },
  ]);
});
afterAll(async () => {
  await database.close();
  await localChain.stop();
});

/** One run of the reward worker at `now`, raffles drawn from the local chain. */
const ENTRANT_KEY = "e".repeat(40);
const distribute = (now: Date) => distributeEndedCampaigns({ db: database.db, chains, entrantKey: ENTRANT_KEY, now });

/** A published campaign from `start` to `end` (days from T) with a one-off link (10 XP), a reviewed text (30) and a daily link (5). */
async function makeCampaign(start = -10, end = -1, published: Date | null = at(start - 1)) {
  const id = randomUUID();
  await database.db
    .insert(campaign)
    .values({ id, projectId: "p", slug: id.slice(0, 8), name: "Season", startsAt: at(start), endsAt: at(end), publishedAt: published });
  const tasks = { link: randomUUID(), text: randomUUID(), daily: randomUUID() };
  const base = { projectId: "p", campaignId: id, publishedAt: at(start - 1) };
  await database.db.insert(task).values([
    { ...base, id: tasks.link, title: "Visit", type: "visit_link", verification: "none", xp: 10, config: { url: "https://example.com" } },
    { ...base, id: tasks.text, title: "Write", type: "submit_text", verification: "review", xp: 30, config: { prompt: "", minLength: 1 } },
    {
      ...base,
      id: tasks.daily,
      title: "Check in",
      type: "visit_link",
      verification: "none",
      recurrence: "daily",
      xp: 5,
      config: { url: "https://example.com" },
    },
  ]);
  return { id, tasks };
}

const visit = async (taskId: string, userId: string, days: number) => {
  const result = await attemptTask({ db: database.db, taskId, userId, input: { kind: "visit" }, now: at(days) });
  expect(result.ok).toBe(true);
};
const write = async (taskId: string, userId: string, submitted: number, approved?: number) => {
  const result = await attemptTask({ db: database.db, taskId, userId, input: { kind: "text", text: "Here it is" }, now: at(submitted) });
  if (!result.ok) throw new Error(failureMessage(result));
  if (approved !== undefined)
    await reviewCompletion({ db: database.db, completionId: result.completionId, reviewerId: "rev", decision: "approved", now: at(approved) });
};

/**
 * Completers, in finishing order: m2 (day −7), m3 (−6), m1 (−5), m5 (−2). m4 and m6 did part of it.
 * Campaign board: m5 55 XP (three daily check-ins), then m2, m3, m1 at 45 (by when they got there), m4 and m6 at 15.
 */
async function playCampaign({ tasks }: Awaited<ReturnType<typeof makeCampaign>>) {
  const { link, text, daily } = tasks;
  const steps: (() => Promise<void>)[] = [
    () => visit(link, "m1", -9),
    () => visit(daily, "m1", -9),
    () => write(text, "m1", -9, -5),
    () => visit(link, "m2", -8),
    () => visit(daily, "m2", -8),
    () => write(text, "m2", -8, -7),
    () => write(text, "m3", -9, -6.5),
    () => visit(daily, "m3", -6.5),
    () => visit(link, "m3", -6),
    () => visit(link, "m4", -9),
    () => visit(daily, "m4", -9),
    () => visit(link, "m5", -4),
    () => visit(daily, "m5", -4),
    () => visit(daily, "m5", -3),
    () => visit(daily, "m5", -2.5),
    () => write(text, "m5", -4, -2),
    () => visit(link, "m6", -3),
    () => visit(daily, "m6", -3),
    () => write(text, "m6", -3),
  ];
  for (const step of steps) await step();
}

const pool = (input: Partial<RewardPoolInput> & Pick<RewardPoolInput, "distribution">): RewardPoolInput => ({
  kind: "xp",
  asset: null,
  winners: null,
  amount: null,
  rankAmounts: null,
  ...input,
});

async function create(campaignId: string, input: RewardPoolInput, actorId = "own", now = at(-9.5)) {
  const created = await createRewardPool({ db: database.db, campaignId, actorId, input, raffleChainId: LOCAL_CHAIN_ID, now });
  if (!created.ok) throw new Error(failureMessage(created));
  return created.value;
}

const grantsOf = (poolId: string) =>
  database.db
    .select({ userId: rewardGrant.userId, position: rewardGrant.position, amount: rewardGrant.amount })
    .from(rewardGrant)
    .where(eq(rewardGrant.poolId, poolId))
    .orderBy(asc(rewardGrant.position));

const rewardXp = async (poolId: string) =>
  (
    await database.db
      .select({ userId: xpEvent.userId, amount: xpEvent.amount })
      .from(xpEvent)
      .where(and(eq(xpEvent.sourceType, "reward"), eq(xpEvent.sourceId, poolId)))
  ).sort((a, b) => a.userId.localeCompare(b.userId));

describe("completers", () => {
  it("are the members with every published task approved, in the order they finished", async () => {
    const c = await makeCampaign();
    await playCampaign(c);
    const completers = await completersOf({ db: database.db, campaignId: c.id, asOf: T });
    expect(completers.map((x) => x.userId)).toEqual(["m2", "m3", "m1", "m5"]);
    expect(completers[0]!.finishedAt.toISOString()).toBe(at(-7).toISOString());
    // As of day −5.5 only m2 and m3 had finished.
    expect((await completersOf({ db: database.db, campaignId: c.id, asOf: at(-5.5) })).map((x) => x.userId)).toEqual(["m2", "m3"]);
  });
});

describe("distribution", () => {
  it("pays every mode once the campaign has ended, and nothing before", async () => {
    const c = await makeCampaign();
    const fcfs = await create(c.id, pool({ distribution: "fcfs", winners: 2, amount: 100n }));
    const raffle = await create(c.id, pool({ distribution: "raffle", winners: 2, amount: 70n }));
    const ranking = await create(c.id, pool({ distribution: "ranking", winners: 5, rankAmounts: [300n, 200n, 100n] }));
    const everyone = await create(c.id, pool({ distribution: "everyone", amount: 10n }));
    await playCampaign(c);
    // Hiding from public boards does not forfeit a prize.
    await setLeaderboardVisibility({ db: database.db, userId: "m4", visible: false });
    const boardBefore = await rankOf({ db: database.db, board: boardKey({ kind: "campaign", campaignId: c.id }, "all"), userId: "m5" });

    expect(await distribute(at(-1.5))).toEqual({ pools: 0, grants: 0, frozen: 0, failed: 0 });
    // The raffle's entrants are frozen first; its block comes, and it is drawn, on the next run.
    expect(await distribute(T)).toEqual({ pools: 3, grants: 2 + 5 + 4, frozen: 1, failed: 0 });
    expect(await distribute(T)).toEqual({ pools: 1, grants: 2, frozen: 0, failed: 0 });

    expect(await grantsOf(fcfs.id)).toEqual([
      { userId: "m2", position: 1, amount: 100n },
      { userId: "m3", position: 2, amount: 100n },
    ]);
    expect(await grantsOf(ranking.id)).toEqual([
      { userId: "m5", position: 1, amount: 300n },
      { userId: "m2", position: 2, amount: 200n },
      { userId: "m3", position: 3, amount: 100n },
      { userId: "m1", position: 4, amount: 100n },
      { userId: "m4", position: 5, amount: 100n },
    ]);
    // 10 XP among 4: 2 each, and the 2 left over to the two earliest finishers.
    expect(await grantsOf(everyone.id)).toEqual([
      { userId: "m2", position: 1, amount: 3n },
      { userId: "m3", position: 2, amount: 3n },
      { userId: "m1", position: 3, amount: 2n },
      { userId: "m5", position: 4, amount: 2n },
    ]);
    const drawn = await grantsOf(raffle.id);
    expect(drawn).toHaveLength(2);
    expect(new Set(drawn.map((g) => g.userId)).size).toBe(2);
    for (const g of drawn) expect(["m1", "m2", "m3", "m5"]).toContain(g.userId);

    // The XP went through the award ledger, once per member and pool.
    expect(await rewardXp(fcfs.id)).toEqual([
      { userId: "m2", amount: 100 },
      { userId: "m3", amount: 100 },
    ]);
    expect((await rewardXp(ranking.id)).reduce((s, e) => s + e.amount, 0)).toBe(800);
    expect(await awardXp({ db: database.db, award: { userId: "m2", projectId: "p", sourceType: "reward", sourceId: fcfs.id, amount: 100 } })).toBe(false);
    // It counts on the project's board, not the campaign's (the ranking stays as the campaign ended).
    expect(await rankOf({ db: database.db, board: boardKey({ kind: "campaign", campaignId: c.id }, "all"), userId: "m5" })).toEqual(boardBefore);

    const pools = await database.db.select().from(rewardPool).where(eq(rewardPool.campaignId, c.id));
    expect(pools.map((p) => p.status)).toEqual(["paid", "paid", "paid", "paid"]);
    expect(pools.every((p) => p.paidAt?.getTime() === T.getTime())).toBe(true);
    expect(pools.find((p) => p.id === raffle.id)!.seed).toMatch(/^0x[0-9a-f]{64}$/);
    expect(pools.find((p) => p.id === fcfs.id)!.seed).toBeNull();

    const cards = await listRewardPools({ db: database.db, campaignId: c.id, userId: "m5" });
    expect(cards.find((p) => p.id === ranking.id)).toMatchObject({ paidTo: 5, paidTotal: 800n, mine: { position: 1, amount: 300n } });
    expect(cards.find((p) => p.id === fcfs.id)).toMatchObject({ paidTo: 2, paidTotal: 200n, mine: null });
    const seen = await listRewardPools({ db: database.db, campaignId: c.id, userId: null });
    expect(seen.find((p) => p.id === ranking.id)).toMatchObject({ paidTo: 5, paidTotal: 800n, mine: null });

    expect(await distribute(new Date(T.getTime() + HOUR))).toEqual({ pools: 0, grants: 0, frozen: 0, failed: 0 });
  });

  it("draws the raffle from its secret, its frozen entrants and a later block, as anyone can check", async () => {
    const c = await makeCampaign();
    const raffle = await create(c.id, pool({ distribution: "raffle", winners: 3, amount: 5n }));
    expect(raffle.commitment).toBe(commitmentOf(raffle.secret as Hex));
    await playCampaign(c);
    await distribute(T);
    const [frozen] = await database.db.select().from(rewardPool).where(eq(rewardPool.id, raffle.id));
    // Drawn on each entrant's id in this pool, in finishing order.
    const ids = ["m2", "m3", "m1", "m5"].map((userId) => entrantIdOf({ key: ENTRANT_KEY, poolId: raffle.id, userId }));
    const memberOf = new Map(ids.map((id, i) => [id, ["m2", "m3", "m1", "m5"][i]!]));
    expect(frozen).toMatchObject({ status: "frozen", entrantsCount: 4, entrantsHash: entrantListHash(ids) });
    const head = await client.getBlockNumber();
    expect(BigInt(frozen!.drawBlock!)).toBe(head + 1n);
    // A later approval does not change the frozen entrants: m7 finishes after the freeze.
    await visit(c.tasks.link, "m7", -1.5);
    await visit(c.tasks.daily, "m7", -1.5);
    await write(c.tasks.text, "m7", -1.5, 0.5);
    await distribute(new Date(T.getTime() + HOUR));
    const [paid] = await database.db.select().from(rewardPool).where(eq(rewardPool.id, raffle.id));
    const block = await client.getBlock({ blockNumber: BigInt(frozen!.drawBlock!) });
    expect(paid!.drawBlockHash).toBe(block.hash);
    expect(paid!.seed).toBe(raffleSeed({ secret: raffle.secret as Hex, blockHash: block.hash, entrantsHash: frozen!.entrantsHash as Hex }));
    const drawn = drawRaffle({ seed: paid!.seed!, entrants: ids, winners: 3 });
    expect((await grantsOf(raffle.id)).map((g) => g.userId)).toEqual(drawn.map((id) => memberOf.get(id)));
  });

  it("pays each pool exactly once when two runs race", async () => {
    const campaigns = [await makeCampaign(), await makeCampaign()];
    const pools = [];
    for (const c of campaigns) {
      pools.push(await create(c.id, pool({ distribution: "fcfs", winners: 3, amount: 40n })));
      pools.push(await create(c.id, pool({ distribution: "ranking", winners: 4, rankAmounts: [90n, 50n] })));
      pools.push(await create(c.id, pool({ distribution: "everyone", amount: 1000n })));
      pools.push(await create(c.id, pool({ distribution: "raffle", winners: 2, amount: 25n })));
      await playCampaign(c);
    }
    const race = () => Promise.all([distribute(T), distribute(T)]);
    const runs = [...(await race()), ...(await race())];
    expect(runs.reduce((n, r) => n + r.pools, 0)).toBe(8);
    expect(runs.reduce((n, r) => n + r.frozen, 0)).toBe(2);
    expect(runs.reduce((n, r) => n + r.grants, 0)).toBe(2 * (3 + 4 + 4 + 2));
    for (const p of pools) {
      const grants = await grantsOf(p.id);
      const events = await rewardXp(p.id);
      expect(events).toHaveLength(grants.length);
      expect(events.reduce((s, e) => s + e.amount, 0)).toBe(grants.reduce((s, g) => s + Number(g.amount), 0));
    }
    expect(
      (
        await database.db
          .select()
          .from(rewardPool)
          .where(inArray(rewardPool.status, ["open", "frozen"]))
      ).length,
    ).toBe(0);
  });

  it("pays the other pools when one fails, and keeps the failed one open for the next run", async () => {
    const c = await makeCampaign();
    const broken = await create(c.id, pool({ distribution: "ranking", winners: 2, rankAmounts: [50n, 20n] }));
    const good = await create(c.id, pool({ distribution: "fcfs", winners: 1, amount: 10n }));
    await playCampaign(c);
    // A pool the form would refuse (nothing per rank), written straight to the table: paying it throws.
    await database.db
      .update(rewardPool)
      .set({ rankAmounts: ["x"] })
      .where(eq(rewardPool.id, broken.id));
    const failures: string[] = [];
    expect(await distributeEndedCampaigns({ db: database.db, chains, now: T, onPoolError: (poolId) => failures.push(poolId) })).toEqual({
      pools: 1,
      grants: 1,
      frozen: 0,
      failed: 1,
    });
    expect(failures).toEqual([broken.id]);
    const statuses = await database.db.select({ id: rewardPool.id, status: rewardPool.status }).from(rewardPool).where(eq(rewardPool.campaignId, c.id));
    expect(statuses.find((p) => p.id === good.id)?.status).toBe("paid");
    expect(statuses.find((p) => p.id === broken.id)?.status).toBe("open");
    expect(await grantsOf(broken.id)).toEqual([]);
    await database.db.delete(rewardPool).where(eq(rewardPool.id, broken.id)); // the next tests share this database
  });

  it("pays none of the project's team: nobody pays themselves", async () => {
    const c = await makeCampaign();
    const fcfs = await create(c.id, pool({ distribution: "fcfs", winners: 10, amount: 10n }));
    const ranking = await create(c.id, pool({ distribution: "ranking", winners: 10, rankAmounts: [10n] }));
    // The admin finishes first, with the most XP; the reviewer's text is approved by the owner.
    for (const userId of ["adm", "m8"]) {
      await visit(c.tasks.link, userId, -9);
      await visit(c.tasks.daily, userId, -9);
      await visit(c.tasks.daily, userId, -8);
    }
    await write(c.tasks.text, "adm", -9, -8.5);
    await write(c.tasks.text, "m8", -8, -7.5);
    expect((await completersOf({ db: database.db, campaignId: c.id, asOf: T })).map((x) => x.userId)).toEqual(["m8"]);
    await distribute(T);
    expect((await grantsOf(fcfs.id)).map((g) => g.userId)).toEqual(["m8"]);
    expect((await grantsOf(ranking.id)).map((g) => g.userId)).toEqual(["m8"]);
  });

  it("leaves pools of live and draft campaigns alone, and pays nobody when nobody completed", async () => {
    const live = await makeCampaign(-5, 5);
    const livePool = await create(live.id, pool({ distribution: "fcfs", winners: 1, amount: 10n }), "own", at(-4));
    const draft = await makeCampaign(-10, -1, null);
    const draftPool = await create(draft.id, pool({ distribution: "fcfs", winners: 1, amount: 10n }));
    const empty = await makeCampaign();
    const emptyPool = await create(empty.id, pool({ distribution: "everyone", amount: 500n }));
    expect(await distribute(T)).toEqual({ pools: 1, grants: 0, frozen: 0, failed: 0 });
    const statuses = await database.db.select({ id: rewardPool.id, status: rewardPool.status }).from(rewardPool);
    expect(statuses.find((s) => s.id === livePool.id)?.status).toBe("open");
    expect(statuses.find((s) => s.id === draftPool.id)?.status).toBe("open");
    expect(statuses.find((s) => s.id === emptyPool.id)?.status).toBe("paid");
  });
});

describe("managing pools", () => {
  const forbidden = { init: { status: 403 } };

  it("is for the project's owners and admins, while the campaign has not ended", async () => {
    const c = await makeCampaign(-5, 5);
    const now = at(0);
    const input = pool({ distribution: "fcfs", winners: 10, amount: 50n });
    const byOwner = await createRewardPool({ db: database.db, campaignId: c.id, actorId: "own", input, now });
    expect(byOwner).toMatchObject({ ok: true, value: { kind: "xp", distribution: "fcfs", winners: 10, amount: 50n, status: "open", createdBy: "own" } });
    const poolId = byOwner.ok ? byOwner.value.id : "";
    expect(await createRewardPool({ db: database.db, campaignId: c.id, actorId: "adm", input, now })).toMatchObject({ ok: true });

    for (const actorId of ["rev", "out"]) {
      await expect(createRewardPool({ db: database.db, campaignId: c.id, actorId, input, now })).rejects.toMatchObject(forbidden);
      await expect(updateRewardPool({ db: database.db, campaignId: c.id, poolId, actorId, input, now })).rejects.toMatchObject(forbidden);
      await expect(deleteRewardPool({ db: database.db, campaignId: c.id, poolId, actorId, now })).rejects.toMatchObject(forbidden);
    }

    const edited = await updateRewardPool({
      db: database.db,
      campaignId: c.id,
      poolId,
      actorId: "adm",
      input: pool({ distribution: "everyone", amount: 20n }),
      now,
    });
    expect(edited).toMatchObject({ ok: true, value: { distribution: "everyone", winners: null, amount: 20n } });
    // A pool is found only in its own campaign.
    const other = await makeCampaign(-5, 5);
    expect(await updateRewardPool({ db: database.db, campaignId: other.id, poolId, actorId: "own", input, now })).toMatchObject({ ok: false });
    expect(await deleteRewardPool({ db: database.db, campaignId: other.id, poolId, actorId: "own", now })).toMatchObject({ ok: false });

    const ended = { ok: false, code: "invalid", errors: { form: "This campaign has ended: its rewards can no longer change." } };
    expect(await createRewardPool({ db: database.db, campaignId: c.id, actorId: "own", input, now: at(6) })).toMatchObject(ended);
    expect(await updateRewardPool({ db: database.db, campaignId: c.id, poolId, actorId: "own", input, now: at(6) })).toMatchObject(ended);
    expect(await deleteRewardPool({ db: database.db, campaignId: c.id, poolId, actorId: "own", now: at(6) })).toMatchObject(ended);

    expect(await deleteRewardPool({ db: database.db, campaignId: c.id, poolId, actorId: "own", now })).toEqual({ ok: true });
    expect((await listRewardPools({ db: database.db, campaignId: c.id, userId: null })).map((p) => p.createdBy)).toEqual(["adm"]);
  });

  it("refuses to change a pool that has been paid", async () => {
    const c = await makeCampaign(-5, 5);
    const p = await create(c.id, pool({ distribution: "everyone", amount: 100n }), "own", at(0));
    await database.db.update(rewardPool).set({ status: "paid" }).where(eq(rewardPool.id, p.id));
    const paid = { ok: false, code: "invalid", errors: { form: "This reward has been paid: it can no longer change." } };
    expect(
      await updateRewardPool({
        db: database.db,
        campaignId: c.id,
        poolId: p.id,
        actorId: "own",
        input: pool({ distribution: "everyone", amount: 5n }),
        now: at(0),
      }),
    ).toMatchObject(paid);
    expect(await deleteRewardPool({ db: database.db, campaignId: c.id, poolId: p.id, actorId: "own", now: at(0) })).toMatchObject(paid);
  });
});
