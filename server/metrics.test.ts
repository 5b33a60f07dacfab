import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import { sql } from "drizzle-orm";
import express from "express";
import type { PgBoss } from "pg-boss";
import { RouterContextProvider } from "react-router";
import { custom, type Address, type EIP1193RequestFn } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { chainEventCursor } from "#db/schema/chain";
import { journalEntry, withdrawal, type WithdrawalStatus } from "#db/schema/ledger";
import type { Database } from "~/lib/db.server";
import { startJobEngine } from "~/lib/job-engine.server";
import { createLogger } from "~/lib/logger.server";
import { routePatternContext, routePatternInstrumentation } from "~/lib/route-pattern.server";
import { buildChainRegistry } from "~/modules/chain/chain-registry.server";
import type { ContractAddresses } from "~/modules/chain/contract-addresses.server";
import { LOCAL_PROJECT_ID } from "~/wallet/wallet-cloud";
import { testServerBuild } from "#tests/setup/server-build";
import { createTestDatabase } from "#tests/setup/test-db";
import { createMetrics, readerCheck } from "./metrics";

const TOKEN = "metrics-token-0123456789";
const VAULT = "0x00000000000000000000000000000000000000aa" as Address;
const OTHER_VAULT = "0x00000000000000000000000000000000000000bb" as Address;
const contractsAt = (vault: Address): ContractAddresses => ({ QuestToken: VAULT, TokenSale: VAULT, DepositVault: vault, AirdropDistributor: VAULT });
/** A node that answers `eth_blockNumber` with `head`, one that refuses every call, and one that never answers. */
const answering = (head: bigint) =>
  custom({ request: (async ({ method }) => (method === "eth_blockNumber" ? `0x${head.toString(16)}` : null)) as EIP1193RequestFn });
const refusing = custom({ request: (async () => Promise.reject(new Error("connection refused"))) as EIP1193RequestFn });
const silent = custom({ request: (() => new Promise(() => {})) as EIP1193RequestFn });

let database: Database;
let server: Server;
let base: string;
let assets: string;
let boss: PgBoss | undefined;

/** A server build of our own: an index page, a resource route with a param, one that throws, and the catch-all. */
const build = testServerBuild({
  entry: {
    default: (_request: Request, status: number, headers: Headers) => new Response("<!doctype html><title>page</title>", { status, headers }),
    handleError: () => {},
    instrumentations: [routePatternInstrumentation],
  },
  routes: {
    root: { id: "root", path: "", module: { default: () => null } },
    "routes/home": { id: "routes/home", parentId: "root", index: true, module: { default: () => null } },
    "routes/project": {
      id: "routes/project",
      parentId: "root",
      path: "projects/:project",
      module: { loader: ({ params }: { params: { project: string } }) => Response.json({ project: params.project }) },
    },
    "routes/boom": {
      id: "routes/boom",
      parentId: "root",
      path: "boom",
      module: {
        loader: () => {
          throw new Error("boom");
        },
      },
    },
    "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*", module: { loader: () => new Response("Not found", { status: 404 }) } },
  },
});

beforeAll(async () => {
  // One no earlier file used: the journal's counter reads the table's statistics, which an earlier
  // file's inserts could still be reaching while this file counts.
  database = await createTestDatabase({ unused: true });
  const chains = buildChainRegistry({
    config: { localRpcs: {}, ankr: null, infura: null, blast: null, projectId: LOCAL_PROJECT_ID, chainIds: [31337] },
    chainIds: [],
    chains: [
      { id: 31337, transport: answering(100n), contracts: contractsAt(VAULT), confirmations: 1 },
      { id: 97, transport: refusing, contracts: contractsAt(VAULT), confirmations: 1 },
      { id: 11155111, transport: silent, contracts: contractsAt(VAULT), confirmations: 1 },
      { id: 56, transport: answering(5_000n), contracts: contractsAt(VAULT), confirmations: 1 },
    ],
    logger: createLogger("silent"),
  });
  const metrics = createMetrics({ database, chains, logger: createLogger("silent"), token: TOKEN, chainTimeoutMs: 300 });

  assets = mkdtempSync(path.join(tmpdir(), "questline-metrics-"));
  mkdirSync(path.join(assets, "assets"));
  writeFileSync(path.join(assets, "assets", "app-1a2b3c.js"), "console.log(1)");
  const app = express();
  app.use(metrics.observe);
  app.get("/metrics", metrics.handler);
  app.get("/things/:id", (req, res) => void res.json({ id: req.params.id }));
  app.post("/things/:id", (req, res) => void res.status(201).json({ id: req.params.id }));
  // Answers only once the client has gone.
  app.get("/slow", () => {});
  app.use("/assets", express.static(path.join(assets, "assets")));
  app.use(
    createRequestHandler({
      build,
      // As server/app.ts does: the response's locals are the slot the route pattern is written to.
      getLoadContext: (_req, res) =>
        new RouterContextProvider(new Map<Parameters<RouterContextProvider["get"]>[0], unknown>([[routePatternContext, res.locals]])),
    }),
  );
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await boss?.stop({ graceful: false, timeout: 1_000 });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
  rmSync(assets, { recursive: true, force: true });
});

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Prometheus' text format, its samples only. */
function parse(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key!, value!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

async function scrape(headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await response.text());
}

/** The sample named `name` whose labels include `labels`; undefined when there is none. */
const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
const named = (samples: Sample[], name: string) => samples.filter((sample) => sample.name === name);

async function get(pathname: string, init?: RequestInit) {
  const response = await fetch(`${base}${pathname}`, init);
  await response.arrayBuffer();
  return response.status;
}

describe("request durations", () => {
  it("counts requests by route pattern, method and status, never by address", async () => {
    expect(await Promise.all(["/things/1", "/things/2", "/things/3"].map((p) => get(p)))).toEqual([200, 200, 200]);
    expect(await get("/things/1", { method: "POST" })).toBe(201);
    expect(await Promise.all(["/projects/alpha", "/projects/beta"].map((p) => get(p)))).toEqual([200, 200]);
    expect(await get("/")).toBe(200);
    expect(await get("/boom")).toBe(500);
    expect(await Promise.all(["/no/such/page", "/zzz"].map((p) => get(p)))).toEqual([404, 404]);
    expect(await Promise.all(["/assets/app-1a2b3c.js", "/assets/gone-9z.js"].map((p) => get(p)))).toEqual([200, 404]);
    expect(await get("/__manifest?paths=/projects/alpha&version=test")).toBe(200);

    const samples = await scrape();
    const count = (method: string, route: string, status: string) => valueOf(samples, "http_request_duration_seconds_count", { method, route, status });
    expect(count("GET", "/things/:id", "200")).toBe(3);
    expect(count("POST", "/things/:id", "201")).toBe(1);
    expect(count("GET", "/projects/:project", "200")).toBe(2);
    expect(count("GET", "/", "200")).toBe(1);
    expect(count("GET", "/boom", "500")).toBe(1);
    expect(count("GET", "unmatched", "404")).toBe(2);
    expect(count("GET", "/assets/*", "200")).toBe(1);
    expect(count("GET", "/assets/*", "404")).toBe(1);
    expect(count("GET", "/__manifest", "200")).toBe(1);
    // Each request is in the +Inf bucket and in the sum.
    expect(valueOf(samples, "http_request_duration_seconds_bucket", { method: "GET", route: "/things/:id", status: "200", le: "+Inf" })).toBe(3);
    expect(valueOf(samples, "http_request_duration_seconds_sum", { method: "GET", route: "/things/:id", status: "200" })).toBeGreaterThan(0);

    const routes = new Set(named(samples, "http_request_duration_seconds_count").map((sample) => sample.labels.route));
    expect([...routes].sort()).toEqual(["/", "/__manifest", "/assets/*", "/boom", "/projects/:project", "/things/:id", "unmatched"]);
    // A client that leaves before the answer.
    const leaving = new AbortController();
    const left = fetch(`${base}/slow`, { signal: leaving.signal }).catch(() => "aborted");
    setTimeout(() => leaving.abort(), 50);
    expect(await left).toBe("aborted");
    await expect.poll(async () => valueOf(await scrape(), "http_request_duration_seconds_count", { route: "/slow", status: "aborted" })).toBe(1);

    // The process's own figures come along.
    expect(valueOf(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(valueOf(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });
});

describe("withdrawals and the ledger", () => {
  it("counts withdrawals not settled yet by state, every such state present", async () => {
    await database.db.insert(user).values({ id: "alice", email: "alice@example.com", name: "Alice" });
    const states: WithdrawalStatus[] = ["requested", "requested", "sent", "failed", "confirmed", "cancelled"];
    await database.db.insert(withdrawal).values(
      states.map((status, i) => ({
        id: `0x${String(i).padStart(64, "0")}`,
        userId: "alice",
        chainId: 31337,
        asset: "QUEST:31337",
        toAddress: VAULT,
        amount: 10n ** 18n,
        status,
        requestKey: `key-${i}`,
      })),
    );
    const samples = await scrape();
    expect(Object.fromEntries(named(samples, "withdrawals").map((sample) => [sample.labels.state, sample.value]))).toEqual({
      requested: 2,
      sending: 0,
      sent: 1,
      failed: 1,
    });
  });

  it("counts journal entries as they are inserted, a counter read from the table's statistics", async () => {
    const before = valueOf(await scrape(), "ledger_journal_entries_total");
    expect(before).toBeTypeOf("number");
    await database.db.transaction(async (tx) => {
      await tx.insert(journalEntry).values(["a", "b", "c"].map((key) => ({ idempotencyKey: `metrics-${key}`, kind: "test" })));
      // Statistics reach the shared view at most once a second otherwise.
      await tx.execute(sql`select pg_stat_force_next_flush()`);
    });
    await expect.poll(async () => valueOf(await scrape(), "ledger_journal_entries_total"), { timeout: 15_000, interval: 300 }).toBe(before! + 3);
  });
});

describe("job queues", () => {
  it("says nothing of queues before the job engine's schema exists, and counts their jobs once it does", async () => {
    const before = await scrape();
    expect(named(before, "job_queue_depth")).toEqual([]);
    expect(named(before, "job_queue_active")).toEqual([]);

    boss = await startJobEngine({ connection: database.jobConnection, runsJobs: false, logger: createLogger("silent") });
    await boss.createQueue("metrics-busy", { retryLimit: 0 });
    await boss.createQueue("metrics-retry", { retryLimit: 3, retryDelay: 3600 });
    await boss.createQueue("metrics-idle");
    for (const n of [1, 2, 3, 4]) await boss.send("metrics-busy", { n });
    const [failing, running] = await boss.fetch("metrics-busy", { batchSize: 2 });
    await boss.fail("metrics-busy", failing!.id, { message: "it broke" });
    await boss.send("metrics-retry", {});
    const [retried] = await boss.fetch("metrics-retry");
    await boss.fail("metrics-retry", retried!.id, { message: "once more" });
    expect(running).toBeDefined();

    const samples = await scrape();
    const of = (queue: string) => ({
      depth: valueOf(samples, "job_queue_depth", { queue }),
      active: valueOf(samples, "job_queue_active", { queue }),
      failed: valueOf(samples, "job_queue_failed", { queue }),
    });
    expect(of("metrics-busy")).toEqual({ depth: 2, active: 1, failed: 1 });
    expect(of("metrics-retry")).toEqual({ depth: 1, active: 0, failed: 0 });
    expect(of("metrics-idle")).toEqual({ depth: 0, active: 0, failed: 0 });
  });
});

describe("deposit scanner lag", () => {
  it("is the head less the cursor per vault chain; a chain whose node is down or slow, or not scanned yet, is left out", async () => {
    await database.db.insert(chainEventCursor).values([
      { chainId: 31337, subscription: "deposits", address: VAULT.toUpperCase().replace("0X", "0x"), nextBlock: 91 },
      { chainId: 97, subscription: "deposits", address: VAULT, nextBlock: 10 },
      { chainId: 11155111, subscription: "deposits", address: VAULT, nextBlock: 10 },
      // Another vault's cursor: the scanner starts this chain afresh.
      { chainId: 56, subscription: "deposits", address: OTHER_VAULT, nextBlock: 10 },
    ]);
    const started = performance.now();
    const samples = await scrape();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(named(samples, "deposit_scanner_lag_blocks").map(({ labels, value }) => ({ labels, value }))).toEqual([
      { labels: { chain_id: "31337" }, value: 10 },
    ]);

    // Read up to the head: no lag.
    await database.db
      .update(chainEventCursor)
      .set({ nextBlock: 101 })
      .where(sql`${chainEventCursor.chainId} = 31337 and ${chainEventCursor.subscription} = 'deposits'`);
    expect(valueOf(await scrape(), "deposit_scanner_lag_blocks", { chain_id: "31337" })).toBe(0);
  });
});

describe("a database that does not answer", () => {
  it("leaves the figures read from it out, logged, and the scrape still answers", async () => {
    const down = new Error("the database is down");
    const broken = {
      db: {
        execute: () => Promise.reject(down),
        select: () => {
          throw down;
        },
      },
    } as never;
    const warned: unknown[] = [];
    const logger = createLogger("silent");
    logger.warn = ((obj: unknown) => void warned.push(obj)) as typeof logger.warn;
    const metrics = createMetrics({ database: broken, chains: { vaultChains: () => [] } as never, logger });
    const samples = parse(await metrics.scrape());
    for (const name of ["job_queue_depth", "job_queue_active", "job_queue_failed", "deposit_scanner_lag_blocks", "withdrawals"])
      expect(named(samples, name), name).toEqual([]);
    // The process's own figures still come. Its CPU counter counts from the registry's creation a moment
    // ago and may read 0 yet, so the figures read at the scrape stand for them.
    expect(valueOf(samples, "process_start_time_seconds")).toBeGreaterThan(0);
    expect(valueOf(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(warned).toHaveLength(6);
    expect(warned.every((entry) => (entry as { err: unknown }).err === down)).toBe(true);
  });
});

/** Metrics on the test database whose reads of the database and the chains are counted, in order. */
function countedMetrics() {
  const reads: ("execute" | "select" | "chains")[] = [];
  const counted = {
    db: new Proxy(database.db, {
      get: (target, key, receiver) => {
        if (key === "execute" || key === "select") reads.push(key);
        return Reflect.get(target, key, receiver);
      },
    }),
  } as Database;
  const vaultChains = () => (reads.push("chains"), []);
  const metrics = createMetrics({ database: counted, chains: { vaultChains } as never, logger: createLogger("silent") });
  const count = () => ({ chains: reads.filter((read) => read === "chains").length, database: reads.filter((read) => read !== "chains").length });
  return { metrics, reads, count };
}

describe("a scrape under npm start", () => {
  it("asks each process for its own figures only, which read nothing from the database or the chains", async () => {
    const { metrics, reads, count } = countedMetrics();
    const own = await metrics.registry.getMetricsAsJSON();
    expect(own.map((metric) => metric.name)).toContain("http_request_duration_seconds");
    expect(own.map((metric) => metric.name)).not.toContain("withdrawals");
    expect(reads).toEqual([]);
    // The process that takes the scrape reads them, once each.
    const samples = parse(await metrics.scrape());
    expect(named(samples, "withdrawals").length).toBeGreaterThan(0);
    expect(count().chains).toBe(1);
    expect(samples.filter((sample) => sample.name === "nodejs_version_info")).toHaveLength(1);
  });
});

describe("scrapes at the same moment", () => {
  it("share one reading of the database and the chains, and each gets the whole answer; the next scrape reads again", async () => {
    const { metrics, count } = countedMetrics();
    await metrics.scrape();
    const oneScrape = count();
    expect(oneScrape.database).toBeGreaterThan(0);

    const answers = await Promise.all(Array.from({ length: 20 }, () => metrics.scrape()));
    expect(count()).toEqual({ chains: 2 * oneScrape.chains, database: 2 * oneScrape.database });
    for (const answer of answers) expect(named(parse(answer), "withdrawals").length).toBeGreaterThan(0);

    await metrics.scrape();
    expect(count()).toEqual({ chains: 3 * oneScrape.chains, database: 3 * oneScrape.database });
  });
});

describe("who may read /metrics", () => {
  it("answers a client on this host, and through a proxy only with the token", async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    const relayed = { "x-forwarded-for": "203.0.113.9" };
    expect((await fetch(`${base}/metrics`, { headers: relayed })).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { headers: { ...relayed, authorization: "Bearer wrong-token-0123456789" } })).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { headers: { forwarded: "for=203.0.113.9" } })).status).toBe(404);
    expect(named(await scrape({ ...relayed, authorization: `Bearer ${TOKEN}` }), "withdrawals").length).toBeGreaterThan(0);
  });

  it("takes loopback addresses of either family, refuses others without the token, and without a token configured only loopback", () => {
    const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as never;
    const withToken = readerCheck(TOKEN, { loopback: true });
    const withoutToken = readerCheck(undefined, { loopback: true });
    for (const address of ["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"]) expect(withoutToken(request(address)), address).toBe(true);
    for (const address of ["203.0.113.9", "::ffff:203.0.113.9", "10.0.0.1", "2001:db8::1", "::"]) {
      expect(withoutToken(request(address)), address).toBe(false);
      expect(withoutToken(request(address, { authorization: `Bearer ${TOKEN}` })), address).toBe(false);
      expect(withToken(request(address, { authorization: `Bearer ${TOKEN}` })), address).toBe(true);
      expect(withToken(request(address, { authorization: `Bearer ${TOKEN}x` })), address).toBe(false);
      expect(withToken(request(address, { authorization: TOKEN })), address).toBe(false);
    }
  });

  it("served publicly, asks every client for the token, loopback ones too, and without a token answers nobody", async () => {
    const local = (headers: Record<string, string> = {}) => ({ socket: { remoteAddress: "127.0.0.1" }, headers }) as never;
    expect(readerCheck(TOKEN, { loopback: false })(local())).toBe(false);
    expect(readerCheck(TOKEN, { loopback: false })(local({ authorization: `Bearer ${TOKEN}` }))).toBe(true);
    expect(readerCheck(undefined, { loopback: false })(local())).toBe(false);

    const chains = { vaultChains: () => [] } as never;
    const logger = createLogger("silent");
    const withToken = express().get("/metrics", createMetrics({ database, chains, logger, token: TOKEN, isPublic: true }).handler);
    const withoutToken = express().get("/metrics", createMetrics({ database, chains, logger, isPublic: true }).handler);
    for (const [app, statuses] of [
      [withToken, [404, 200]],
      [withoutToken, [404, 404]],
    ] as const) {
      const publicServer = createServer(app);
      await new Promise<void>((resolve) => publicServer.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(publicServer.address() as { port: number }).port}/metrics`;
      try {
        expect((await fetch(url)).status).toBe(statuses[0]);
        expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(statuses[1]);
      } finally {
        await new Promise<void>((resolve) => publicServer.close(() => resolve()));
      }
    }
  });

  it("refuses a token too short to guess at", () => {
    expect(() => createMetrics({ database, chains: { vaultChains: () => [] } as never, logger: createLogger("silent"), token: "short" })).toThrow(
      /at least 16/,
    );
  });
});
