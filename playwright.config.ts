import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { clusterInfoFile } from "./tests/e2e/cluster-teardown.ts";
import { e2eServers } from "./tests/e2e/servers.ts";
import { APP_URL, CLUSTER } from "./tests/e2e/urls.ts";

/**
 * End-to-end tests: a real Chromium against the production build (`npm run build` first; this
 * config never builds), a fresh PGlite database per run, a fake SMTP server that the app sends
 * real mail to, and fakes of X, YouTube, TikTok and Instagram (OAuth and REST, driven by the tests
 * through tests/e2e/social-helpers.ts). See tests/e2e/fixtures.ts for the helpers every test uses.
 */

// Each run starts from an empty database; the ones of earlier runs go.
const E2E_DIR = path.resolve(".e2e");
// Playwright loads this config in the runner and again in every worker: only the runner (the
// process that starts the web servers) names and cleans the data folder; workers inherit it
// through QUESTLINE_E2E_DATA_DIR.
if (!process.env.QUESTLINE_E2E_DATA_DIR) {
  for (const entry of safeReaddir(E2E_DIR)) rmSync(path.join(E2E_DIR, entry), { recursive: true, force: true });
  process.env.QUESTLINE_E2E_DATA_DIR = path.join(".e2e", `data-${Date.now()}`);
}
const DATA_DIR = process.env.QUESTLINE_E2E_DATA_DIR;

/**
 * `E2E_CLUSTER=1`: the tests tagged `@cluster` (those that exercise what a cluster changes, decision
 * 049) against `npm run cluster`'s processes instead of one — 3 web processes behind its proxy and
 * 2 workers on a throwaway PostgreSQL — with a worker SIGKILLed about every E2E_KILL_WORKER_EVERY
 * seconds (60), preferably mid-withdrawal or mid-payout. The teardown then checks the job engine's
 * own tables (tests/e2e/cluster-teardown.ts).
 */
const CLUSTER_INFO_FILE = clusterInfoFile(DATA_DIR);
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

function safeReaddir(dir: string) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  // Against one app process, E2E_WORKERS workers (1), each with its own servers: a machine with
  // more than two cores can run two or more (on two, two browsers and two apps outrun the tests'
  // waits). The cluster is one set of servers, for one worker.
  workers: CLUSTER ? 1 : Number(process.env.E2E_WORKERS ?? 1),
  ...(CLUSTER ? { grep: /@cluster/ } : {}),
  retries: 0,
  reporter: "list",
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  ...(CLUSTER ? { globalTeardown: "./tests/e2e/cluster-teardown.ts" } : {}),
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: APP_URL,
    locale: "en-US",
    timezoneId: "UTC",
    // No trace: recording one for every test (to keep a failed one's) cost the browser more CPU
    // than the tests themselves, a third of the suite's time (decision 049). A failure keeps its
    // screenshot and the actions' log; `--trace retain-on-failure` records traces when debugging.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      // Chromium's headless shell (scripts/ensure-deps.sh installs it): the same engine as the
      // browser's, at half the CPU per test.
      executablePath: existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium", viewport: { width: 1280, height: 800 } } }],
  // The cluster is started once for the run; against one app process each worker starts its own
  // servers (the `servers` fixture, tests/e2e/fixtures.ts).
  webServer: CLUSTER
    ? e2eServers({ dataDir: DATA_DIR, clusterInfoFile: CLUSTER_INFO_FILE }).map((server) => ({
        name: server.name,
        command: server.command,
        url: server.url,
        env: server.env,
        timeout: server.timeout,
        reuseExistingServer: false,
        stdout: server.name === "app" ? ("pipe" as const) : ("ignore" as const),
        stderr: "pipe" as const,
        gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
      }))
    : [],
});
