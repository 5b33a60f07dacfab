// The public API: `npm run bench -- api` (after `npm run build`).
//
// Runs the production build on PostgreSQL (DATABASE_URL's server, or a throwaway one it starts) as
// bench/serve.ts does, with one project whose board holds --members members (10,000) and an API
// key with the `read` scope, and measures with autocannon (--connections 50, --duration 15 s after
// a --warmup of 3 s) `GET /api/v1/leaderboard?limit=50` with the key, then a bare `node:http`
// server answering as many bytes (bench/load-servers.ts), in turn, --rounds times (3); the ratio
// is taken per round and the medians printed. To say where an API request's time goes, each round
// also measures `GET /api/v1/project` (the same pipeline, then one primary-key read) and a request
// without a key (refused at once: the server and the router alone), and the run prints the SQL
// statements that took the most time (pg_stat_statements, on a throwaway server).
//   BENCH api_leaderboard_rps / api_leaderboard_p99_ms / api_leaderboard_errors
//   BENCH api_project_rps / api_unauthorized_rps / bare_node_rps
//   BENCH api_leaderboard_ratio_to_bare (%)   goal ≥ 10 %
// `--cpu-prof <folder>` writes the app processes' CPU profiles there.
// Then, when bench/webhook-deliveries.ts exists, it runs as a child and prints its own
// `BENCH webhook_deliveries_per_s`.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { user } from "../db/schema/auth.ts";
import { openDatabase } from "../app/lib/db.server.ts";
import { createApiKey } from "../app/modules/api/api-keys.server.ts";
import { createProject } from "../app/modules/projects/projects.server.ts";
import { runLoad, type LoadFigures, type MixEntry } from "./load-mix.ts";
import { appEnv, benchDatabase, buildProblem, cleanupList, machine, root, startBareServer, startTarget } from "./load-servers.ts";
import { bench, log, median, timed } from "./stats.ts";

const { values: options } = parseArgs({
  options: {
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    rounds: { type: "string", default: "3" },
    members: { type: "string", default: "10000" },
    "cpu-prof": { type: "string" },
  },
});
const whole = (name: keyof typeof options, min: number) => {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return value;
};
const CONNECTIONS = whole("connections", 1);
const DURATION = whole("duration", 1);
const WARMUP = whole("warmup", 0);
const ROUNDS = whole("rounds", 1);
const MEMBERS = whole("members", 100);
const BOARD_PATH = "/api/v1/leaderboard?limit=50";
/** A folder for the app processes' CPU profiles (`node --cpu-prof`, written when they stop), when asked for. */
const CPU_PROFILE_DIR = options["cpu-prof"] ? path.resolve(String(options["cpu-prof"])) : null;

const { cleanups, cleanUp } = cleanupList();

/** A project with MEMBERS members on its board (each award through the SQL function every award uses), and a read key. */
async function seedProject(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl, dataDir: null });
  const { db } = database;
  try {
    await db.insert(user).values({ id: "bench-owner", email: "owner@bench.questline.invalid", name: "Owner", emailVerified: true });
    const created = await createProject({
      db,
      userId: "bench-owner",
      input: { slug: "api-bench", name: "API bench", description: "", categoryId: null, website: null, xUrl: null, discordUrl: null, telegramUrl: null },
    });
    if (!created.ok) throw new Error("the bench project could not be created");
    const projectId = created.project.id;
    await db.execute(sql`insert into "user" (id, name, email, email_verified)
      select 'api-' || i, 'Member ' || i, 'api' || i || '@bench.questline.invalid', true from generate_series(1, ${MEMBERS}) i`);
    await db.execute(sql`select questline_award_xp('api-' || i, ${projectId}, null, 'bench', 'seed', 10 + (i * 7919) % 5000, now() - (i % 30) * interval '1 day')
      from generate_series(1, ${MEMBERS}) i`);
    await db.execute(sql`vacuum (analyze)`);
    const { key } = await createApiKey({ db, projectId, name: "bench", scopes: ["read"], createdBy: "bench-owner" });
    return key;
  } finally {
    await database.close();
  }
}

/** One path alone: a warm-up, then the measured run. */
async function measure(url: string, name: string, path: string | null, headers?: Record<string, string>): Promise<LoadFigures> {
  const mix: MixEntry[] | null = path ? [{ name, weight: 1, next: () => ({ method: "GET", path, headers }) }] : null;
  if (WARMUP > 0) await runLoad({ url, mix, connections: CONNECTIONS, duration: WARMUP });
  const figures = await runLoad({ url, mix, connections: CONNECTIONS, duration: DURATION });
  const statuses = Object.entries(figures.statuses)
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
  log(`${name.padEnd(14)} ${figures.rps.toFixed(1).padStart(8)} req/s, p99 ${figures.p99.toFixed(1)} ms (${statuses}; ${machine()})`);
  return figures;
}

/** The statements that took the most time during the rounds (pg_stat_statements), or why they cannot be read. */
async function topStatements(databaseUrl: string, reset: boolean) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("create extension if not exists pg_stat_statements");
    if (reset) {
      await client.query("select pg_stat_statements_reset()");
      return;
    }
    const { rows } = await client.query<{ calls: string; total: number; mean: number; query: string }>(
      `select calls, total_exec_time as total, mean_exec_time as mean, query from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat_statements%'
        order by total_exec_time desc limit 6`,
    );
    for (const row of rows) {
      log(`  ${Number(row.calls).toLocaleString("en").padStart(10)} calls, ${row.mean.toFixed(3)} ms each: ${row.query.replace(/\s+/g, " ").slice(0, 150)}`);
    }
  } catch (error) {
    log(`statement times not read (${String(error).split("\n")[0]})`);
  } finally {
    await client.end();
  }
}

const stale = buildProblem();
if (stale) {
  log(stale);
  process.exit(1);
}

try {
  log(`${CONNECTIONS} connections, ${DURATION} s per path (after a ${WARMUP} s warm-up), ${ROUNDS} rounds; ${machine()}`);
  const databaseUrl = await benchDatabase(cleanups, { settings: { shared_preload_libraries: "pg_stat_statements" } });
  const dataDir = mkdtempSync(path.join(tmpdir(), "questline-api-data."));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // The key's per-minute limit above what the run can ask: the limit is counted on every request as in use, never reached.
  const env: Record<string, string> = { ...appEnv(databaseUrl, dataDir), API_RATE_LIMIT_PER_MINUTE: "1000000" };
  if (CPU_PROFILE_DIR) env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${CPU_PROFILE_DIR}`;
  // The app's start applies the migrations; the project is seeded once they are in.
  const target = await timed("the app started (as npm start)", () => startTarget("single", { databaseUrl, env }));
  cleanups.push(() => target!.stop());
  const key = await timed(`a project with ${MEMBERS.toLocaleString("en")} members on its board, and a read key`, () => seedProject(databaseUrl));
  const auth = { authorization: `Bearer ${key}` };

  const response = await fetch(target!.url + BOARD_PATH, { headers: auth });
  const answer = await response.text();
  if (response.status !== 200) throw new Error(`${BOARD_PATH} answered ${response.status}: ${answer.slice(0, 300)}`);
  const bytes = Buffer.byteLength(answer);
  log(`${BOARD_PATH}: ${bytes.toLocaleString("en")} bytes, ${(JSON.parse(answer) as { data: unknown[] }).data.length} members`);
  const bare = await startBareServer(bytes);
  cleanups.push(() => bare.stop());

  const rounds = new Map<string, LoadFigures[]>();
  const record = (name: string, figures: LoadFigures) => rounds.set(name, [...(rounds.get(name) ?? []), figures]);
  await topStatements(databaseUrl, true);
  for (let round = 1; round <= ROUNDS; round++) {
    log(`round ${round} of ${ROUNDS}`);
    record("leaderboard", await measure(target!.url, "api leaderboard", BOARD_PATH, auth));
    record("bare", await measure(bare.url, "bare node:http", null));
    record("project", await measure(target!.url, "api project", "/api/v1/project", auth));
    record("unauthorized", await measure(target!.url, "api no key", BOARD_PATH));
  }
  log("where the database's time went during the rounds:");
  await topStatements(databaseUrl, false);

  const rps = (name: string) => rounds.get(name)!.map((f) => f.rps);
  const board = rounds.get("leaderboard")!;
  bench("api_leaderboard_rps", median(rps("leaderboard")), "req/s");
  bench("api_leaderboard_p99_ms", median(board.map((f) => f.p99)), "ms");
  bench(
    "api_leaderboard_errors",
    board.reduce((sum, f) => sum + f.errors, 0),
    "errors",
  );
  bench("api_project_rps", median(rps("project")), "req/s");
  bench("api_unauthorized_rps", median(rps("unauthorized")), "req/s");
  bench("bare_node_rps", median(rps("bare")), "req/s");
  bench("api_leaderboard_ratio_to_bare", median(board.map((f, i) => (100 * f.rps) / rps("bare")[i]!)), "%");
  log(`load average ${machine()}`);
} finally {
  await cleanUp();
}

// Webhook deliveries per second: the webhooks work's own benchmark, when it is there.
const webhooks = path.join(root, "bench/webhook-deliveries.ts");
if (existsSync(webhooks)) {
  log("bench/webhook-deliveries.ts");
  const result = spawnSync(process.execPath, ["--import", "./scripts/app-paths.ts", webhooks], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    log(`bench/webhook-deliveries.ts failed (${result.signal ?? `exit ${result.status}`})`);
    process.exitCode = 1;
  }
} else log("bench/webhook-deliveries.ts is not here yet: no webhook_deliveries_per_s");
