// The processes the load benchmark measures: the app's production build (one process, or the
// 3-web cluster of scripts/cluster.ts) and a bare `node:http` server answering one static page,
// the machine's baseline. Its throwaway PostgreSQL comes from scripts/throwaway-postgres.ts.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { freePort, startThrowawayPostgres } from "../scripts/throwaway-postgres.ts";
import { log } from "./stats.ts";

export const root = path.resolve(import.meta.dirname, "..");

/** A secret for the benchmark's own servers only: sessions signed by one process are read by the others. */
export const AUTH_SECRET = "questline-load-bench-secret-not-for-production-0123456789";

export type Target = { url: string; stop: () => Promise<void> };
export type TargetKind = "single" | "cluster";

/** What is wrong with build/ (missing, or older than something it is built from), or null when it is current. */
export function buildProblem(): string | null {
  const check = spawnSync(process.execPath, ["scripts/build-if-stale.ts", "--check"], { cwd: root, encoding: "utf8" });
  if (check.stdout.trim() === "current") return null;
  const missing = !existsSync(path.join(root, "build/server/index.js"));
  return `build/ is ${missing ? "missing" : "older than its sources"}: run \`npm run build\` first (the load benchmark measures the production build)`;
}

/** Runs one statement on a server (as its superuser). */
export async function admin(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

/** What a benchmark undoes when it ends, last first. */
export type Cleanups = (() => Promise<unknown> | unknown)[];

/**
 * A benchmark's list of things to undo, and `cleanUp` running them last first (a failing one is
 * logged, the rest still run); Ctrl-C runs them too before exiting.
 */
export function cleanupList() {
  const cleanups: Cleanups = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch((error: unknown) => log(`cleanup: ${String(error)}`));
  };
  process.once("SIGINT", () => void cleanUp().finally(() => process.exit(130)));
  return { cleanups, cleanUp };
}

/** The machine's business around a run: the figures depend on it (other processes take cores too). */
export const machine = () => `${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}`;

/**
 * A fresh database on DATABASE_URL's server (dropped afterwards) or on a throwaway server started
 * with `settings`; its removal is pushed on `cleanups`.
 */
export async function benchDatabase(cleanups: Cleanups, { settings }: { settings?: Record<string, string> } = {}): Promise<string> {
  let serverUrl = process.env.DATABASE_URL;
  if (serverUrl) log("PostgreSQL: DATABASE_URL's server (a fresh database on it, dropped afterwards)");
  else {
    const server = await startThrowawayPostgres({ settings });
    cleanups.push(server.stop);
    serverUrl = server.url;
    log(`PostgreSQL: a throwaway server at ${new URL(serverUrl).host} (fsync off, as scripts/with-postgres.sh)`);
  }
  const name = `questline_bench_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, `create database ${name}`);
  cleanups.push(() => admin(serverUrl, `drop database if exists ${name} with (force)`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Waits until `url` answers 200, or fails after `timeoutMs` (or when `child` exits first). */
async function waitFor(url: string, { timeoutMs, child }: { timeoutMs: number; child?: ChildProcess }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${url} answered`);
    const answered = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Stops a child: SIGTERM, then SIGKILL after `graceMs`. */
async function stopChild(child: ChildProcess, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The environment every app process of the benchmark gets (a target adds PORT and APP_URL). */
export function appEnv(databaseUrl: string, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    AUTH_SECRET,
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    // As when served publicly: no local chain (anvil) beside the app.
    LOCAL_CHAIN: "off",
  };
}

/** Runs `node server/main.ts --seed` (the demo, once) on the database. */
export function seedDemo(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["server/main.ts", "--seed"], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", 2, 2] });
  if (result.status !== 0) throw new Error(`seeding the demo failed (${result.signal ?? `exit ${result.status}`})`);
}

type StartCluster = (options: { databaseUrl: string; webs: number; workers: number; port: number; env: Record<string, string> }) => Promise<Target>;

/**
 * What the benchmark measures: one app process (`single`, ROLE=all as `npm start` runs it), or
 * 3 web processes and 2 workers behind a round-robin proxy (`cluster`, from scripts/cluster.ts).
 * Resolves once `/healthz` answers; null when the cluster script is not there.
 */
export async function startTarget(kind: TargetKind, { databaseUrl, env }: { databaseUrl: string; env: Record<string, string> }): Promise<Target | null> {
  if (kind === "cluster") {
    const modulePath = path.join(root, "scripts/cluster.ts");
    if (!existsSync(modulePath)) return null;
    const { startCluster } = (await import(modulePath)) as { startCluster: StartCluster };
    // Its proxy on a free port, and APP_URL spelled as we call it (the other loopback name would be redirected).
    const port = await freePort();
    const cluster = await startCluster({ databaseUrl, webs: 3, workers: 2, port, env: { ...env, APP_URL: `http://127.0.0.1:${port}` } });
    await waitFor(`${cluster.url}/healthz`, { timeoutMs: 120_000 });
    return cluster;
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["server/main.ts"], {
    cwd: root,
    env: { ...process.env, ROLE: "all", ...env, PORT: String(port), HOST: "127.0.0.1", APP_URL: url },
    // The app's own output goes to stderr: stdout carries only BENCH lines.
    stdio: ["ignore", 2, 2],
  });
  try {
    await waitFor(`${url}/healthz`, { timeoutMs: 120_000, child });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, stop: () => stopChild(child) };
}

/** The bare server: `node:http` answering every request with the same static HTML page of `bytes` bytes. */
const BARE_SERVER = `
import { createServer } from "node:http";
const bytes = Number(process.env.BARE_BYTES);
const head = "<!doctype html><html lang=en><head><meta charset=utf-8><title>Bare</title></head><body><main><p>";
const tail = "</p></main></body></html>";
const page = Buffer.from(head + "x".repeat(Math.max(0, bytes - head.length - tail.length)) + tail);
createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.length });
  res.end(page);
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

/** Starts the bare server in its own process, like the app. */
export async function startBareServer(bytes: number): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_SERVER], {
    env: { ...process.env, PORT: String(port), BARE_BYTES: String(bytes) },
    stdio: ["ignore", 2, 2],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url, { timeoutMs: 10_000, child });
  return { url, stop: () => stopChild(child, 2_000) };
}
