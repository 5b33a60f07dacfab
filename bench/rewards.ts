// Reward payout benchmark: `npm run bench -- rewards` (PostgreSQL with DATABASE_URL, else PGlite).
//
// Seeds, set-based in SQL, BENCH_REWARD_ENTRANTS members (100,000) who all completed an ended
// campaign's one task (approved, finishing times with ties), and a project treasury funded through
// the Fund path. Each payout saves a fresh token pool (its maximum escrowed from the treasury),
// times `distributeEndedCampaigns` paying it, and checks the result (one grant per winner, each in
// one batch entry, escrow empty, paid + returned = escrowed). Payouts, in order:
//   - an `everyone` pool to all entrants, who hold no ledger account yet: the payout opens them;
//   - then BENCH_REWARD_ROUNDS (3) rounds of an `everyone` pool to all (a total that leaves dust)
//     and an `fcfs` pool of 10,000 winners, to members who now hold an account.
// Figures (medians of the rounds) are printed as `BENCH <name> <value> <unit>`.
//
// BENCH_REWARD_STALE_STATS=1 analyzes the ledger while it is nearly empty, as autovacuum does on a
// young deployment, before the first payout: the journal_line → ledger_account foreign-key check
// then keeps a sequential-scan plan for the whole payout, and the first payout turns quadratic.

import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { rewardPool } from "../db/schema/rewards.ts";
import { rowsOf, type Database, type Db } from "../app/lib/db.server.ts";
import { failureMessage } from "../app/lib/result.ts";
import { questAsset } from "../app/modules/ledger/assets.ts";
import { accountBalance, checkLedger, credit, poolEscrow } from "../app/modules/ledger/ledger.server.ts";
import { distributeEndedCampaigns } from "../app/modules/rewards/distribute.server.ts";
import { GRANTS_PER_ENTRY } from "../app/modules/rewards/pay-grants.server.ts";
import { createRewardPool } from "../app/modules/rewards/reward-pools.server.ts";
import type { RewardPoolInput } from "../app/modules/rewards/reward.schema.ts";
import { fundProject } from "../app/modules/rewards/treasury.server.ts";
import { withBenchDatabase } from "./database.ts";
import { bench, log, median, timed } from "./stats.ts";

const env = z
  .object({
    BENCH_REWARD_ENTRANTS: z.coerce.number().int().min(10).default(100_000),
    BENCH_REWARD_ROUNDS: z.coerce.number().int().min(1).default(3),
    BENCH_REWARD_STALE_STATS: z.enum(["0", "1"]).default("0"),
  })
  .parse(process.env);

const ENTRANTS = env.BENCH_REWARD_ENTRANTS;
const ROUNDS = env.BENCH_REWARD_ROUNDS;
const FCFS_WINNERS = Math.min(10_000, ENTRANTS);
const ASSET = questAsset(31337);
const UNIT = 10n ** 18n;
const PROJECT = "bench";
const CAMPAIGN = "bench-campaign";
const OWNER = "bench-owner";
const DAY = 86_400_000;
/** The campaign runs from day −10 to day −1 of T; pools are saved on day −9.5 and paid from T on. */
const T = new Date("2027-06-01T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);

/** Members, project, campaign, task and approved completions straight in SQL; the treasury through the Fund path. */
async function seed({ db }: Database, funding: bigint) {
  await timed(`members (${ENTRANTS.toLocaleString("en")})`, () =>
    db.execute(sql`insert into "user" (id, name, email)
      select 'b' || lpad(i::text, 7, '0'), 'Member ' || i, 'b' || i || '@bench.invalid' from generate_series(1, ${ENTRANTS}) i`),
  );
  await db.execute(sql`insert into "user" (id, name, email) values (${OWNER}, 'Owner', 'owner@bench.invalid')`);
  await db.execute(sql`insert into project (id, slug, name) values (${PROJECT}, ${PROJECT}, 'Bench')`);
  await db.execute(sql`insert into project_member (project_id, user_id, role) values (${PROJECT}, ${OWNER}, 'owner')`);
  await db.execute(sql`insert into campaign (id, project_id, slug, name, starts_at, ends_at, published_at)
    values (${CAMPAIGN}, ${PROJECT}, 'season', 'Season', ${at(-10).toISOString()}, ${at(-1).toISOString()}, ${at(-11).toISOString()})`);
  await db.execute(sql`insert into task (id, project_id, campaign_id, title, type, verification, xp, config, published_at)
    values ('bench-task', ${PROJECT}, ${CAMPAIGN}, 'Visit', 'visit_link', 'none', 10, '{"url":"https://example.com"}', ${at(-11).toISOString()})`);
  // Finishing times over eight days, seven members to a second: ties, broken by member id.
  await timed(`approved completions (${ENTRANTS.toLocaleString("en")})`, () =>
    db.execute(sql`insert into completion (id, task_id, user_id, period, status, created_at, updated_at)
      select 'bc' || i, 'bench-task', 'b' || lpad(i::text, 7, '0'), 'once', 'approved',
             ${at(-9).toISOString()}::timestamptz + (i / 7) * interval '1 second', ${at(-9).toISOString()}::timestamptz
      from generate_series(1, ${ENTRANTS}) i`),
  );
  await db.execute(sql`analyze "user", completion, task, campaign`);
  await credit({ db, key: "bench:owner-grant", kind: "bench_credit", userId: OWNER, asset: ASSET, amount: funding });
  const funded = await fundProject({ db, projectId: PROJECT, actorId: OWNER, input: { asset: ASSET, amount: funding, requestKey: randomUUID() } });
  if (!funded.ok) throw new Error(`funding the treasury failed: ${failureMessage(funded)}`);
  if (env.BENCH_REWARD_STALE_STATS === "1") await db.execute(sql`analyze ledger_account, journal_entry, journal_line`);
}

/** Saves a token pool on the campaign while it was live (escrowing its maximum). */
async function savePool(db: Db, input: Omit<RewardPoolInput, "kind" | "asset">) {
  const created = await createRewardPool({ db, campaignId: CAMPAIGN, actorId: OWNER, input: { kind: "token", asset: ASSET, ...input }, now: at(-9.5) });
  if (!created.ok) throw new Error(`saving the pool failed: ${failureMessage(created)}`);
  return created.value;
}

/** One timed payout of a fresh pool, checked afterwards; returns the seconds it took. */
async function payout(db: Db, label: string, input: Omit<RewardPoolInput, "kind" | "asset">, winners: number, round: number) {
  const pool = await savePool(db, input);
  const started = performance.now();
  const summary = await distributeEndedCampaigns({ db, now: new Date(T.getTime() + round * 60_000) });
  const seconds = (performance.now() - started) / 1000;
  if (summary.pools !== 1 || summary.grants !== winners || summary.failed !== 0) throw new Error(`${label}: unexpected run ${JSON.stringify(summary)}`);
  const [paid] = await db.select().from(rewardPool).where(eq(rewardPool.id, pool.id));
  const [grants] = rowsOf(
    await db.execute(sql`select count(*)::int as n, count(distinct user_id)::int as members, coalesce(sum(amount), 0)::text as total,
      count(distinct entry_id)::int as entries, count(*) filter (where entry_id is null)::int as unpaid from reward_grant where pool_id = ${pool.id}`),
  );
  const escrow = await accountBalance({ db, account: poolEscrow(pool.id), asset: ASSET });
  const total = BigInt(String(grants!.total));
  const problems = [
    paid?.status !== "paid" && `status ${paid?.status}`,
    Number(grants!.n) !== winners && `${grants!.n} grants`,
    Number(grants!.members) !== winners && `${grants!.members} distinct members`,
    Number(grants!.unpaid) !== 0 && `${grants!.unpaid} grants without an entry`,
    Number(grants!.entries) !== Math.ceil(winners / GRANTS_PER_ENTRY) && `${grants!.entries} batch entries`,
    escrow !== 0n && `escrow holds ${escrow}`,
    total + paid!.returned !== paid!.escrowed && `paid ${total} + returned ${paid!.returned} ≠ escrowed ${paid!.escrowed}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`${label}: ${problems.join(", ")}`);
  log(
    `${label} round ${round}: ${winners.toLocaleString("en")} grants in ${seconds.toFixed(2)} s (${Math.round(winners / seconds).toLocaleString("en")}/s), returned ${paid!.returned} base units (checked)`,
  );
  return seconds;
}

await withBenchDatabase(async (database) => {
  const { db } = database;
  log(
    `database: ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite (DATABASE_URL unset)"}; ${ENTRANTS.toLocaleString("en")} entrants, ${ROUNDS} round(s)`,
  );
  // Each `everyone` pool splits 1,000 QUEST plus 7 base units (dust for most entrant counts); each fcfs pool pays 1 QUEST a winner.
  const split = 1_000n * UNIT + 7n;
  const perWinner = UNIT;
  const everyonePool = { distribution: "everyone", winners: null, amount: split, rankAmounts: null } as const;
  await timed("seeding in all", () => seed(database, BigInt(ROUNDS + 1) * split + BigInt(ROUNDS) * perWinner * BigInt(FCFS_WINNERS)));

  const first = await payout(db, "everyone (opens every member's account)", everyonePool, ENTRANTS, 0);
  const everyone: number[] = [];
  const fcfs: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    everyone.push(await payout(db, "everyone", everyonePool, ENTRANTS, 2 * round - 1));
    fcfs.push(await payout(db, "fcfs", { distribution: "fcfs", winners: FCFS_WINNERS, amount: perWinner, rankAmounts: null }, FCFS_WINNERS, 2 * round));
  }
  const audit = await timed("ledger audit (checkLedger)", () => checkLedger({ db }));
  if (Object.values(audit).some((count) => count !== 0)) throw new Error(`the ledger fails its audit: ${JSON.stringify(audit)}`);

  const seconds = median(everyone);
  bench("reward_pool_100k_s", seconds, "s");
  bench("reward_grants_per_s", ENTRANTS / seconds, "grants/s");
  bench("reward_pool_100k_new_accounts_s", first, "s");
  bench("reward_pool_fcfs_10k_s", median(fcfs), "s");
  bench("reward_fcfs_grants_per_s", FCFS_WINNERS / median(fcfs), "grants/s");
});
