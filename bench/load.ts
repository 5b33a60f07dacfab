// Load benchmark: `npm run bench -- load` (after `npm run build`).
//
// Runs the production build on PostgreSQL (DATABASE_URL's server, or a throwaway one it starts)
// seeded with the demo plus --members members (100,000) with XP on the boards, and sends it a
// realistic mix (bench/load-mix.ts: visitors' pages, signed-in dashboards, leaderboard reads and
// quiz answers) from --connections connections (200) for --duration seconds (30) with autocannon,
// after a --warmup (5 s) run. Measured on one app process, then on the 3-web cluster
// (scripts/cluster.ts, skipped when it is not there), then a bare `node:http` server answering one
// static page the size of the mix's median page, measured the same way, so the ratio compares
// across machines. `--targets single` (or `cluster`) measures one of them; `--members` seeds fewer
// for a quick try; `--rounds N` measures each target (and the bare server) N times on the same
// seeded data and prints the medians; `--cpu-prof <folder>` writes the single process's CPU profile there. Prints:
//   BENCH load_rps / load_p95_ms / load_errors                          (one process, ROLE=all)
//   BENCH load_dashboard_p95_ms / load_task_attempt_p95_ms               (its signed-in dashboard, its quiz answers)
//   BENCH load_cluster_rps / load_cluster_p95_ms / load_cluster_errors
//   BENCH load_cluster_dashboard_p95_ms / load_cluster_task_attempt_p95_ms
//   BENCH load_bare_rps / load_ratio_to_bare / load_cluster_ratio_to_bare (app req/s as % of bare)
// Errors are connection errors, timeouts (10 s) and 4xx/5xx answers; redirects are answers. The
// p95 is over every answer of the run. Requests carry no Accept-Encoding: pages go uncompressed,
// on both servers. The app runs with LOCAL_CHAIN=off (no anvil beside it, as when served publicly).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { attemptPairs, loadMix, probe, runLoad, signIn, weightedMedianBytes, type AttemptPairs, type LoadFigures, type Member } from "./load-mix.ts";
import { checkBoards, seedLoadData, type LoadData } from "./load-seed.ts";
import { appEnv, benchDatabase, buildProblem, cleanupList, machine, seedDemo, startBareServer, startTarget, type TargetKind } from "./load-servers.ts";
import { bench, log, median, p95, timed } from "./stats.ts";

const { values: options } = parseArgs({
  options: {
    connections: { type: "string", default: "200" },
    duration: { type: "string", default: "30" },
    warmup: { type: "string", default: "5" },
    members: { type: "string", default: "100000" },
    targets: { type: "string", default: "single,cluster" },
    rounds: { type: "string", default: "1" },
    "cpu-prof": { type: "string" },
  },
});
const positive = (name: keyof typeof options, min = 1) => {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return value;
};
const CONNECTIONS = positive("connections");
const DURATION = positive("duration");
const WARMUP = positive("warmup", 0);
const MEMBERS = positive("members", 100);
const ROUNDS = positive("rounds");
const TARGETS = String(options.targets)
  .split(",")
  .map((t) => t.trim()) as TargetKind[];
if (TARGETS.some((t) => t !== "single" && t !== "cluster")) throw new Error("--targets takes single, cluster or single,cluster");
/** Members who sign in (well within better-auth's 120 password sign-ins per address in 5 minutes), and quizzes each may answer once. */
const SIGNED_IN = 50;
/** A folder for the single app process's CPU profile (`node --cpu-prof`, written when it stops), when asked for. */
const CPU_PROFILE_DIR = options["cpu-prof"] ? path.resolve(String(options["cpu-prof"])) : null;
const QUIZZES = 200;

const { cleanups, cleanUp } = cleanupList();

function report(label: string, figures: LoadFigures) {
  const statuses = Object.entries(figures.statuses)
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
  log(
    `${label}: ${figures.requests.toLocaleString("en")} answers (${statuses}), ${figures.rps.toFixed(1)} req/s, p95 ${figures.p95.toFixed(1)} ms, ${figures.errors} errors (${machine()})`,
  );
  for (const [name, stats] of figures.byEntry) {
    log(
      `  ${name.padEnd(20)} ${String(stats.count).padStart(7)} answers, p95 ${p95(stats.times).toFixed(1)} ms${stats.failed > 0 ? `, ${stats.failed} 4xx/5xx` : ""}`,
    );
  }
}

/** One kind of request's p95 in a run (NaN when the run sent none). */
function entryP95(figures: LoadFigures, name: string) {
  const stats = figures.byEntry.get(name);
  return stats && stats.times.length > 0 ? p95(stats.times) : NaN;
}

type Measured = { kind: TargetKind; rps: number };

/** Starts the target, signs members in (once), checks each request of the mix, warms up, measures, stops. */
async function measureTarget(
  kind: TargetKind,
  label: string,
  context: { databaseUrl: string; env: Record<string, string>; data: LoadData; attempts: AttemptPairs; members: Member[] | null },
) {
  const profiled =
    kind === "single" && CPU_PROFILE_DIR ? { ...context, env: { ...context.env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROFILE_DIR}` } } : context;
  const target = await timed(`${kind === "single" ? "one app process" : "the cluster (3 web, 2 workers)"} started`, () => startTarget(kind, profiled));
  if (!target) {
    log("cluster: scripts/cluster.ts is not there (startCluster): the cluster figures are skipped");
    return null;
  }
  try {
    const members = (context.members ??= await timed(`${SIGNED_IN} members signed in with a password`, () => signIn(target.url, context.data.emails)));
    const mix = loadMix({ data: context.data, members, origin: new URL(target.url).origin, attempts: context.attempts });
    const sizes = await probe(target.url, mix);
    log(`mix (weight, status, bytes): ${sizes.map((s) => `${s.name} ${s.weight} ${s.status} ${s.bytes}`).join("; ")}`);
    const refused = sizes.filter((s) => s.status >= 400);
    if (refused.length > 0)
      throw new Error(`the mix's requests must succeed before measuring: ${refused.map((s) => `${s.name} answered ${s.status}`).join(", ")}`);
    if (WARMUP > 0) await timed(`warm-up (${WARMUP} s)`, () => runLoad({ url: target.url, mix, connections: CONNECTIONS, duration: WARMUP }));
    const figures = await runLoad({ url: target.url, mix, connections: CONNECTIONS, duration: DURATION });
    report(label, figures);
    return { figures, bytes: weightedMedianBytes(sizes) };
  } finally {
    await target.stop();
  }
}

const stale = buildProblem();
if (stale) {
  log(stale);
  process.exit(1);
}

try {
  log(
    `${CONNECTIONS} connections, ${DURATION} s per run (after a ${WARMUP} s warm-up), ${MEMBERS.toLocaleString("en")} members; targets: ${TARGETS.join(", ")}; ${machine()}`,
  );
  log(
    `rate limits: none relaxed (the ${SIGNED_IN} password sign-ins stay within better-auth's 120 per address in 5 minutes; pages, board reads and quiz answers have no per-address limit)`,
  );
  const databaseUrl = await benchDatabase(cleanups);
  const dataDir = mkdtempSync(path.join(tmpdir(), "questline-load-data."));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = appEnv(databaseUrl, dataDir);
  await timed("demo seeded (node server/main.ts --seed)", async () => seedDemo(env));
  const data = await seedLoadData({ databaseUrl, members: MEMBERS, signedIn: SIGNED_IN, quizzes: QUIZZES });
  const context = { databaseUrl, env, data, attempts: attemptPairs(SIGNED_IN, QUIZZES), members: null as Member[] | null };

  const measured: Measured[] = [];
  let pageBytes: number | null = null;
  for (const kind of TARGETS) {
    const rounds: LoadFigures[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const result = await measureTarget(kind, ROUNDS > 1 ? `${kind}, round ${round}` : kind, context);
      if (!result) break;
      pageBytes ??= result.bytes;
      rounds.push(result.figures);
    }
    if (rounds.length === 0) continue;
    const medianOf = (figure: (figures: LoadFigures) => number) => median(rounds.map(figure));
    measured.push({ kind, rps: medianOf((f) => f.rps) });
    const prefix = kind === "single" ? "load" : "load_cluster";
    const figures: [name: string, figure: (f: LoadFigures) => number, unit: string][] = [
      ["rps", (f) => f.rps, "req/s"],
      ["p95_ms", (f) => f.p95, "ms"],
      ["errors", (f) => f.errors, "errors"],
      ["dashboard_p95_ms", (f) => entryP95(f, "dashboard"), "ms"],
      ["task_attempt_p95_ms", (f) => entryP95(f, "task_attempt"), "ms"],
    ];
    for (const [name, figure, unit] of figures) bench(`${prefix}_${name}`, medianOf(figure), unit);
  }
  if (context.attempts.spent > 0) log(`every member answered every quiz: ${context.attempts.spent} attempts became dashboard views`);
  const boards = await checkBoards(databaseUrl);
  log(
    `${boards.attempts.toLocaleString("en")} quiz answers recorded; boards ${boards.mismatches === 0 ? "exact" : `NOT exact (${boards.mismatches} histogram rows off)`} afterwards`,
  );
  if (boards.mismatches !== 0) throw new Error("the boards' histograms disagree with their entries after the run");

  if (pageBytes !== null) {
    const bareRates: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const bare = await startBareServer(pageBytes);
      let bareFigures: LoadFigures;
      try {
        if (WARMUP > 0) await runLoad({ url: bare.url, mix: null, connections: CONNECTIONS, duration: WARMUP });
        bareFigures = await runLoad({ url: bare.url, mix: null, connections: CONNECTIONS, duration: DURATION });
      } finally {
        await bare.stop();
      }
      report(`bare node:http, one static ${pageBytes.toLocaleString("en")}-byte page (the mix's median)${ROUNDS > 1 ? `, round ${round}` : ""}`, bareFigures);
      bareRates.push(bareFigures.rps);
    }
    const bareRps = median(bareRates);
    bench("load_bare_rps", bareRps, "req/s");
    for (const { kind, rps } of measured) bench(`${kind === "single" ? "load" : "load_cluster"}_ratio_to_bare`, (100 * rps) / bareRps, "%");
  }
} finally {
  await cleanUp();
}
