// Property tests of token reward payouts on a real database and a real anvil: random campaigns
// (0–30 members, finishing times and leaderboard scores drawn from a few values so ties happen,
// some members finishing only part of the campaign), each with one or two token pools of random
// distributions and amounts (winners above the entrants, rank amounts with repeats, `everyone`
// totals that leave dust or pay nobody anything). Each run funds a fresh project's treasury,
// escrows the pools, plays the campaign, ends it and runs the distribution job (twice when a raffle
// must be frozen, then drawn). Then, against a model of who should win what: the grants, the
// pool's escrow (paid + returned = escrowed, nothing left), the treasury, every member's balance,
// the ledger's invariants — and a further run changes nothing.

import { randomUUID } from "node:crypto";
import { and, asc, eq, like, sql } from "drizzle-orm";
import fc from "fast-check";
import { createPublicClient, http, type Hex, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { user } from "#db/schema/auth";
import { journalEntry } from "#db/schema/ledger";
import { project, projectMember } from "#db/schema/projects";
import { campaign, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { awardXp } from "~/modules/leaderboards/leaderboards.server";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, checkLedger, credit, memberAvailable, poolEscrow, projectTreasury } from "~/modules/ledger/ledger.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { createTestDatabase } from "#tests/setup/test-db";
import { distributeEndedCampaigns } from "./distribute.server";
import { GRANTS_PER_ENTRY } from "./pay-grants.server";
import { drawChainOf, type DrawChains } from "./draw-chains.server";
import { drawRaffle } from "./draw-raffle";
import { entrantIdOf } from "./entrant-ids.server";
import { entrantListHash, raffleSeed } from "./raffle-proof";
import { createRewardPool, type RewardPool } from "./reward-pools.server";
import { poolMaximum, rankAmount, type RewardPoolInput } from "./reward.schema";
import { fundProject } from "./treasury.server";

const ASSET = questAsset(LOCAL_CHAIN_ID);
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The campaigns run from day −10 to day −1; the job runs at T and after. */
const T = new Date("2027-03-01T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);
/** When members do task A, task B, and get a bonus on the campaign's board: few values, so ties are common. */
const A_DAYS = [-9, -8, -7];
const B_DAYS = [-8, -6, -6, -5];
const BONUS_DAYS = [-3, -2];
const A_XP = 10;
const B_XP = 20;
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };
/** Random cases per test run; PAYOUT_RUNS raises it for a longer hunt. */
const RUNS = z.coerce.number().int().positive().default(40).parse(process.env.PAYOUT_RUNS);

let database: Database;
let localChain: LocalChain;
let chains: DrawChains;
let run = 0;
/** What the runs covered, checked at the end so a change in the generators cannot hollow the test out. */
const seen = new Map<string, number>();
const saw = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

beforeAll(async () => {
  localChain = await startLocalChain();
  const client = createPublicClient({ transport: http(localChain.url) }) as PublicClient;
  chains = new Map([[LOCAL_CHAIN_ID, drawChainOf(client, { chainId: LOCAL_CHAIN_ID, confirmations: 1 })]]);
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  await localChain?.stop();
});

type MemberSpec = {
  /** Sorts members apart from the order they are generated in, so ties by member id are not by index. */
  key: number;
  /** Indexes into A_DAYS / B_DAYS, or null when the member skipped that task. */
  a: number | null;
  b: number | null;
  bonus: { xp: number; day: number } | null;
};
type PoolSpec = Pick<RewardPoolInput, "distribution" | "winners" | "amount" | "rankAmounts">;

const tokenAmount = fc.oneof(fc.bigInt({ min: 1n, max: 60n }), fc.bigInt({ min: 1n, max: 10n ** 24n }));

const poolSpec: fc.Arbitrary<PoolSpec> = fc.oneof(
  fc.record({
    distribution: fc.constantFrom("fcfs" as const, "raffle" as const),
    winners: fc.integer({ min: 1, max: 40 }),
    amount: tokenAmount,
    rankAmounts: fc.constant(null),
  }),
  fc.integer({ min: 1, max: 40 }).chain((winners) =>
    fc.record({
      distribution: fc.constant("ranking" as const),
      winners: fc.constant(winners),
      amount: fc.constant(null),
      // Non-increasing, repeats allowed (the form's rule); ranks past the list get its last amount.
      rankAmounts: fc.array(tokenAmount, { minLength: 1, maxLength: Math.min(winners, 6) }).map((a) => [...a].sort((x, y) => (x < y ? 1 : x > y ? -1 : 0))),
    }),
  ),
  fc.record({ distribution: fc.constant("everyone" as const), winners: fc.constant(null), amount: tokenAmount, rankAmounts: fc.constant(null) }),
);

const memberSpec: fc.Arbitrary<MemberSpec> = fc.record({
  key: fc.integer({ min: 0, max: 999 }),
  a: fc.option(fc.nat({ max: A_DAYS.length - 1 }), { freq: 6 }),
  b: fc.option(fc.nat({ max: B_DAYS.length - 1 }), { freq: 6 }),
  bonus: fc.option(fc.record({ xp: fc.constantFrom(10, 20, 30), day: fc.nat({ max: BONUS_DAYS.length - 1 }) }), { freq: 2 }),
});

const caseArbitrary = fc.record({
  members: fc.uniqueArray(memberSpec, { maxLength: 30, selector: (m) => m.key }),
  pools: fc.array(poolSpec, { minLength: 1, maxLength: 2 }),
  /** What the treasury holds beyond the pools' escrow. */
  spare: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 20n })),
});
type Case = { members: MemberSpec[]; pools: PoolSpec[]; spare: bigint };

type Expected = { userId: string; position: number; amount: bigint };

/** The model: who completed (in finishing order) and the campaign board (best first), from the specs alone. */
function modelOf(members: (MemberSpec & { userId: string })[]) {
  const byId = (x: { userId: string }, y: { userId: string }) => (x.userId < y.userId ? -1 : x.userId > y.userId ? 1 : 0);
  const completers = members
    .filter((m) => m.a !== null && m.b !== null)
    .map((m) => ({ userId: m.userId, finished: Math.max(A_DAYS[m.a!]!, B_DAYS[m.b!]!) }))
    .sort((x, y) => x.finished - y.finished || byId(x, y))
    .map((c) => c.userId);
  const board = members
    .map((m) => {
      // Awards land in this order (A, B, bonus); a board entry's time is its latest award's.
      const awards = [
        m.a !== null ? { xp: A_XP, day: A_DAYS[m.a]! } : null,
        m.b !== null ? { xp: B_XP, day: B_DAYS[m.b]! } : null,
        m.bonus ? { xp: m.bonus.xp, day: BONUS_DAYS[m.bonus.day]! } : null,
      ].filter((x) => x !== null);
      return { userId: m.userId, score: awards.reduce((s, x) => s + x.xp, 0), reached: awards.at(-1)?.day ?? 0 };
    })
    .filter((e) => e.score > 0)
    .sort((x, y) => y.score - x.score || x.reached - y.reached || byId(x, y));
  return { completers, board };
}

const ENTRANT_KEY = "p".repeat(40);
const entrantIds = (poolId: string, members: string[]) => members.map((userId) => entrantIdOf({ key: ENTRANT_KEY, poolId, userId }));

/** The grants a pool should make, by the model; a raffle's by its recorded seed over the modelled entrants. */
function expectedGrants(spec: PoolSpec, model: ReturnType<typeof modelOf>, paid: RewardPool): Expected[] {
  const numbered = (ids: string[], amountOf: (rank: number) => bigint) => ids.map((userId, i) => ({ userId, position: i + 1, amount: amountOf(i + 1) }));
  switch (spec.distribution) {
    case "fcfs":
      return numbered(model.completers.slice(0, spec.winners!), () => spec.amount!);
    case "raffle": {
      // Drawn on the entrants' ids in this pool; paid to the members behind them.
      const ids = entrantIds(paid.id, model.completers);
      const memberOf = new Map(ids.map((id, i) => [id, model.completers[i]!]));
      const drawn = drawRaffle({ seed: paid.seed!, entrants: ids, winners: spec.winners! });
      return numbered(
        drawn.map((id) => memberOf.get(id)!),
        () => spec.amount!,
      );
    }
    case "ranking":
      return numbered(
        model.board.slice(0, spec.winners!).map((e) => e.userId),
        (rank) => rankAmount(spec.rankAmounts!, rank),
      );
    case "everyone": {
      const n = BigInt(model.completers.length);
      const share = n === 0n ? 0n : spec.amount! / n;
      return share === 0n ? [] : numbered(model.completers, () => share);
    }
  }
}

const grantsOf = (db: Db, poolId: string) =>
  db
    .select({ userId: rewardGrant.userId, position: rewardGrant.position, amount: rewardGrant.amount, entryId: rewardGrant.entryId })
    .from(rewardGrant)
    .where(eq(rewardGrant.poolId, poolId))
    .orderBy(asc(rewardGrant.position));

const poolRow = async (db: Db, poolId: string) => (await db.select().from(rewardPool).where(eq(rewardPool.id, poolId)))[0]!;

/** Everything a payout touches for this run, to compare before and after a run that should do nothing. */
async function snapshot(db: Db, prefix: string, poolIds: string[]) {
  const accounts = rowsOf(
    await db.execute(sql`select holder, name, asset, balance::text as balance from ledger_account
      where holder like ${`${prefix}%`} or holder like ${`project:${prefix}%`} or holder like ${`pool:${prefix}%`} order by holder, name, asset`),
  );
  const entries = rowsOf(await db.execute(sql`select count(*)::int as n from journal_entry`));
  const pools = await Promise.all(poolIds.map((id) => poolRow(db, id)));
  const grants = await Promise.all(poolIds.map((id) => grantsOf(db, id)));
  return { accounts, entries, pools, grants };
}

/** One run: a fresh project, owner, campaign and members (ids prefixed by the run), the pools, the play, the payout, the checks. */
async function check({ members: memberSpecs, pools: poolSpecs, spare }: Case) {
  const db = database.db;
  const prefix = `r${String(++run).padStart(3, "0")}x`;
  // Ids of one shape (letters and zero-padded digits), so PostgreSQL's collation orders them as JS does.
  const members = memberSpecs.map((m) => ({ ...m, userId: `${prefix}u${String(m.key).padStart(3, "0")}` }));
  const owner = `${prefix}own`;
  const projectId = `${prefix}p`;
  const campaignId = `${prefix}c`;
  const tasks = { a: `${prefix}ta`, b: `${prefix}tb` };

  await db.insert(user).values([owner, ...members.map((m) => m.userId)].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db.insert(project).values({ id: projectId, slug: projectId, name: "P" });
  await db.insert(projectMember).values({ projectId, userId: owner, role: "owner" });
  await db.insert(campaign).values({ id: campaignId, projectId, slug: "season", name: "Season", startsAt: at(-10), endsAt: at(-1), publishedAt: at(-11) });
  const base = {
    projectId,
    campaignId,
    type: "visit_link" as const,
    verification: "none" as const,
    config: { url: "https://example.com" },
    publishedAt: at(-11),
  };
  await db.insert(task).values([
    { ...base, id: tasks.a, title: "A", xp: A_XP },
    { ...base, id: tasks.b, title: "B", xp: B_XP },
  ]);

  // The treasury: the owner's tokens, sent through the Fund form's path.
  const inputs: RewardPoolInput[] = poolSpecs.map((p) => ({ kind: "token", asset: ASSET, ...p }));
  const funded = inputs.reduce((sum, p) => sum + poolMaximum(p), 0n) + spare;
  await credit({ db, key: `${prefix}:grant`, kind: "test_grant", userId: owner, asset: ASSET, amount: funded });
  const fundedOk = await fundProject({ db, projectId, actorId: owner, input: { asset: ASSET, amount: funded, requestKey: randomUUID() } });
  expect(fundedOk.ok).toBe(true);

  const pools: RewardPool[] = [];
  for (const input of inputs) {
    const created = await createRewardPool({ db, campaignId, actorId: owner, input, raffleChainId: LOCAL_CHAIN_ID, now: at(-9.5) });
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    expect(created.value.escrowed).toBe(poolMaximum(input));
    expect(await accountBalance({ db, account: poolEscrow(created.value.id), asset: ASSET })).toBe(poolMaximum(input));
    pools.push(created.value);
  }
  expect(await accountBalance({ db, account: projectTreasury(projectId), asset: ASSET })).toBe(spare);

  // The campaign, as members play it: tasks through the real attempt path, bonuses straight to the board.
  for (const m of members) {
    for (const [taskId, day] of [
      [tasks.a, m.a === null ? null : A_DAYS[m.a]!],
      [tasks.b, m.b === null ? null : B_DAYS[m.b]!],
    ] as const) {
      if (day === null) continue;
      const attempt = await attemptTask({ db, taskId, userId: m.userId, input: { kind: "visit" }, now: at(day) });
      expect(attempt.ok).toBe(true);
    }
    if (m.bonus) {
      await awardXp({
        db,
        award: {
          userId: m.userId,
          projectId,
          campaignId,
          sourceType: "test_bonus",
          sourceId: campaignId,
          amount: m.bonus.xp,
          at: at(BONUS_DAYS[m.bonus.day]!),
        },
      });
    }
  }
  const model = modelOf(members);

  // The job: a raffle is frozen on the first run and drawn on the next.
  const failures: unknown[] = [];
  const job = (now: Date) => distributeEndedCampaigns({ db, chains, entrantKey: ENTRANT_KEY, now, onPoolError: (_, error) => failures.push(error) });
  expect(await job(at(-1.5))).toMatchObject({ pools: 0, frozen: 0 }); // not ended yet (earlier runs are all paid)
  const raffles = poolSpecs.filter((p) => p.distribution === "raffle").length;
  const first = await job(T);
  expect(first.frozen).toBe(raffles);
  if (raffles > 0) {
    for (const p of pools.filter((p) => p.distribution === "raffle")) {
      expect(await poolRow(db, p.id)).toMatchObject({
        status: "frozen",
        entrantsCount: model.completers.length,
        entrantsHash: entrantListHash(entrantIds(p.id, model.completers)),
      });
    }
    expect(await job(new Date(T.getTime() + HOUR))).toMatchObject({ frozen: 0 });
  }
  expect(failures).toEqual([]);

  let paidInAll = 0n;
  const received = new Map<string, bigint>();
  for (const [i, created] of pools.entries()) {
    const spec = poolSpecs[i]!;
    const paid = await poolRow(db, created.id);
    expect(paid.status).toBe("paid");
    if (spec.distribution === "raffle") {
      expect(paid.seed).toBe(
        raffleSeed({
          secret: created.secret as Hex,
          blockHash: paid.drawBlockHash as Hex,
          entrantsHash: entrantListHash(entrantIds(created.id, model.completers)),
        }),
      );
    }
    const grants = await grantsOf(db, created.id);
    const expected = expectedGrants(spec, model, paid);
    expect(grants.map(({ userId, position, amount }) => ({ userId, position, amount }))).toEqual(expected);
    // Nobody twice, every grant paid by an entry of this pool (a batch of at most GRANTS_PER_ENTRY).
    expect(new Set(grants.map((g) => g.userId)).size).toBe(grants.length);
    const paidTotal = grants.reduce((sum, g) => sum + g.amount, 0n);
    expect(paidTotal + paid.returned).toBe(paid.escrowed);
    expect(paid.escrowed).toBe(poolMaximum(spec));
    expect(await accountBalance({ db, account: poolEscrow(created.id), asset: ASSET })).toBe(0n);
    const entries = await db
      .select({ id: journalEntry.id, kind: journalEntry.kind, key: journalEntry.idempotencyKey })
      .from(journalEntry)
      .where(and(eq(journalEntry.reference, created.id), like(journalEntry.idempotencyKey, `pool:${created.id}:%`)));
    const batches = entries.filter((e) => e.kind === "reward_paid");
    expect(batches).toHaveLength(Math.ceil(grants.length / GRANTS_PER_ENTRY));
    expect(grants.every((g) => batches.some((b) => b.id === g.entryId))).toBe(true);
    expect(entries.filter((e) => e.kind === "reward_returned")).toHaveLength(paid.returned > 0n ? 1 : 0);

    paidInAll += paidTotal;
    for (const g of grants) received.set(g.userId, (received.get(g.userId) ?? 0n) + g.amount);

    saw(spec.distribution);
    if (spec.winners !== null && spec.winners > (spec.distribution === "ranking" ? model.board : model.completers).length) saw("winners > entrants");
    if (spec.distribution === "everyone" && model.completers.length > 0 && paid.returned > 0n) saw(grants.length > 0 ? "everyone dust" : "everyone share 0");
    if (expected.length === 0) saw("nobody paid");
    const topScores = model.board.slice(0, spec.winners ?? 0).map((e) => e.score);
    if (spec.distribution === "ranking" && new Set(topScores).size < topScores.length) saw("ranking ties");
  }
  const finished = members.filter((x) => x.a !== null && x.b !== null).map((x) => Math.max(A_DAYS[x.a!]!, B_DAYS[x.b!]!));
  if (new Set(finished).size < finished.length) saw("finishing ties");

  // The treasury kept what was not paid; each member holds exactly what they won (the owner nothing).
  expect(await accountBalance({ db, account: projectTreasury(projectId), asset: ASSET })).toBe(funded - paidInAll);
  for (const id of [owner, ...members.map((m) => m.userId)]) {
    expect(await accountBalance({ db, account: memberAvailable(id), asset: ASSET }), id).toBe(received.get(id) ?? 0n);
  }
  expect(await checkLedger({ db })).toEqual(CLEAN);

  // Another run, later: nothing is due, nothing moves.
  const before = await snapshot(
    db,
    prefix,
    pools.map((p) => p.id),
  );
  expect(await job(new Date(T.getTime() + 2 * HOUR))).toEqual({ pools: 0, grants: 0, frozen: 0, failed: 0 });
  expect(
    await snapshot(
      db,
      prefix,
      pools.map((p) => p.id),
    ),
  ).toEqual(before);
}

/** A member who finished on the same day as others, possibly with a bonus. */
const m = (key: number, a: number | null, b: number | null, bonus: MemberSpec["bonus"] = null): MemberSpec => ({ key, a, b, bonus });

describe("token reward payouts", () => {
  it("pay the model's winners exactly, from the escrow, the rest back to the treasury, once", async () => {
    await fc.assert(fc.asyncProperty(caseArbitrary, check), {
      numRuns: RUNS,
      examples: [
        // Ties everywhere: four finish on day −6 (A on −9/−8, B on −6), board ties on score and time.
        [
          {
            members: [m(7, 0, 1), m(3, 1, 2), m(5, 0, 1, { xp: 10, day: 0 }), m(1, 1, 1, { xp: 10, day: 0 }), m(9, 2, null, { xp: 30, day: 1 }), m(2, null, 3)],
            pools: [
              { distribution: "everyone", winners: null, amount: 1_000_000_000_000_000_003n, rankAmounts: null },
              { distribution: "ranking", winners: 9, amount: null, rankAmounts: [500n, 300n, 300n] },
            ],
            spare: 0n,
          },
        ],
        // More winners than entrants, a raffle included; a split smaller than the entrants.
        [
          {
            members: [m(4, 0, 0), m(8, 2, 3), m(6, 1, 0)],
            pools: [
              { distribution: "raffle", winners: 5, amount: 7n, rankAmounts: null },
              { distribution: "everyone", winners: null, amount: 2n, rankAmounts: null },
            ],
            spare: 11n,
          },
        ],
        // Nobody entered.
        [{ members: [], pools: [{ distribution: "fcfs", winners: 3, amount: 10n ** 18n, rankAmounts: null }], spare: 0n }],
      ],
    });
    for (const what of [
      "fcfs",
      "raffle",
      "ranking",
      "everyone",
      "winners > entrants",
      "everyone dust",
      "everyone share 0",
      "nobody paid",
      "ranking ties",
      "finishing ties",
    ]) {
      expect(seen.get(what) ?? 0, what).toBeGreaterThan(0);
    }
  }, 180_000);
});
