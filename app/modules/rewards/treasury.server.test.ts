import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, task } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import type { Database } from "~/lib/db.server";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, balanceOf, checkLedger, credit, poolEscrow, projectTreasury } from "~/modules/ledger/ledger.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { distributeEndedCampaigns } from "./distribute.server";
import { memberRewards } from "./member-rewards.server";
import { createRewardPool, deleteRewardPool, updateRewardPool } from "./reward-pools.server";
import type { RewardPoolInput } from "./reward.schema";
import { fundProject, fundSchema, projectRewards } from "./treasury.server";
import { failureMessage } from "~/lib/result";

const Q = questAsset(31337);
const E = 10n ** 18n;
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };
const DAY = 86_400_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);

let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["own", "adm", "rev", "out", "m1", "m2", "m3"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db()
    .insert(projectMember)
    .values([
      { projectId: "p", userId: "own", role: "owner" },
      { projectId: "p", userId: "adm", role: "admin" },
      { projectId: "p", userId: "rev", role: "reviewer" },
    ]);
  for (const id of ["own", "adm", "rev", "out"]) await credit({ db: db(), key: `gift:${id}`, kind: "credit", userId: id, asset: Q, amount: 1000n * E });
});
afterAll(() => database.close());

const fund = (actorId: string, amount: string, requestKey = randomUUID(), asset = "QUEST:31337") => {
  const input = fundSchema.parse({ asset, amount, requestKey });
  return fundProject({ db: db(), projectId: "p", actorId, input });
};
const treasury = () => accountBalance({ db: db(), account: projectTreasury("p"), asset: Q });
const token = (input: Partial<RewardPoolInput> & Pick<RewardPoolInput, "distribution">): RewardPoolInput => ({
  kind: "token",
  asset: Q,
  winners: null,
  amount: null,
  rankAmounts: null,
  ...input,
});

/** A published campaign from `start` to `end` (days from T) with one link task. */
async function makeCampaign(start: number, end: number) {
  const id = randomUUID();
  const taskId = randomUUID();
  await db()
    .insert(campaign)
    .values({ id, projectId: "p", slug: id.slice(0, 8), name: `Season ${id.slice(0, 4)}`, startsAt: at(start), endsAt: at(end), publishedAt: at(start - 1) });
  await db()
    .insert(task)
    .values({
      id: taskId,
      projectId: "p",
      campaignId: id,
      publishedAt: at(start - 1),
      title: "Visit",
      type: "visit_link",
      verification: "none",
      xp: 10,
      config: { url: "https://example.com" },
    });
  return { id, taskId };
}

describe("funding a project", () => {
  it("moves tokens from an owner's or admin's balance to the treasury, once per form", async () => {
    const key = randomUUID();
    expect(await fund("own", "100", key)).toMatchObject({ ok: true });
    expect(await fund("own", "100", key)).toMatchObject({ ok: true });
    expect(await fund("adm", "50.5")).toMatchObject({ ok: true });
    expect(await treasury()).toBe((1505n * E) / 10n);
    expect((await balanceOf({ db: db(), userId: "own", asset: Q }))[0]!.available).toBe(900n * E);
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });

  it("refuses anyone else, more than they hold, and bad amounts, moving nothing", async () => {
    const before = await treasury();
    for (const actorId of ["rev", "out", "m1"]) await expect(fund(actorId, "1")).rejects.toMatchObject({ init: { status: 403 } });
    expect(await fund("adm", "5000")).toEqual({ ok: false, code: "invalid", errors: { amount: "You have 949.5 QUEST available: send at most that." } });
    expect(await fund("adm", "1", randomUUID(), "USDT:31337")).toEqual({ ok: false, code: "invalid", errors: { amount: "You hold no USDT to send." } });
    for (const amount of ["0", "-1", "1.0000000000000000001", "ten"])
      expect(fundSchema.safeParse({ asset: Q, amount, requestKey: randomUUID() }).success).toBe(false);
    expect(fundSchema.safeParse({ asset: Q, amount: "1", requestKey: "x" }).success).toBe(false);
    expect(await treasury()).toBe(before);
  });
});

describe("token pools", () => {
  it("escrow their maximum when saved, move the difference when edited, and return it when deleted", async () => {
    const c = await makeCampaign(1, 10);
    const start = await treasury();
    const created = await createRewardPool({
      db: db(),
      campaignId: c.id,
      actorId: "own",
      input: token({ distribution: "fcfs", winners: 3, amount: 10n * E }),
      now: T,
    });
    if (!created.ok) throw new Error(failureMessage(created));
    const pool = created.value;
    expect(pool.escrowed).toBe(30n * E);
    expect(await accountBalance({ db: db(), account: poolEscrow(pool.id), asset: Q })).toBe(30n * E);
    expect(await treasury()).toBe(start - 30n * E);

    expect(
      await updateRewardPool({
        db: db(),
        campaignId: c.id,
        poolId: pool.id,
        actorId: "own",
        input: token({ distribution: "ranking", winners: 3, rankAmounts: [20n * E, 5n * E] }),
        now: T,
      }),
    ).toMatchObject({
      ok: true,
      value: { escrowed: 30n * E },
    });
    expect(
      await updateRewardPool({
        db: db(),
        campaignId: c.id,
        poolId: pool.id,
        actorId: "own",
        input: token({ distribution: "everyone", amount: 12n * E }),
        now: T,
      }),
    ).toMatchObject({
      ok: true,
      value: { escrowed: 12n * E },
    });
    expect(await treasury()).toBe(start - 12n * E);
    // More than the treasury holds: refused in words, nothing moves.
    const tooMuch = await updateRewardPool({
      db: db(),
      campaignId: c.id,
      poolId: pool.id,
      actorId: "own",
      input: token({ distribution: "everyone", amount: 100_000n * E }),
      now: T,
    });
    expect(tooMuch).toMatchObject({ ok: false, code: "invalid", errors: { total: expect.any(String) } });
    expect(tooMuch.ok ? "" : tooMuch.errors.total).toMatch(/^The project's treasury holds [\d,.]+ QUEST, not the 100,000 QUEST this needs/);
    expect(
      await updateRewardPool({
        db: db(),
        campaignId: c.id,
        poolId: pool.id,
        actorId: "own",
        input: { ...token({ distribution: "everyone", amount: 1n }), kind: "xp", asset: null },
        now: T,
      }),
    ).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { kind: expect.any(String) },
    });
    expect(await deleteRewardPool({ db: db(), campaignId: c.id, poolId: pool.id, actorId: "own", now: T })).toEqual({ ok: true });
    expect(await treasury()).toBe(start);
    expect(await accountBalance({ db: db(), account: poolEscrow(pool.id), asset: Q })).toBe(0n);
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });

  it("cannot be saved beyond the treasury, nor in a token the project does not hold, nor lowered while live", async () => {
    const c = await makeCampaign(-1, 10);
    const start = await treasury();
    const short = await createRewardPool({
      db: db(),
      campaignId: c.id,
      actorId: "adm",
      input: token({ distribution: "everyone", amount: start + 1n }),
      now: T,
    });
    expect(short).toMatchObject({ ok: false, code: "invalid", errors: { total: expect.any(String) } });
    const other = await createRewardPool({
      db: db(),
      campaignId: c.id,
      actorId: "adm",
      input: token({ asset: "USDT:31337", distribution: "everyone", amount: 1n }),
      now: T,
    });
    expect(other).toEqual({
      ok: false,
      code: "invalid",
      errors: { total: "The project's treasury holds no USDT: fund it on the project's Rewards page first." },
    });
    expect((await db().select().from(rewardPool).where(eq(rewardPool.campaignId, c.id))).length).toBe(0);

    const live = await createRewardPool({ db: db(), campaignId: c.id, actorId: "adm", input: token({ distribution: "everyone", amount: 10n * E }), now: T });
    if (!live.ok) throw new Error(failureMessage(live));
    const lower = await updateRewardPool({
      db: db(),
      campaignId: c.id,
      poolId: live.value.id,
      actorId: "adm",
      input: token({ distribution: "everyone", amount: 9n * E }),
      now: T,
    });
    expect(lower).toEqual({ ok: false, code: "invalid", errors: { total: "This campaign is live: its token reward can be raised, not lowered." } });
    expect(
      await updateRewardPool({
        db: db(),
        campaignId: c.id,
        poolId: live.value.id,
        actorId: "adm",
        input: token({ distribution: "everyone", amount: 11n * E }),
        now: T,
      }),
    ).toMatchObject({ ok: true });
    expect(await treasury()).toBe(start - 11n * E);
  });

  it("pays winners from escrow, returns the rest, and shows each member what they won", async () => {
    const c = await makeCampaign(-5, -1);
    const start = await treasury();
    const created = await createRewardPool({
      db: db(),
      campaignId: c.id,
      actorId: "own",
      input: token({ distribution: "fcfs", winners: 3, amount: 7n * E }),
      now: at(-6),
    });
    if (!created.ok) throw new Error(failureMessage(created));
    for (const [i, userId] of ["m1", "m2"].entries()) {
      await attemptTask({ db: db(), taskId: c.taskId, userId, input: { kind: "visit" }, now: at(-4 + i) });
    }
    expect((await memberRewards({ db: db(), userId: "m1", filter: "pending" })).items.map((r) => r.poolId)).toContain(created.value.id);
    await distributeEndedCampaigns({ db: db(), now: T });
    const [paid] = await db().select().from(rewardPool).where(eq(rewardPool.id, created.value.id));
    expect(paid).toMatchObject({ status: "paid", escrowed: 21n * E, returned: 7n * E });
    expect(await treasury()).toBe(start - 14n * E);
    expect((await balanceOf({ db: db(), userId: "m1", asset: Q }))[0]!.available).toBe(7n * E);
    const won = await memberRewards({ db: db(), userId: "m2", filter: "won" });
    expect(won.items).toMatchObject([{ poolId: created.value.id, status: "won", kind: "token", asset: Q, amount: 7n * E, position: 2 }]);
    expect(won.items[0]!.entryId).toBeGreaterThan(0);
    expect((await memberRewards({ db: db(), userId: "m3" })).items.filter((r) => r.poolId === created.value.id)).toEqual([]);

    const page = await projectRewards({ db: db(), projectId: "p", viewerRole: "owner", viewerId: "own", now: T });
    expect(page.pools.find((p) => p.id === created.value.id)).toMatchObject({ state: "paid", paidTo: 2, paidTotal: 14n * E, returned: 7n * E, secret: null });
    expect(page.depositRef).toMatch(/^0x[0-9a-f]{64}$/);
    const visitor = await projectRewards({ db: db(), projectId: "p", viewerRole: null, viewerId: null, now: T });
    expect(visitor).toMatchObject({ manages: false, treasury: [], own: [], depositRef: null });
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });
});
