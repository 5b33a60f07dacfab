// Leaderboard benchmark: `npm run bench -- leaderboard`.
//
// Seeds one project's board with BENCH_MEMBERS members and BENCH_EVENTS XP events (1,000,000 and
// 10,000,000 on PostgreSQL; a tenth of that on PGlite), then measures, on the same data:
//   - a top-100 page, a member's exact rank (ours and the naive COUNT(*)), the 7/30-day boards' own rank;
//   - awarding XP through the real award function, and that ranks are exact right after.
// Figures are printed as `BENCH <name> <value> <unit>`.

import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Database } from "../app/lib/db.server.ts";
import { awardXp, boardPage, naiveRankOf, rankOf } from "../app/modules/leaderboards/leaderboards.server.ts";
import { withBenchDatabase } from "./database.ts";
import { bench, log, measure, median, p95, timed } from "./stats.ts";

const onPostgres = Boolean(process.env.DATABASE_URL);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? (onPostgres ? 1_000_000 : 100_000));
const EVENTS = Number(process.env.BENCH_EVENTS ?? MEMBERS * 10);
const PROJECT = "bench";
const BOARD = `p:${PROJECT}|all`;

/** Members and events straight in SQL; boards built from the events the way awards would leave them. */
async function seed({ db }: Database) {
  const exec = (statement: ReturnType<typeof sql>) => db.execute(statement);
  await timed(`members (${MEMBERS.toLocaleString("en")})`, () =>
    exec(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at)
             select 'b' || i, 'Member ' || i, 'b' || i || '@bench.invalid', true, now(), now() from generate_series(1, ${MEMBERS}) i`),
  );
  // The board's project: awards record their event against it (the outbox's foreign key).
  await exec(sql`insert into project (id, slug, name) values (${PROJECT}, ${PROJECT}, 'Bench')`);
  // Skewed activity: a few members earn most of the XP, as on real boards. Events span 90 days.
  // Bulk load without the secondary indexes, then build them once (what a restore would do).
  await exec(sql`drop index xp_event_source_key, xp_event_user_idx, xp_event_project_idx`);
  // (foreign-key checks are off for the load: every member id is generated above)
  await timed(`XP events (${EVENTS.toLocaleString("en")})`, () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into xp_event (user_id, project_id, source_type, source_id, amount, created_at)
             select 'b' || (1 + floor(power(random(), 2) * ${MEMBERS}))::int, ${PROJECT}, 'seed', i::text,
                    (array[5, 10, 10, 20, 25, 50, 100])[1 + floor(random() * 7)::int],
                    now() - random() * interval '90 days'
             from generate_series(1, ${EVENTS}) i`);
    }),
  );
  await timed("XP event indexes", () =>
    db.transaction(async (tx) => {
      if (onPostgres) await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      await tx.execute(sql`create unique index xp_event_source_key on xp_event (source_type, source_id, user_id)`);
      await tx.execute(sql`create index xp_event_user_idx on xp_event (user_id, created_at)`);
      await tx.execute(sql`create index xp_event_project_idx on xp_event (project_id, created_at)`);
    }),
  );
  await timed("boards and histograms", async () => {
    for (const [window, since] of [
      ["all", null],
      ["30d", "30 days"],
      ["7d", "7 days"],
    ] as const) {
      const board = `p:${PROJECT}|${window}`;
      const recent = since ? sql`and created_at > now() - ${since}::interval` : sql``;
      await exec(sql`insert into leaderboard_entry (board, user_id, score, reached_at, visible)
                     select ${board}, user_id, sum(amount), max(created_at), true
                     from xp_event where project_id = ${PROJECT} ${recent} group by user_id`);
      await exec(sql`insert into leaderboard_histogram (board, score, members)
                     select board, score, count(*) from leaderboard_entry where board = ${board} group by board, score`);
    }
    await exec(sql`analyze`);
  });
  // Then vacuum the boards, as autovacuum soon would on a live board: a rank counts the members
  // tied with it in the rank index, which reads only the index once the pages are all-visible.
  await timed("vacuum boards", () => exec(sql`vacuum (analyze) leaderboard_entry, leaderboard_histogram`));
}

async function sampleMembers({ db }: Database, board: string, n: number) {
  const result = await db.execute(sql`select user_id from leaderboard_entry where board = ${board} order by random() limit ${n}`);
  const rows = Array.isArray(result) ? result : (result as { rows: { user_id: string }[] }).rows;
  return (rows as { user_id: string }[]).map((r) => r.user_id);
}

await withBenchDatabase(async (database) => {
  const { db } = database;
  log(
    `database: ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite (DATABASE_URL unset)"}; ${MEMBERS.toLocaleString("en")} members, ${EVENTS.toLocaleString("en")} XP events`,
  );
  await seed(database);

  if (process.env.BENCH_EXPLAIN) {
    const plan = await db.execute(sql`explain analyze select user_id, score, reached_at from leaderboard_entry
      where board = ${BOARD} and visible order by score desc, reached_at, user_id limit 100`);
    log(JSON.stringify(plan, null, 1).slice(0, 3000));
  }
  const members = await sampleMembers(database, BOARD, 400);
  await measure(20, () => boardPage({ db, board: BOARD, limit: 100 })); // warm-up
  const top = await measure(200, () => boardPage({ db, board: BOARD, limit: 100 }));
  // Warm-up on other members, as for the page: the first call also prepares the statement.
  const warmUp = await sampleMembers(database, BOARD, 20);
  await measure(warmUp.length, (i) => rankOf({ db, board: BOARD, userId: warmUp[i]! }));
  const ranks = await measure(members.length, (i) => rankOf({ db, board: BOARD, userId: members[i]! }));
  const windowMembers = [...(await sampleMembers(database, `p:${PROJECT}|7d`, 200)), ...(await sampleMembers(database, `p:${PROJECT}|30d`, 200))];
  const windowRanks = await measure(windowMembers.length, (i) => rankOf({ db, board: `p:${PROJECT}|${i < 200 ? "7d" : "30d"}`, userId: windowMembers[i]! }));
  const naiveMembers = members.slice(0, onPostgres ? 40 : 100);
  const naive = await measure(naiveMembers.length, (i) => naiveRankOf({ db, board: BOARD, userId: naiveMembers[i]! }));

  // Awards through the real function, from several connections at once.
  const awards = onPostgres ? 6000 : 2000;
  const awardees = await sampleMembers(database, BOARD, 2000);
  const concurrency = onPostgres ? 8 : 1;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < awards; i = next++) {
        await awardXp({ db, award: { userId: awardees[i % awardees.length]!, projectId: PROJECT, sourceType: "bench", sourceId: String(i), amount: 10 } });
      }
    }),
  );
  const rate = awards / ((performance.now() - started) / 1000);
  for (const userId of awardees.slice(0, 25)) {
    const ours = await rankOf({ db, board: BOARD, userId });
    const truth = await naiveRankOf({ db, board: BOARD, userId });
    if (ours?.rank !== truth) throw new Error(`rank of ${userId} is ${ours?.rank}, the naive count says ${truth}`);
  }
  log(`ranks exact after ${awards} awards (25 members checked against the naive count)`);

  bench("leaderboard_top100_p95_ms", p95(top), "ms");
  bench("leaderboard_rank_p95_ms", p95(ranks), "ms");
  bench("leaderboard_window_rank_p95_ms", p95(windowRanks), "ms");
  bench("xp_awards_per_s", rate, "awards/s");
  bench("leaderboard_naive_rank_p95_ms", p95(naive), "ms");
  bench("leaderboard_rank_speedup", p95(naive) / p95(ranks), "x");
  log(
    `medians: top100 ${median(top).toFixed(2)} ms, rank ${median(ranks).toFixed(2)} ms, window rank ${median(windowRanks).toFixed(2)} ms, naive ${median(naive).toFixed(1)} ms`,
  );
});
