// Serving speed: `npm run bench -- serve` (after `npm run build`).
//
// Runs the production build on PostgreSQL (DATABASE_URL's server, or a throwaway one it starts)
// with the demo seeded, plus one member who signs in with a password, and measures four pages one
// after another with autocannon (--connections 50 for --duration 15 s each, after a --warmup of
// 3 s): a visitor's campaign page, the global leaderboard, Welcome, and the member's dashboard.
// Then the same tool against a bare `node:http` server answering the campaign page's HTML, byte
// for byte as large. The pages and the bare server are measured in turn --rounds times (3): the
// machine's own speed moves between minutes, so each page's ratio is taken against the bare
// server of its round (the app stays up, idle, meanwhile), and the figures printed are the rounds'
// medians (errors: the sum). Per page:
//   BENCH serve_<page>_rps / serve_<page>_p99_ms / serve_<page>_errors / serve_<page>_ratio_to_bare (%)
//   BENCH serve_bare_rps
// and, per page, the SQL statements one request runs (pg_stat_statements, on a web-only process so
// no job's statements are counted): BENCH serve_<page>_statements.
// Errors are connection errors, timeouts (10 s) and 4xx/5xx answers. Requests carry no
// Accept-Encoding, on both servers. The app runs as `npm start` does (--processes: how many web
// processes; by default what `npm start` picks on PostgreSQL).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { runLoad, signIn, type LoadFigures, type MixEntry } from "./load-mix.ts";
import { seedLoadData } from "./load-seed.ts";
import { appEnv, benchDatabase, buildProblem, cleanupList, machine, seedDemo, startBareServer, startTarget } from "./load-servers.ts";
import { bench, log, median, timed } from "./stats.ts";

const { values: options } = parseArgs({
  options: {
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    processes: { type: "string" },
    rounds: { type: "string", default: "3" },
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
const PROCESSES = options.processes === undefined ? null : whole("processes", 1);
const ROUNDS = whole("rounds", 1);

const { cleanups, cleanUp } = cleanupList();

type Page = { name: string; path: string; headers?: Record<string, string> };

/** One page alone: a warm-up, then the measured run. */
async function measure(url: string, page: Page | null): Promise<LoadFigures> {
  const mix: MixEntry[] | null = page ? [{ name: page.name, weight: 1, next: () => ({ method: "GET", path: page.path, headers: page.headers }) }] : null;
  if (WARMUP > 0) await runLoad({ url, mix, connections: CONNECTIONS, duration: WARMUP });
  const figures = await runLoad({ url, mix, connections: CONNECTIONS, duration: DURATION });
  const statuses = Object.entries(figures.statuses)
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
  log(
    `${(page?.name ?? "bare").padEnd(12)} ${figures.rps.toFixed(1).padStart(8)} req/s, p99 ${figures.p99.toFixed(1)} ms, ${figures.errors} errors (${statuses}; ${machine()})`,
  );
  return figures;
}

/** The SQL statements one request of each page runs, from pg_stat_statements (reset before each). */
async function statementsPerPage(databaseUrl: string, appUrl: string, pages: Page[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("create extension if not exists pg_stat_statements");
    const counts = new Map<string, number>();
    for (const page of pages) {
      // Once to warm the process's caches, then the counted request.
      await fetch(appUrl + page.path, { headers: page.headers }).then((response) => response.arrayBuffer());
      await client.query("select pg_stat_statements_reset()");
      const response = await fetch(appUrl + page.path, { headers: page.headers });
      await response.arrayBuffer();
      const { rows } = await client.query<{ calls: string }>(
        `select coalesce(sum(calls), 0) as calls from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database()) and query not ilike '%pg_stat_statements%'`,
      );
      counts.set(page.name, Number(rows[0]!.calls));
    }
    return counts;
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
  log(`${CONNECTIONS} connections, ${DURATION} s per page (after a ${WARMUP} s warm-up); ${machine()}`);
  const databaseUrl = await benchDatabase(cleanups, { settings: { shared_preload_libraries: "pg_stat_statements" } });
  const dataDir = mkdtempSync(path.join(tmpdir(), "questline-serve-data."));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = appEnv(databaseUrl, dataDir);
  await timed("demo seeded (node server/main.ts --seed)", async () => seedDemo(env));
  const data = await seedLoadData({ databaseUrl, members: 1, signedIn: 1, quizzes: 0 });
  const { projectSlug, campaignSlug } = data.campaigns[0]!;

  const counting = await timed("a web-only process started (statement counts)", () => startTarget("single", { databaseUrl, env: { ...env, ROLE: "web" } }));
  let pages: Page[];
  let statements: Map<string, number>;
  try {
    const [member] = await signIn(counting!.url, data.emails);
    pages = [
      { name: "campaign", path: `/projects/${projectSlug}/campaigns/${campaignSlug}` },
      { name: "leaderboard", path: "/leaderboard" },
      { name: "welcome", path: "/" },
      { name: "dashboard", path: "/dashboard", headers: { cookie: member!.cookie } },
    ];
    statements = await statementsPerPage(databaseUrl, counting!.url, pages);
  } finally {
    await counting!.stop();
  }

  const target = await timed("the app started (as npm start)", () =>
    startTarget("single", { databaseUrl, env: PROCESSES === null ? env : { ...env, WEB_PROCESSES: String(PROCESSES) } }),
  );
  /** Per page (and `bare`), one entry per round. */
  const rounds = new Map<string, LoadFigures[]>();
  const record = (name: string, figures: LoadFigures) => rounds.set(name, [...(rounds.get(name) ?? []), figures]);
  let bare: Awaited<ReturnType<typeof startBareServer>> | null = null;
  try {
    for (const page of pages) {
      const response = await fetch(target!.url + page.path, { headers: page.headers, redirect: "manual" });
      const bytes = (await response.arrayBuffer()).byteLength;
      if (response.status !== 200) throw new Error(`${page.name} (${page.path}) answered ${response.status}: measure pages that work`);
      if (page.name === "campaign") bare = await startBareServer(bytes);
      log(`${page.name}: ${page.path}, ${bytes.toLocaleString("en")} bytes, ${statements.get(page.name)} SQL statements`);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      log(`round ${round} of ${ROUNDS}`);
      for (const page of pages) record(page.name, await measure(target!.url, page));
      record("bare", await measure(bare!.url, null));
    }
  } finally {
    await target!.stop();
    await bare?.stop();
  }

  const bareRounds = rounds.get("bare")!;
  bench("serve_bare_rps", median(bareRounds.map((f) => f.rps)), "req/s");
  for (const page of pages) {
    const figures = rounds.get(page.name)!;
    bench(`serve_${page.name}_rps`, median(figures.map((f) => f.rps)), "req/s");
    bench(`serve_${page.name}_p99_ms`, median(figures.map((f) => f.p99)), "ms");
    bench(
      `serve_${page.name}_errors`,
      figures.reduce((sum, f) => sum + f.errors, 0),
      "errors",
    );
    bench(`serve_${page.name}_ratio_to_bare`, median(figures.map((f, i) => (100 * f.rps) / bareRounds[i]!.rps)), "%");
    bench(`serve_${page.name}_statements`, statements.get(page.name)!, "statements");
  }
} finally {
  await cleanUp();
}
