// Faults during token reward payouts: the job's process killed (SIGKILL) half-way through a large
// pool, inside the transaction of its second grant batch, once the first is committed; and two job
// runs racing over the same pools. Either way every winner is credited exactly once and every unit
// of escrow ends up paid or back in the treasury.

import { randomUUID } from "node:crypto";
import { asc, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { user } from "#db/schema/auth";
import { journalEntry } from "#db/schema/ledger";
import { project, projectMember } from "#db/schema/projects";
import { campaign, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { questAsset } from "~/modules/ledger/assets";
import { awardXp } from "~/modules/leaderboards/leaderboards.server";
import { accountBalance, checkLedger, credit, poolEscrow, projectTreasury } from "~/modules/ledger/ledger.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startJobChild } from "#tests/setup/job-child";
import { createTestDatabase, sharedDatabase } from "#tests/setup/test-db";
import { distributeEndedCampaigns } from "./distribute.server";
import { GRANTS_PER_ENTRY } from "./pay-grants.server";
import { createRewardPool, type RewardPool } from "./reward-pools.server";
import type { RewardPoolInput } from "./reward.schema";
import { fundProject } from "./treasury.server";
import { failureMessage } from "~/lib/result";

const ASSET = questAsset(LOCAL_CHAIN_ID);
const DAY = 86_400_000;
const T = new Date("2027-05-01T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };
const NOTHING = { pools: 0, grants: 0, frozen: 0, failed: 0 };
const onPostgres = Boolean(process.env.DATABASE_URL);

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

type Seeded = { projectId: string; campaignId: string; owner: string; members: string[]; funded: bigint };

/**
 * A project whose owner funded its treasury with `funded`, and an ended campaign (day −10 to −1)
 * with one task that `count` members completed, set-based in SQL: member i (1-based, ids
 * `<prefix>m000001`…) finished at day −9 plus i div 3 seconds, so finishing ties come in threes.
 * With `members` given, those existing members complete it instead.
 */
async function seedCampaign(
  db: Db,
  { prefix, count, funded, members }: { prefix: string; count: number; funded: bigint; members?: string[] },
): Promise<Seeded> {
  const owner = `${prefix}own`;
  const projectId = `${prefix}p`;
  const campaignId = `${prefix}c`;
  const taskId = `${prefix}t`;
  await db.insert(user).values({ id: owner, email: `${owner}@example.com`, name: owner });
  if (!members) {
    await db.execute(sql`insert into "user" (id, name, email)
      select ${prefix} || 'm' || lpad(i::text, 6, '0'), 'M' || i, ${prefix} || 'm' || i || '@example.com' from generate_series(1, ${count}) i`);
  }
  const ids = members ?? Array.from({ length: count }, (_, i) => `${prefix}m${String(i + 1).padStart(6, "0")}`);
  await db.insert(project).values({ id: projectId, slug: projectId, name: "P" });
  await db.insert(projectMember).values({ projectId, userId: owner, role: "owner" });
  await db.insert(campaign).values({ id: campaignId, projectId, slug: "season", name: "Season", startsAt: at(-10), endsAt: at(-1), publishedAt: at(-11) });
  await db.insert(task).values({
    id: taskId,
    projectId,
    campaignId,
    title: "Visit",
    type: "visit_link",
    verification: "none",
    xp: 10,
    config: { url: "https://example.com" },
    publishedAt: at(-11),
  });
  await db.execute(sql`insert into completion (id, task_id, user_id, period, status, created_at, updated_at)
    select ${prefix} || 'k' || ord, ${taskId}, u.id, 'once', 'approved',
           ${at(-9).toISOString()}::timestamptz + (ord / 3) * interval '1 second', ${at(-9).toISOString()}::timestamptz
    from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as u(id, ord)`);
  await credit({ db, key: `${prefix}:grant`, kind: "test_grant", userId: owner, asset: ASSET, amount: funded });
  const result = await fundProject({ db, projectId, actorId: owner, input: { asset: ASSET, amount: funded, requestKey: randomUUID() } });
  expect(result.ok).toBe(true);
  return { projectId, campaignId, owner, members: ids, funded };
}

/** A token pool saved while the campaign was live; `minute` orders pools saved one after another (the job pays the oldest first). */
async function tokenPool(db: Db, seeded: Seeded, input: Omit<RewardPoolInput, "kind" | "asset">, minute = 0) {
  const now = new Date(at(-9.5).getTime() + minute * 60_000);
  const created = await createRewardPool({ db, campaignId: seeded.campaignId, actorId: seeded.owner, input: { kind: "token", asset: ASSET, ...input }, now });
  if (!created.ok) throw new Error(failureMessage(created));
  return created.value;
}

const poolRow = async (db: Db, id: string) => (await db.select().from(rewardPool).where(eq(rewardPool.id, id)))[0]!;
const grantsOf = (db: Db, poolId: string) =>
  db
    .select({ userId: rewardGrant.userId, amount: rewardGrant.amount, entryId: rewardGrant.entryId })
    .from(rewardGrant)
    .where(eq(rewardGrant.poolId, poolId))
    .orderBy(asc(rewardGrant.position));
const entriesOf = (db: Db, poolId: string) =>
  db
    .select({ id: journalEntry.id, kind: journalEntry.kind })
    .from(journalEntry)
    .where(like(journalEntry.idempotencyKey, `pool:${poolId}:%`));

/** Each member's available balance in one query (the members are many). */
async function availableOf(db: Db, members: string[]) {
  const rows = rowsOf(
    await db.execute(sql`select u.id, coalesce(a.balance, 0)::text as balance from jsonb_array_elements_text(${JSON.stringify(members)}::jsonb) as u(id)
      left join ledger_account a on a.holder = u.id and a.name = 'available' and a.asset = ${ASSET}`),
  );
  return new Map(rows.map((r) => [String(r.id), BigInt(String(r.balance))]));
}

/**
 * A paid pool: `expected` grants (member → amount) each paid once by one of the pool's batch
 * entries, the rest returned in one entry, and its escrow empty.
 */
async function expectPaidOnce(db: Db, pool: RewardPool, expected: Map<string, bigint>) {
  const row = await poolRow(db, pool.id);
  expect(row.status).toBe("paid");
  const grants = await grantsOf(db, pool.id);
  expect(grants).toHaveLength(expected.size);
  expect(new Set(grants.map((g) => g.userId)).size).toBe(grants.length);
  for (const g of grants) expect(g.amount).toBe(expected.get(g.userId));
  const paid = grants.reduce((sum, g) => sum + g.amount, 0n);
  expect(paid + row.returned).toBe(row.escrowed);
  expect(await accountBalance({ db, account: poolEscrow(pool.id), asset: ASSET })).toBe(0n);
  const entries = await entriesOf(db, pool.id);
  const batches = entries.filter((e) => e.kind === "reward_paid");
  expect(batches).toHaveLength(Math.ceil(grants.length / GRANTS_PER_ENTRY));
  const perBatch = new Map<number, number>();
  for (const g of grants) perBatch.set(g.entryId!, (perBatch.get(g.entryId!) ?? 0) + 1);
  expect([...perBatch.keys()].sort()).toEqual(batches.map((b) => b.id).sort());
  expect(Math.max(...perBatch.values())).toBeLessThanOrEqual(GRANTS_PER_ENTRY);
  expect(entries.filter((e) => e.kind === "reward_returned")).toHaveLength(row.returned > 0n ? 1 : 0);
  expect(entries.filter((e) => e.kind === "reward_escrow")).toHaveLength(1);
  return paid;
}

describe("the job's process is killed (SIGKILL) in the middle of a large pool", () => {
  it("keeps the batches paid before the kill; the next run pays the rest, every winner exactly once", async () => {
    const shared = await sharedDatabase(database, { applicationName: "questline-rewards-child" });
    try {
      const members = 2_345; // three batches
      const fcfsWinners = 1_200; // two batches
      const split = 10n ** 21n + 1_234n; // 2,345 does not divide it: dust goes back
      const funded = 7n * BigInt(fcfsWinners) + split + 999n;
      const seeded = await seedCampaign(shared.db, { prefix: "kill", count: members, funded });
      // Paid first (the older pool), in full, before the process dies in the second one.
      const first = await tokenPool(shared.db, seeded, { distribution: "fcfs", winners: fcfsWinners, amount: 7n, rankAmounts: null });
      const large = await tokenPool(shared.db, seeded, { distribution: "everyone", winners: null, amount: split, rankAmounts: null }, 1);
      await shared.handOver();

      const child = startJobChild("tests/setup/rewards-child.ts", {
        ...shared.env,
        CHILD_NOW: T.toISOString(),
        CHILD_STALL_POOL: large.id,
        CHILD_STALL_BATCH: "1",
      });
      await child.stopsWhen(() => expect(child.output()).toContain(`stalled after grant batch 1 of ${large.id}`));
      if (onPostgres) {
        // Seen from outside while it hangs: the first pool is committed, and the second's plan and first batch; its second batch is not.
        expect((await poolRow(shared.db, first.id)).status).toBe("paid");
        expect((await poolRow(shared.db, large.id)).status).toBe("distributing");
        expect((await entriesOf(shared.db, large.id)).map((e) => e.kind).sort()).toEqual(["reward_escrow", "reward_paid"]);
        const open = rowsOf(
          await shared.db.execute(sql`select state from pg_stat_activity where application_name = 'questline-rewards-child' and datname = current_database()`),
        );
        expect(open.map((r) => r.state)).toContain("idle in transaction");
      }
      expect(await child.kill()).toBe("SIGKILL");
      expect(child.output()).not.toContain("job done");

      const db = await shared.takeBack();
      if (onPostgres) {
        // The server ends the dead process's session (and its transaction) once it sees the socket close.
        await vi.waitFor(
          async () => {
            const left = rowsOf(await db.execute(sql`select pid from pg_stat_activity where application_name = 'questline-rewards-child'`));
            expect(left).toEqual([]);
          },
          { timeout: 20_000, interval: 50 },
        );
      }
      // After the crash: the first pool paid; the second planned, its first batch paid (the first
      // members by id) and the rest of its escrow still there.
      const completers = seeded.members; // in finishing order (ties by id: the ids follow that order)
      const fcfsExpected = new Map(completers.slice(0, fcfsWinners).map((id) => [id, 7n]));
      const share = split / BigInt(members);
      await expectPaidOnce(db, first, fcfsExpected);
      expect(await poolRow(db, large.id)).toMatchObject({ status: "distributing", returned: 0n, paidAt: null, escrowed: split });
      const planned = await grantsOf(db, large.id);
      expect(planned).toHaveLength(members);
      const paidFirst = planned.filter((g) => g.entryId !== null).map((g) => g.userId);
      expect(paidFirst.sort()).toEqual([...completers].sort().slice(0, GRANTS_PER_ENTRY));
      expect((await entriesOf(db, large.id)).map((e) => e.kind).sort()).toEqual(["reward_escrow", "reward_paid"]);
      expect(await accountBalance({ db, account: poolEscrow(large.id), asset: ASSET })).toBe(split - share * BigInt(GRANTS_PER_ENTRY));
      expect(await checkLedger({ db })).toEqual(CLEAN);

      expect(await distributeEndedCampaigns({ db, now: new Date(T.getTime() + 60_000) })).toEqual({ pools: 1, grants: members, frozen: 0, failed: 0 });
      const paid = (await expectPaidOnce(db, first, fcfsExpected)) + (await expectPaidOnce(db, large, new Map(completers.map((id) => [id, share]))));
      expect((await poolRow(db, large.id)).returned).toBe(split % BigInt(members));
      const balances = await availableOf(db, completers);
      completers.forEach((id, i) => expect(balances.get(id), id).toBe(share + (i < fcfsWinners ? 7n : 0n)));
      expect(await accountBalance({ db, account: projectTreasury(seeded.projectId), asset: ASSET })).toBe(funded - paid);
      expect(await checkLedger({ db })).toEqual(CLEAN);
      expect(await distributeEndedCampaigns({ db, now: new Date(T.getTime() + 120_000) })).toEqual(NOTHING);
    } finally {
      await shared.close();
    }
  }, 120_000);
});

describe("two job runs race over the same token pools", () => {
  it("pays each pool once, each winner once, and the ledger stays whole", async () => {
    const db = database.db;
    const count = 1_500;
    let members: string[] | undefined;
    for (let round = 1; round <= 3; round++) {
      const split = 10n ** 20n + BigInt(round);
      const fcfs = 1_100;
      const perRank = [900n, 500n, 500n, 3n];
      const funded = 5n * BigInt(fcfs) + split + 3n * 1_000n;
      const seeded = await seedCampaign(db, { prefix: `race${round}`, count, funded, members });
      members = seeded.members;
      const pools = [
        await tokenPool(db, seeded, { distribution: "fcfs", winners: fcfs, amount: 5n, rankAmounts: null }),
        await tokenPool(db, seeded, { distribution: "everyone", winners: null, amount: split, rankAmounts: null }, 1),
        // Nobody is on this campaign's board (the completions were seeded, not awarded): nothing paid, all returned.
        await tokenPool(db, seeded, { distribution: "ranking", winners: 10, amount: null, rankAmounts: perRank }, 2),
      ];
      const before = await availableOf(db, members);
      const now = new Date(T.getTime() + round * 60_000);
      const runs = await Promise.all([distributeEndedCampaigns({ db, now }), distributeEndedCampaigns({ db, now }), distributeEndedCampaigns({ db, now })]);
      expect(runs.reduce((n, r) => n + r.pools, 0)).toBe(3);
      expect(runs.reduce((n, r) => n + r.grants, 0)).toBe(fcfs + count);
      expect(runs.every((r) => r.failed === 0)).toBe(true);

      const share = split / BigInt(count);
      const paid =
        (await expectPaidOnce(db, pools[0]!, new Map(members.slice(0, fcfs).map((id) => [id, 5n])))) +
        (await expectPaidOnce(db, pools[1]!, new Map(members.map((id) => [id, share])))) +
        (await expectPaidOnce(db, pools[2]!, new Map()));
      const after = await availableOf(db, members);
      members.forEach((id, i) => expect(after.get(id)! - before.get(id)!, id).toBe(share + (i < fcfs ? 5n : 0n)));
      expect(await accountBalance({ db, account: projectTreasury(seeded.projectId), asset: ASSET })).toBe(funded - paid);
      expect(await checkLedger({ db })).toEqual(CLEAN);
      expect(await Promise.all([distributeEndedCampaigns({ db, now }), distributeEndedCampaigns({ db, now })])).toEqual([NOTHING, NOTHING]);
    }
    // Nothing of any pool was posted twice.
    const reused = rowsOf(await db.execute(sql`select idempotency_key from journal_entry group by idempotency_key having count(*) > 1`));
    expect(reused).toEqual([]);
    const doubled = rowsOf(await db.execute(sql`select pool_id, user_id from reward_grant group by pool_id, user_id having count(*) > 1`));
    expect(doubled).toEqual([]);
  }, 120_000);

  it("pays each pool once when two pools pay the same winners in opposite orders (a run may fail; the next pays)", async () => {
    const db = database.db;
    // Three batches each: the fcfs pool pays in finishing order, the ranking pool the board's
    // order, which is the reverse (the last finisher has the most XP). On PostgreSQL the two runs'
    // transactions take the same members' accounts batch by batch in opposite orders and can
    // deadlock: PostgreSQL then aborts one, reported as a failed pool, which stays due.
    const count = 2_100;
    const seeded = await seedCampaign(db, { prefix: "cross", count, funded: 3n * BigInt(count) + 5n * BigInt(count) });
    for (const [i, userId] of seeded.members.entries()) {
      await awardXp({
        db,
        award: {
          userId,
          projectId: seeded.projectId,
          campaignId: seeded.campaignId,
          sourceType: "test_score",
          sourceId: seeded.campaignId,
          amount: i + 1,
          at: at(-5),
        },
      });
    }
    const fcfs = await tokenPool(db, seeded, { distribution: "fcfs", winners: count, amount: 3n, rankAmounts: null });
    const ranking = await tokenPool(db, seeded, { distribution: "ranking", winners: count, amount: null, rankAmounts: [5n] }, 1);
    const failures: string[] = [];
    const job = () => distributeEndedCampaigns({ db, now: new Date(T.getTime() + 3_600_000), onPoolError: (poolId) => failures.push(poolId) });
    const runs = [...(await Promise.all([job(), job()])), await job()];
    expect(runs.reduce((n, r) => n + r.pools, 0)).toBe(2);
    expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(failures.length);
    if (failures.length > 0) console.info(`opposite-order race: ${failures.length} pool run(s) failed (deadlock) and were paid by a later run`);
    expect(await job()).toEqual(NOTHING);

    const paid =
      (await expectPaidOnce(db, fcfs, new Map(seeded.members.map((id) => [id, 3n])))) +
      (await expectPaidOnce(db, ranking, new Map(seeded.members.map((id) => [id, 5n]))));
    expect((await grantsOf(db, ranking.id)).slice(0, 3).map((g) => g.userId)).toEqual(seeded.members.slice(-3).reverse());
    const balances = await availableOf(db, seeded.members);
    for (const id of seeded.members) expect(balances.get(id), id).toBe(8n);
    expect(await accountBalance({ db, account: projectTreasury(seeded.projectId), asset: ASSET })).toBe(seeded.funded - paid);
    expect(await checkLedger({ db })).toEqual(CLEAN);
  }, 120_000);
});

describe("a payout larger than a batch", () => {
  it("pays a batch per transaction, answers other queries between them, and resumes after a run dies between batches", async () => {
    const members = 2_345; // three batches
    const split = 10n ** 18n + 11n;
    const seeded = await seedCampaign(database.db, { prefix: "batch", count: members, funded: split });
    const pool = await tokenPool(database.db, seeded, { distribution: "everyone", winners: null, amount: split, rankAmounts: null });
    const share = split / BigInt(members);
    const paidGrants = async () =>
      Number(rowsOf(await database.db.execute(sql`select count(*)::int as n from reward_grant where pool_id = ${pool.id} and entry_id is not null`))[0]!.n);

    // The job's handle: counts its transactions, asks the same database a question as soon as the
    // first batch is committed, and (for the first run) dies inside the third batch's transaction.
    let started = 0;
    let dieIn: number | null = 4; // the plan, the first and second batches, then the third
    let asked: Promise<number> | null = null;
    const job = new Proxy(database.db, {
      get(target, prop) {
        if (prop === "transaction") {
          return async (run: (tx: Db) => Promise<unknown>) => {
            const n = ++started;
            const result = await target.transaction(async (tx) => {
              const value = await run(tx);
              if (n === dieIn) throw new Error("the process died");
              return value;
            });
            if (n === 2 && !asked) asked = paidGrants();
            return result;
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    }) as Db;

    const failures: unknown[] = [];
    const crashed = await distributeEndedCampaigns({ db: job, now: T, onPoolError: (_, error) => failures.push(error) });
    expect(crashed).toEqual({ pools: 0, grants: 0, frozen: 0, failed: 1 });
    expect(String(failures[0])).toContain("the process died");
    expect(started).toBe(4);
    // The question asked once the first batch was committed was answered before the second was:
    // the database served it between two batches, not after the payout.
    expect(await asked).toBe(GRANTS_PER_ENTRY);
    // The two batches committed before the death stay paid; the third rolled back.
    expect(await poolRow(database.db, pool.id)).toMatchObject({ status: "distributing", paidAt: null });
    expect(await paidGrants()).toBe(2 * GRANTS_PER_ENTRY);
    expect(await accountBalance({ db: database.db, account: poolEscrow(pool.id), asset: ASSET })).toBe(split - share * BigInt(2 * GRANTS_PER_ENTRY));
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);

    // The next run picks up where the first stopped: the last batch, then the pool's end, a transaction each.
    started = 0;
    dieIn = null;
    asked = null;
    expect(await distributeEndedCampaigns({ db: job, now: new Date(T.getTime() + 60_000) })).toEqual({ pools: 1, grants: members, frozen: 0, failed: 0 });
    expect(started).toBe(2);
    const paid = await expectPaidOnce(database.db, pool, new Map(seeded.members.map((id) => [id, share])));
    expect(paid).toBe(share * BigInt(members));
    const balances = await availableOf(database.db, seeded.members);
    for (const id of seeded.members) expect(balances.get(id), id).toBe(share);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
    expect(await distributeEndedCampaigns({ db: job, now: new Date(T.getTime() + 120_000) })).toEqual(NOTHING);
  }, 120_000);
});
