// Ledger benchmark: `npm run bench -- ledger` (PostgreSQL only).
//
// Without DATABASE_URL it re-runs itself through scripts/with-postgres.sh on a throwaway server
// (port PG_PORT, 55644 by default). On a fresh database it seeds BENCH_LEDGER_LINES journal lines
// (10,000,000: two-line entries across a hundredth as many members), then measures:
//   - postings per second through the real ledger API (`credit`, `hold`, `release`, each with its
//     balance check) from BENCH_LEDGER_CLIENTS concurrent connections (16), median of 3 rounds of
//     BENCH_LEDGER_SECONDS (6) each after a warm-up, and from one connection for context;
//   - a member's balance read (`balanceOf`) p95 and median, and the naive sum over their lines.
// Figures are printed as `BENCH <name> <value> <unit>`; progress and seeding times go to stderr.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { z } from "zod";
import { PLATFORM } from "../db/schema/ledger.ts";
import { rowsOf, schema, type Database, type Db } from "../app/lib/db.server.ts";
import { questAsset } from "../app/modules/ledger/assets.ts";
import { balanceOf, checkLedger, credit, hold, InsufficientFunds, release } from "../app/modules/ledger/ledger.server.ts";
import { withBenchDatabase } from "./database.ts";
import { bench, log, measure, median, p95, timed } from "./stats.ts";

const env = z
  .object({
    DATABASE_URL: z.string().url().optional(),
    PG_PORT: z.coerce.number().int().min(1024).max(65535).default(55644),
    BENCH_LEDGER_LINES: z.coerce.number().int().min(200).default(10_000_000),
    BENCH_LEDGER_CLIENTS: z.coerce.number().int().min(1).max(64).default(16),
    BENCH_LEDGER_SECONDS: z.coerce.number().positive().default(6),
  })
  .parse(process.env);

const ASSET = questAsset(31337);
const UNIT = 10n ** 18n;
const ENTRIES = Math.floor(env.BENCH_LEDGER_LINES / 2);
const MEMBERS = Math.max(1, Math.floor(ENTRIES / 50));
/** The members the posting rounds work on. */
const ACTIVE = Math.min(1_000, MEMBERS);
const ROUNDS = 3;
const member = (n: number) => `bm${n}`;
const randomMember = () => member(1 + Math.floor(Math.random() * MEMBERS));

/** Re-runs this script on a throwaway PostgreSQL server; returns its exit status. */
function rerunOnThrowawayPostgres(): number {
  const root = path.resolve(import.meta.dirname, "..");
  log(`DATABASE_URL is unset: starting a throwaway PostgreSQL on port ${env.PG_PORT} (scripts/with-postgres.sh) and running there`);
  const command = [process.execPath, ...process.execArgv, import.meta.filename, ...process.argv.slice(2)];
  const result = spawnSync("bash", [path.join(root, "scripts/with-postgres.sh"), ...command], {
    cwd: root,
    stdio: ["inherit", "inherit", "inherit"],
    env: { ...process.env, PG_PORT: String(env.PG_PORT) },
  });
  return result.status ?? 1;
}

/**
 * The seeded history, straight in SQL: entry i is member ((i-1) mod M)+1's; every fifth pass over
 * the members holds 1 QUEST, the others credit 10 from the treasury, so nobody ever goes below
 * zero. Loaded without the secondary indexes or foreign-key triggers (every id is generated
 * here), then indexed, cached balances set from the lines in one update, and vacuumed.
 */
async function seed({ db }: Database) {
  await timed(`accounts (${MEMBERS.toLocaleString("en")} members)`, async () => {
    await db.execute(sql`insert into ledger_account (holder, name, asset) values (${PLATFORM}, 'treasury', ${ASSET})`);
    await db.execute(sql`insert into ledger_account (holder, name, asset)
      select 'bm' || n, v.name, ${ASSET} from generate_series(1, ${MEMBERS}) n cross join (values ('available'), ('held')) v(name) order by n, v.name`);
  });
  await db.execute(
    sql`drop index journal_entry_idempotency_key, journal_entry_user_idx, journal_entry_reference_idx, journal_line_entry_idx, journal_line_account_idx`,
  );
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    const isHold = sql`((i - 1) / ${MEMBERS}) % 5 = 4`;
    await timed(`journal entries (${ENTRIES.toLocaleString("en")})`, () =>
      tx.execute(sql`insert into journal_entry (id, idempotency_key, kind, user_id) overriding system value
        select i, 'seed-' || i, case when ${isHold} then 'bench_hold' else 'bench_credit' end, 'bm' || ((i - 1) % ${MEMBERS} + 1)
        from generate_series(1, ${ENTRIES}) i`),
    );
    await tx.execute(sql`select setval(pg_get_serial_sequence('journal_entry', 'id'), ${ENTRIES})`);
    await timed(`journal lines (${(ENTRIES * 2).toLocaleString("en")})`, () =>
      tx.execute(sql`
        with m as (
          select substr(a.holder, 3)::int as n, a.id as available_id, h.id as held_id
          from ledger_account a join ledger_account h on h.holder = a.holder and h.name = 'held' and h.asset = a.asset
          where a.name = 'available' and a.asset = ${ASSET} and a.holder like 'bm%'
        ), t as (select id from ledger_account where holder = ${PLATFORM} and name = 'treasury' and asset = ${ASSET})
        insert into journal_line (entry_id, account_id, asset, amount)
        select i,
               case when ${isHold} then (case when s = 1 then m.available_id else m.held_id end)
                    else (case when s = 1 then t.id else m.available_id end) end,
               ${ASSET},
               (case when ${isHold} then ${UNIT.toString()}::numeric else ${(10n * UNIT).toString()}::numeric end) * (case when s = 1 then -1 else 1 end)
        from generate_series(1, ${ENTRIES}) i
        join m on m.n = (i - 1) % ${MEMBERS} + 1
        cross join t cross join (values (1), (2)) side(s)`),
    );
  });
  await timed("journal indexes", () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      await tx.execute(sql`create unique index journal_entry_idempotency_key on journal_entry (idempotency_key)`);
      await tx.execute(sql`create index journal_entry_user_idx on journal_entry (user_id, id)`);
      await tx.execute(sql`create index journal_entry_reference_idx on journal_entry (reference)`);
      await tx.execute(sql`create index journal_line_entry_idx on journal_line (entry_id)`);
      await tx.execute(sql`create index journal_line_account_idx on journal_line (account_id, id)`);
    }),
  );
  await timed("cached balances from the lines", () =>
    db.execute(sql`update ledger_account a set balance = s.total
      from (select account_id, sum(amount) as total from journal_line group by account_id) s where a.id = s.account_id`),
  );
  await timed("vacuum analyze", () => db.execute(sql`vacuum (analyze) ledger_account, journal_entry, journal_line`));
  const [counts] = rowsOf(
    await db.execute(
      sql`select (select count(*) from journal_line) as lines, (select count(*) from ledger_account where balance < 0 and holder <> ${PLATFORM}) as negative`,
    ),
  );
  if (Number(counts!.lines) !== ENTRIES * 2) throw new Error(`seeded ${counts!.lines} journal lines, expected ${ENTRIES * 2}`);
  if (Number(counts!.negative) !== 0) throw new Error(`${counts!.negative} seeded member accounts are below zero`);
  log(`seeded ${(ENTRIES * 2).toLocaleString("en")} journal lines (checked)`);
}

type Tally = { posted: number; refused: number };

/** One client's loop until `deadline`: a random hold, release or credit on a random active member. */
async function postUntil(db: Db, deadline: number, prefix: string, tally: Tally) {
  for (let n = 0; performance.now() < deadline; n++) {
    const userId = member(1 + Math.floor(Math.random() * ACTIVE));
    const movement = { db, key: `${prefix}-${n}`, userId, asset: ASSET, amount: UNIT };
    const pick = Math.random();
    try {
      if (pick < 0.4) await hold({ ...movement, kind: "bench_hold" });
      else if (pick < 0.7) await release({ ...movement, kind: "bench_release" });
      else await credit({ ...movement, kind: "bench_credit" });
      tally.posted++;
    } catch (error) {
      if (!(error instanceof InsufficientFunds)) throw error;
      tally.refused++;
    }
  }
}

/** Postings per second from `clients` connections over `seconds`. */
async function postingRate(db: Db, clients: number, seconds: number, label: string): Promise<number> {
  const tally: Tally = { posted: 0, refused: 0 };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(Array.from({ length: clients }, (_, c) => postUntil(db, deadline, `${label}-c${c}`, tally)));
  const rate = tally.posted / ((performance.now() - started) / 1000);
  log(`${label}: ${tally.posted} postings (${tally.refused} refused for funds) from ${clients} client(s): ${rate.toFixed(0)}/s`);
  return rate;
}

async function postings(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: env.BENCH_LEDGER_CLIENTS });
  const db = drizzle(pool, { schema, casing: "snake_case" }) as unknown as Db;
  try {
    await postingRate(db, env.BENCH_LEDGER_CLIENTS, 2, "warm-up");
    const rounds: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) rounds.push(await postingRate(db, env.BENCH_LEDGER_CLIENTS, env.BENCH_LEDGER_SECONDS, `round ${round}`));
    const sequential = await postingRate(db, 1, env.BENCH_LEDGER_SECONDS, "sequential");
    return { concurrent: median(rounds), sequential };
  } finally {
    await pool.end();
  }
}

async function balanceReads({ db }: Database) {
  await measure(200, () => balanceOf({ db, userId: randomMember() })); // warm-up (and statement preparation)
  const reads = await measure(2_000, () => balanceOf({ db, userId: randomMember() }));
  const naiveSum = (userId: string) =>
    db.execute(sql`select a.name, sum(l.amount) from journal_line l join ledger_account a on a.id = l.account_id where a.holder = ${userId} group by a.name`);
  await measure(20, () => naiveSum(randomMember()));
  const naive = await measure(200, () => naiveSum(randomMember()));
  return { reads, naive };
}

if (!env.DATABASE_URL) process.exit(rerunOnThrowawayPostgres());

await withBenchDatabase(async (database, url) => {
  log(`PostgreSQL (DATABASE_URL); ${(ENTRIES * 2).toLocaleString("en")} journal lines over ${MEMBERS.toLocaleString("en")} members`);
  await timed("seeding in all", () => seed(database));
  const rates = await postings(url!);
  const { reads, naive } = await balanceReads(database);
  // The full audit reads every line: affordable on a small ledger only.
  if (ENTRIES <= 500_000) {
    const audit = await checkLedger({ db: database.db });
    if (Object.values(audit).some((count) => count !== 0)) throw new Error(`the ledger fails its audit: ${JSON.stringify(audit)}`);
    log("ledger audit (checkLedger) clean");
  }

  bench("ledger_postings_per_s", rates.concurrent, "postings/s");
  bench("ledger_postings_baseline_sequential_per_s", rates.sequential, "postings/s");
  bench("ledger_balance_p95_ms", p95(reads), "ms");
  bench("ledger_balance_median_ms", median(reads), "ms");
  bench("ledger_balance_naive_p95_ms", p95(naive), "ms");

  // The deposit's way from its last required confirmation to its credit, on the same server.
  const latency = spawnSync(process.execPath, ["--import", "./scripts/app-paths.ts", "bench/deposit-latency.ts"], {
    stdio: "inherit",
    env: { ...process.env, ...(url ? { DATABASE_URL: url } : {}) },
  });
  if (latency.status !== 0) throw new Error(`bench/deposit-latency.ts failed (${latency.signal ?? `exit ${latency.status}`})`);
});
