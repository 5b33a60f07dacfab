import { createHash, timingSafeEqual } from "node:crypto";
import { count, eq, inArray, sql } from "drizzle-orm";
import type { Request, RequestHandler, Response } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { isAddressEqual, type Address } from "viem";
import { z } from "zod";
import { chainEventCursor } from "#db/schema/chain";
import { withdrawal, WITHDRAWAL_STATUSES } from "#db/schema/ledger";
import { rowsOf, type Database } from "~/lib/db.server";
import { JOB_SCHEMA } from "~/lib/job-engine.server";
import type { Logger } from "~/lib/logger.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { DEPOSIT_SUBSCRIPTION } from "~/modules/deposits/scanner.server";
import { scrapeAll } from "./cluster-metrics";

/**
 * `/metrics` in Prometheus' text format: request durations by route pattern, and, read from the
 * database and the chains at scrape time, job queues, deposit scanner lag, withdrawals by state
 * and the ledger's postings. Two registries: `registry` holds this process's own figures, a second
 * one the database's and the chains', read at scrape time. Under `npm start` on several cores one
 * scrape adds up every process's own figures (server/cluster-metrics.ts) and reads the shared ones
 * once, in the process that took it. The shared figures are the same on every machine: across
 * machines, aggregate them with `max`, not `sum`.
 */

/** Static files: one label for them all. */
const ASSETS_ROUTE = "/assets/*";
/** Requests no route pattern is known for (React Router's catch-all "not found" page among them). */
const UNMATCHED = "unmatched";
const NOT_FOUND_PATTERN = "/*";
/** React Router's list of routes, asked for by the browser on navigation; answered before any matching. */
const MANIFEST_PATH = "/__manifest";
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** How long a scrape waits for a chain's node before leaving its lag out. */
const CHAIN_TIMEOUT_MS = 2_000;
/** The job states that are work in hand: pg-boss's index `job_i14` holds exactly these, so counting them never reads finished jobs. */
const LIVE_JOB_STATES = sql.raw(`('created', 'retry', 'active', 'failed')`);
/**
 * Withdrawals still in hand, counted through the status index. Confirmed and cancelled ones only
 * grow: counting them read the whole table (0.55 s a scrape at a million rows on PGlite, whose one
 * session everything else waits on).
 */
const OPEN_WITHDRAWAL_STATES = WITHDRAWAL_STATUSES.filter((state) => state !== "confirmed" && state !== "cancelled");

const tokenSchema = z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional();

export type Metrics = {
  /** This process's own figures: request durations, memory, CPU. */
  registry: Registry;
  /** The whole exposition this server answers /metrics with: every process's own figures, the shared ones once. */
  scrape: () => Promise<string>;
  /** Express middleware: observes every request's duration into the histogram, labelled by route pattern (never raw URL), method and status. */
  observe: RequestHandler;
  /** Express handler for GET /metrics. */
  handler: RequestHandler;
};

export function createMetrics({
  database,
  chains,
  logger,
  token,
  isPublic = false,
  chainTimeoutMs = CHAIN_TIMEOUT_MS,
}: {
  database: Database;
  chains: ChainRegistry;
  logger: Logger;
  /** METRICS_TOKEN: with it, a scraper on another host reads /metrics with `Authorization: Bearer <token>`. */
  token?: string;
  /** Served publicly: a proxy may make every request look local, so only the token opens /metrics (none: nobody). */
  isPublic?: boolean;
  chainTimeoutMs?: number;
}): Metrics {
  const allowed = readerCheck(tokenSchema.parse(token), { loopback: !isPublic });
  const { db } = database;
  const registry = new Registry();
  // Figures read from the database and the chains at scrape time: the same whichever process reads them.
  const shared = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its response's end, by route pattern; status `aborted` when the client left first.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  /** A gauge read at scrape time; a failed read leaves its series out of that scrape (logged), never fails the scrape. */
  const scrapedGauge = <L extends string>({ read, ...config }: { name: string; help: string; labelNames: readonly L[]; read: () => Promise<Series<L>[]> }) =>
    new Gauge({
      ...config,
      registers: [shared],
      async collect() {
        try {
          const series = await read();
          this.reset();
          for (const [labels, value] of series) this.set(labels, value);
        } catch (err) {
          this.reset();
          logger.warn({ err }, `metrics: ${config.name} could not be read`);
        }
      },
    });

  // One query per scrape feeds the three queue gauges, which prom-client collects together.
  let queueRead: Promise<QueueStates> | null = null;
  const byQueue = (value: (states: Record<string, number>) => number) => async () => {
    const queues = await (queueRead ??= readQueues(database).finally(() => (queueRead = null)));
    return [...queues].map(([queue, states]): Series<"queue"> => [{ queue }, value(states)]);
  };
  const absentBeforeEngine = "; absent until the job engine has installed its tables";
  scrapedGauge({
    name: "job_queue_depth",
    help: `Jobs waiting to run (created or to be retried), by queue${absentBeforeEngine}.`,
    labelNames: ["queue"],
    read: byQueue((s) => (s.created ?? 0) + (s.retry ?? 0)),
  });
  scrapedGauge({
    name: "job_queue_active",
    help: `Jobs running now, by queue${absentBeforeEngine}.`,
    labelNames: ["queue"],
    read: byQueue((s) => s.active ?? 0),
  });
  scrapedGauge({
    name: "job_queue_failed",
    help: `Jobs failed for good and still kept (for the queue's retention), by queue${absentBeforeEngine}.`,
    labelNames: ["queue"],
    read: byQueue((s) => s.failed ?? 0),
  });
  scrapedGauge({
    name: "deposit_scanner_lag_blocks",
    help: "Blocks of a vault chain the deposit scanner has not read yet: the node's head less the stored cursor; absent before the first scan and while the node does not answer.",
    labelNames: ["chain_id"],
    read: () => depositLags({ database, chains, logger, timeoutMs: chainTimeoutMs }),
  });
  scrapedGauge({
    name: "withdrawals",
    help: "Withdrawals not settled yet, by state (confirmed and cancelled ones are not counted).",
    labelNames: ["state"],
    read: () => openWithdrawals(database),
  });

  new Counter({
    name: "ledger_journal_entries_total",
    help: "Journal entries inserted, from PostgreSQL's table statistics (no table read): rolled-back postings count, replays of a key already posted do not; resets with the server's statistics.",
    registers: [shared],
    async collect() {
      try {
        const [row] = rowsOf(await db.execute(sql`select pg_stat_get_tuples_inserted('journal_entry'::regclass)::text as n`));
        this.reset();
        this.inc(Number(row?.n ?? 0));
      } catch (err) {
        // The last value stays: a counter dropping to zero would read as a reset, and `rate()` as a burst.
        logger.warn({ err }, "metrics: the ledger's postings could not be read");
      }
    },
  });

  const observe: RequestHandler = (req, res, next) => {
    const started = performance.now();
    const assets = req.url.startsWith("/assets/");
    res.once("close", () => {
      const seconds = (performance.now() - started) / 1000;
      const status = res.writableFinished ? String(res.statusCode) : "aborted";
      duration.observe({ method: METHODS.has(req.method) ? req.method : "OTHER", route: assets ? ASSETS_ROUTE : routeOf(req, res), status }, seconds);
    });
    next();
  };

  /**
   * Scrapes that arrive while one is being read share its answer: a flood of them reads the
   * database, the chains and the other processes once at a time, not once each.
   */
  let reading: Promise<string> | null = null;
  const scrape = () =>
    (reading ??= Promise.all([scrapeAll() ?? registry.metrics(), shared.metrics()])
      .then(([own, read]) => `${own}\n${read}`)
      .finally(() => {
        reading = null;
      }));

  const handler: RequestHandler = async (req, res) => {
    res.set("cache-control", "no-store");
    if (!allowed(req)) return void res.status(404).type("text/plain").send("Not found");
    try {
      res.type(registry.contentType).send(await scrape());
    } catch (err) {
      logger.error({ err }, "metrics: the scrape failed");
      res.status(500).type("text/plain").send("The metrics could not be read.");
    }
  };

  return { registry, scrape, observe, handler };
}

/** The route pattern React Router matched (see app/lib/route-pattern.server.ts), an Express route's path, or `unmatched`. */
function routeOf(req: Request, res: Response): string {
  const pattern: unknown = res.locals.routePattern;
  if (typeof pattern === "string") return pattern === NOT_FOUND_PATTERN ? UNMATCHED : pattern;
  const route: unknown = req.route?.path;
  if (typeof route === "string") return req.baseUrl + route;
  return req.path === MANIFEST_PATH ? MANIFEST_PATH : UNMATCHED;
}

/**
 * Who may read /metrics: a client on this host talking to us directly, or anyone with the token.
 * A request relayed by a proxy (with forwarding headers) is not taken for a local one, even
 * when the proxy itself runs on this host.
 */
/**
 * Who may read /metrics: a bearer of the token, and, with `loopback`, a loopback client that came
 * through no proxy. Served publicly `loopback` is off: a proxy that sets no forwarding header makes
 * every visitor look local.
 */
export function readerCheck(token: string | undefined, { loopback }: { loopback: boolean }) {
  const expected = token ? digest(token) : null;
  return (req: Pick<Request, "headers" | "socket">) => {
    const authorization = req.headers.authorization;
    if (expected && authorization?.startsWith("Bearer ") && timingSafeEqual(digest(authorization.slice(7)), expected)) return true;
    if (!loopback) return false;
    const relayed = req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined || req.headers["x-real-ip"] !== undefined;
    return !relayed && isLoopback(req.socket.remoteAddress);
  };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

function isLoopback(address: string | undefined) {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return address === "::1" || v4.startsWith("127.");
}

type Series<L extends string> = [labels: Record<L, string>, value: number];
/** Per queue, its jobs in hand by state. */
type QueueStates = Map<string, Record<string, number>>;

/** Every queue with its jobs in hand by state; none while pg-boss's tables are not installed on this database. */
async function readQueues({ db }: Database): Promise<QueueStates> {
  const queues: QueueStates = new Map();
  const schema = sql.identifier(JOB_SCHEMA);
  const [installed] = rowsOf(await db.execute(sql`select to_regclass(${`${JOB_SCHEMA}.job`}) is not null as present`));
  if (!installed?.present) return queues;
  const rows = rowsOf(
    await db.execute(sql`
      select name, null as state, 0 as n from ${schema}.queue
      union all
      select name, state::text, count(*)::int from ${schema}.job where state in ${LIVE_JOB_STATES} group by 1, 2`),
  );
  for (const row of rows) {
    const name = String(row.name);
    const states = queues.get(name) ?? {};
    if (row.state !== null) states[String(row.state)] = Number(row.n);
    queues.set(name, states);
  }
  return queues;
}

/** Per vault chain with a cursor for its vault, the blocks not read yet; chains whose node does not answer in time are left out. */
async function depositLags({
  database: { db },
  chains,
  logger,
  timeoutMs,
}: {
  database: Database;
  chains: ChainRegistry;
  logger: Logger;
  timeoutMs: number;
}): Promise<Series<"chain_id">[]> {
  const cursors = new Map(
    (await db.select().from(chainEventCursor).where(eq(chainEventCursor.subscription, DEPOSIT_SUBSCRIPTION))).map((cursor) => [cursor.chainId, cursor]),
  );
  const lags = await Promise.all(
    chains.vaultChains().map(async (chain): Promise<Series<"chain_id"> | null> => {
      const cursor = cursors.get(chain.id);
      // Not scanned yet, or the cursor belongs to another vault (the scanner starts that one afresh).
      if (!cursor || !isAddressEqual(cursor.address as Address, chain.vault)) return null;
      try {
        const head = await withinMs(chain.client.getBlockNumber(), timeoutMs);
        // The cursor is the first block not read: read up to the head, it is head + 1.
        const behind = head + 1n - BigInt(cursor.nextBlock);
        return [{ chain_id: String(chain.id) }, behind > 0n ? Number(behind) : 0];
      } catch (err) {
        logger.debug({ err, chainId: chain.id }, "metrics: the chain's node did not answer; its deposit scanner lag is left out");
        return null;
      }
    }),
  );
  return lags.filter((lag) => lag !== null);
}

/** Withdrawals in hand by state, each such state present, read through the status index. */
async function openWithdrawals({ db }: Database): Promise<Series<"state">[]> {
  const rows = await db
    .select({ state: withdrawal.status, n: count() })
    .from(withdrawal)
    .where(inArray(withdrawal.status, OPEN_WITHDRAWAL_STATES))
    .groupBy(withdrawal.status);
  const byState = new Map(rows.map((row) => [row.state, row.n]));
  return OPEN_WITHDRAWAL_STATES.map((state) => [{ state }, byState.get(state) ?? 0]);
}

function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
