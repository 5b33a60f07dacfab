/**
 * The servers an e2e run talks to: the fake mail server, the social providers' fakes and the app
 * (the production build on a fresh PGlite, or `npm run cluster`'s processes with E2E_CLUSTER=1).
 * Against one app process, each Playwright worker starts its own set on its own ports
 * (tests/e2e/urls.ts, the `servers` fixture): two workers never share a database, an inbox or a
 * rate limit. The cluster is started once for the run, by playwright.config.ts.
 */
import path from "node:path";
import { spawnTied } from "../../app/lib/tied-process.server.ts";
import { fakeOrigins, fakesEnv } from "../fakes/social/endpoints.ts";
import { APP_PORT, APP_URL, CLUSTER, INBOX_PORT, INBOX_URL, SMTP_PORT, SOCIAL_CONTROL_URL, SOCIAL_PORT } from "./urls.ts";

export type ServerSpec = {
  name: string;
  command: string;
  /** Answers 200 once the server is ready. */
  url: string;
  env: Record<string, string>;
  /** How long it may take to become ready. */
  timeout: number;
};

export function e2eServers({ dataDir, clusterInfoFile }: { dataDir: string; clusterInfoFile: string }): ServerSpec[] {
  const app = CLUSTER
    ? `node --import ./scripts/app-paths.ts scripts/cluster.ts --port ${APP_PORT} --info-file ${clusterInfoFile} --kill-worker-every ${process.env.E2E_KILL_WORKER_EVERY ?? 60}`
    : "node server/main.ts";
  return [
    {
      name: "mail",
      command: "node tests/fakes/smtp-inbox.ts",
      url: `${INBOX_URL}/health`,
      env: { SMTP_INBOX_PORT: String(SMTP_PORT), SMTP_INBOX_HTTP_PORT: String(INBOX_PORT) },
      timeout: 60_000,
    },
    {
      name: "social",
      command: "node tests/fakes/social/serve.ts",
      url: `${SOCIAL_CONTROL_URL}/health`,
      env: { SOCIAL_FAKES_PORT: String(SOCIAL_PORT) },
      timeout: 60_000,
    },
    {
      name: "app",
      command: app,
      url: `${APP_URL}/healthz`,
      env: {
        NODE_ENV: "production",
        PORT: String(APP_PORT),
        APP_URL,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        // A fixed secret for tests only; never used anywhere else.
        AUTH_SECRET: "e2e-Qx7vN2pLk9sWd4TfRb8mZc3HyJ6gUa5E-not-a-real-secret",
        DATA_DIR: dataDir,
        TRUST_PROXY: "loopback",
        LOG_LEVEL: "warn",
        // Tests make their own data; the demo would only slow the start.
        SEED_DEMO: "false",
        // The platform's operators the tests sign in as: each address may ask for a sign-in e-mail
        // once in 30 s, so tests that may run close together (the cluster pass) use different ones.
        OPERATORS: "operator@example.com,treasurer@example.com,auditor@example.com",
        // The local anvil chain (id 31337, random loopback port) that the wallet tests sign in on;
        // production turns it off by default.
        LOCAL_CHAIN: "on",
        // Reward pools of ended campaigns are paid every 2 seconds instead of every minute, so
        // tests/e2e/rewards.spec.ts sees the payment soon after its campaign ends.
        REWARDS_EVERY_MS: "2000",
        // Two confirmations on the local chain, so tests/e2e/balance.spec.ts sees a deposit
        // pending (1/2) until it mines another block.
        CONFIRMATIONS: "31337:2",
        // Pages wait up to 5 s for the local chain: the browser tests keep both cores busy, and an
        // answer of anvil's that outlived the 800 ms default would show the chain as unreachable.
        CHAIN_PAGE_TIMEOUT_MS: "5000",
        // The four social providers, pointed at their fakes (tests/fakes/social/serve.ts), with X's
        // app token for Verify X account.
        ...fakesEnv(fakeOrigins(SOCIAL_PORT)),
        // A fixed key for tests only (64 hex digits); never used anywhere else.
        SOCIAL_TOKEN_KEY: "e2e0000000000000000000000000000000000000000000000000000000000016",
      },
      // The first open of an empty PGlite folder takes a few seconds; the cluster starts PostgreSQL and five processes.
      timeout: CLUSTER ? 240_000 : 120_000,
    },
  ];
}

const root = path.resolve(import.meta.dirname, "../..");

/** A server started by a worker: stopped when the worker is done, and dies with the worker however it ends. */
export type RunningServer = { name: string; stop: () => Promise<void> };

/** Starts `spec` and waits until its URL answers 200; its output is shown if it fails to start, its errors once it has. */
export async function startServer(spec: ServerSpec): Promise<RunningServer> {
  const [program, ...args] = spec.command.split(" ");
  const { child, stop } = spawnTied(program === "node" ? process.execPath : program!, args, {
    cwd: root,
    env: { ...process.env, ...spec.env },
    graceMs: 10_000,
  });
  let output = "";
  let ready = false;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", (chunk: Buffer) => {
    keep(chunk);
    // Once started, its errors are the test's to see.
    if (ready) process.stderr.write(`[${spec.name}] ${chunk.toString()}`);
  });
  const deadline = Date.now() + spec.timeout;
  while (!ready) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited (${child.exitCode}) before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${spec.name} was not ready at ${spec.url} within ${spec.timeout} ms:\n${output}`);
    }
    ready = await fetch(spec.url.replace("//localhost:", "//127.0.0.1:")).then(
      (response) => response.ok,
      () => false,
    );
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { name: spec.name, stop };
}
