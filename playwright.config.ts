import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { fakeOrigins, fakesEnv } from "./tests/fakes/social/endpoints.ts";
import { clusterInfoFile } from "./tests/e2e/cluster-teardown.ts";
import { APP_PORT, APP_URL, INBOX_PORT, INBOX_URL, SMTP_PORT, SOCIAL_CONTROL_URL, SOCIAL_PORT } from "./tests/e2e/urls.ts";

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
 * `E2E_CLUSTER=1`: the same suite against `npm run cluster`'s processes instead of one — 3 web
 * processes behind its proxy and 2 workers on a throwaway PostgreSQL — with a worker SIGKILLed
 * about every E2E_KILL_WORKER_EVERY seconds (60), preferably mid-withdrawal or mid-payout. The
 * teardown then checks the job engine's own tables (tests/e2e/cluster-teardown.ts).
 */
const CLUSTER = process.env.E2E_CLUSTER === "1";
const CLUSTER_INFO_FILE = clusterInfoFile(DATA_DIR);
const APP_COMMAND = CLUSTER
  ? `node --import ./scripts/app-paths.ts scripts/cluster.ts --port ${APP_PORT} --info-file ${CLUSTER_INFO_FILE} --kill-worker-every ${process.env.E2E_KILL_WORKER_EVERY ?? 60}`
  : "node server/main.ts";

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
  workers: 1,
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
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
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
  webServer: [
    {
      name: "mail",
      command: "node tests/fakes/smtp-inbox.ts",
      url: `${INBOX_URL}/health`,
      env: { SMTP_INBOX_PORT: String(SMTP_PORT), SMTP_INBOX_HTTP_PORT: String(INBOX_PORT) },
      reuseExistingServer: false,
      timeout: 15_000,
      stdout: "ignore",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 2_000 },
    },
    {
      name: "social",
      command: "node tests/fakes/social/serve.ts",
      url: `${SOCIAL_CONTROL_URL}/health`,
      env: { SOCIAL_FAKES_PORT: String(SOCIAL_PORT) },
      reuseExistingServer: false,
      timeout: 15_000,
      stdout: "ignore",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 2_000 },
    },
    {
      name: "app",
      command: APP_COMMAND,
      url: `${APP_URL}/healthz`,
      env: {
        NODE_ENV: "production",
        PORT: String(APP_PORT),
        APP_URL,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        // A fixed secret for tests only; never used anywhere else.
        AUTH_SECRET: "e2e-Qx7vN2pLk9sWd4TfRb8mZc3HyJ6gUa5E-not-a-real-secret",
        DATA_DIR,
        TRUST_PROXY: "loopback",
        LOG_LEVEL: "warn",
        // Tests make their own data; the demo would only slow the start.
        SEED_DEMO: "false",
        // The platform operator the category tests sign in as (tests/e2e/quest-forms.spec.ts).
        OPERATORS: "operator@example.com,treasurer@example.com",
        // The local anvil chain (id 31337, random loopback port) that the wallet tests sign in on;
        // production turns it off by default.
        LOCAL_CHAIN: "on",
        // Reward pools of ended campaigns are paid every 2 seconds instead of every minute, so
        // tests/e2e/rewards.spec.ts sees the payment soon after its campaign ends.
        REWARDS_EVERY_MS: "2000",
        // Two confirmations on the local chain, so tests/e2e/balance.spec.ts sees a deposit
        // pending (1/2) until it mines another block.
        CONFIRMATIONS: "31337:2",
        // The four social providers, pointed at their fakes (tests/fakes/social/serve.ts), with X's
        // app token for Verify X account.
        ...fakesEnv(fakeOrigins(SOCIAL_PORT)),
        // A fixed key for tests only (64 hex digits); never used anywhere else.
        SOCIAL_TOKEN_KEY: "e2e0000000000000000000000000000000000000000000000000000000000016",
      },
      reuseExistingServer: false,
      // The first open of an empty PGlite folder takes a few seconds.
      timeout: CLUSTER ? 240_000 : 60_000,
      stdout: "pipe",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
  ],
});
