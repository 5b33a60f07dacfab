// Lighthouse: `npm run bench -- lighthouse` (after `npm run build`).
//
// Runs the production build on PostgreSQL (DATABASE_URL's server, or a throwaway one) with the
// demo seeded, and Lighthouse (mobile preset: a mid-range phone on slow 4G, simulated) in Debian's
// Chromium, headless, on Welcome, a campaign page and the global leaderboard, --runs times each
// (3); prints each category's median score (0–100):
//   BENCH lighthouse_<page>_<performance|accessibility|best_practices|seo>
// and logs what cost points in the median run.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { seedLoadData } from "./load-seed.ts";
import { appEnv, benchDatabase, buildProblem, cleanupList, seedDemo, startTarget } from "./load-servers.ts";
import { freePort } from "../scripts/throwaway-postgres.ts";
import { bench, log, median, timed } from "./stats.ts";

const { values: options } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
const RUNS = Number(options.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs must be a whole number of at least 1");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const { cleanups, cleanUp } = cleanupList();

type Result = { scores: Record<(typeof CATEGORIES)[number], number>; lost: string[] };

/** One Lighthouse run of `url` in a fresh headless Chromium. */
async function audit(url: string): Promise<Result> {
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [`--remote-debugging-port=${port}`] });
  try {
    const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(CATEGORIES.map((category) => [category, Math.round(100 * (lhr.categories[category]?.score ?? 0))])) as Result["scores"];
    // What cost points: audits of the categories that did not pass, with their weight.
    const lost = CATEGORIES.flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 0.9)
        .map((ref) => `${category}: ${lhr.audits[ref.id]!.title} (${lhr.audits[ref.id]!.displayValue ?? `score ${lhr.audits[ref.id]!.score}`})`),
    );
    return { scores, lost };
  } finally {
    await browser.close();
  }
}

/** A run Lighthouse itself could not record (it says to run it again, e.g. NO_NAVSTART) is run once more. */
async function auditAgainOnce(url: string): Promise<Result> {
  try {
    return await audit(url);
  } catch (error) {
    log(`${String(error)}: once more`);
    return audit(url);
  }
}

const stale = buildProblem();
if (stale) {
  log(stale);
  process.exit(1);
}

try {
  const databaseUrl = await benchDatabase(cleanups);
  const dataDir = mkdtempSync(path.join(tmpdir(), "questline-lighthouse-data."));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = appEnv(databaseUrl, dataDir);
  await timed("demo seeded (node server/main.ts --seed)", async () => seedDemo(env));
  const { campaigns } = await seedLoadData({ databaseUrl, members: 1, signedIn: 0, quizzes: 0 });
  const target = (await timed("the app started (as npm start)", () => startTarget("single", { databaseUrl, env })))!;
  cleanups.push(target.stop);
  const { projectSlug, campaignSlug } = campaigns[0]!;
  const pages = { welcome: "/", campaign: `/projects/${projectSlug}/campaigns/${campaignSlug}`, leaderboard: "/leaderboard" };
  for (const [name, pagePath] of Object.entries(pages)) {
    const runs: Result[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await auditAgainOnce(target.url + pagePath));
    const byPerformance = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
    const middle = byPerformance[Math.floor(runs.length / 2)]!;
    log(`${name} (${pagePath}): ${runs.map((run) => CATEGORIES.map((c) => run.scores[c]).join("/")).join(", ")}`);
    for (const line of middle.lost) log(`  ${line}`);
    for (const category of CATEGORIES) bench(`lighthouse_${name}_${category.replace("-", "_")}`, median(runs.map((run) => run.scores[category])), "score");
  }
} finally {
  await cleanUp();
}
