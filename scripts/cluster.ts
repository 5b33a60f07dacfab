// `npm run cluster`: Questline as a cluster on one PostgreSQL — a throwaway PostgreSQL (or
// DATABASE_URL), one local chain, 3 web processes behind a small round-robin proxy and 2 workers —
// started all at once against the fresh database (migrations and the demo seed run exactly once).
// Prints the URL; Ctrl-C stops everything. Options: --webs N, --workers N, --port P (PORT, 3000).
// A process that ends (killed from outside too) is started again, as `npm start`'s supervisor does,
// and the proxy sends nothing to a web process until it answers. Every process it starts dies with
// it, however it ends.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import pg from "pg";
import { z } from "zod";
import { startLocalChain, type LocalChain } from "../app/lib/local-chain.server.ts";
import { createLogger } from "../app/lib/logger.server.ts";
import { restartPolicy } from "../app/lib/restart-policy.server.ts";
import { spawnTied, type TiedProcess } from "../app/lib/tied-process.server.ts";
import { ENV_PREFIXES, CONTRACT_KEYS } from "../app/modules/chain/contract-addresses.server.ts";
import { ensureLocalContracts } from "../app/modules/chain/contracts.server.ts";
import { freePort, startThrowawayPostgres } from "./throwaway-postgres.ts";

const root = path.resolve(import.meta.dirname, "..");

export type ClusterProcess = {
  name: string;
  role: "web" | "worker";
  port: number;
  process: TiedProcess;
  /** It answered /healthz and has not ended since: the proxy sends it requests. */
  ready: boolean;
};

export type Cluster = {
  url: string;
  databaseUrl: string;
  processes: ClusterProcess[];
  /** SIGKILLs worker `index` (no goodbye: its jobs in hand are taken up by another after their heartbeat lapses) and starts a new one in its place. */
  killWorker: (index: number) => Promise<void>;
  stop: () => Promise<void>;
};

/** Lines of a child's output, each prefixed with its name. */
function forward(name: string, stream: NodeJS.ReadableStream | null, to: NodeJS.WritableStream) {
  if (!stream) return;
  createInterface({ input: stream }).on("line", (line) => to.write(`[${name}] ${line}\n`));
}

async function healthy(port: number, child: TiedProcess, name: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.child.exitCode !== null) throw new Error(`${name} exited with code ${child.child.exitCode} before it was ready`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${name} was not ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const RETRYABLE = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE"]);
/** A request body up to this size is kept while it is sent, to send it again to another process. */
const REPLAY_LIMIT = 1024 * 1024;

/**
 * A round-robin HTTP proxy over the web processes that are ready, as a load balancer in front would
 * be: it adds X-Forwarded-For (the processes trust loopback proxies) and tries the next process when
 * one does not answer. A port that refuses a connection is left out (`down`) until its process is
 * ready again.
 */
function roundRobinProxy(upstreams: () => number[], down: (port: number) => void) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  return http.createServer((req, res) => {
    const bodiless = req.method === "GET" || req.method === "HEAD";
    // The body as sent so far: a process that refused the connection read none of it, so another gets all of it.
    const sent: Buffer[] = [];
    let sentBytes = 0;
    if (!bodiless)
      req.on("data", (chunk: Buffer) => {
        sentBytes += chunk.length;
        if (sentBytes <= REPLAY_LIMIT) sent.push(chunk);
      });
    const attempt = (tries: number) => {
      const ports = upstreams();
      if (ports.length === 0) {
        res.writeHead(503, { "content-type": "text/plain", "retry-after": "1" });
        res.end("The app is restarting; try again in a moment.");
        return;
      }
      const port = ports[next++ % ports.length]!;
      const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
      const upstream = http.request(
        { host: "127.0.0.1", port, method: req.method, path: req.url, headers: { ...req.headers, "x-forwarded-for": forwardedFor }, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
        },
      );
      upstream.once("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ECONNREFUSED") down(port);
        // No answer yet: a request without a body (GET, HEAD) is tried on the next process — the one
        // asked may be gone (refused) or may have closed a kept-alive connection just as it was reused
        // (reset). One with a body only when the connection was refused (nothing reached that process).
        const replayable = !res.headersSent && (bodiless ? RETRYABLE.has(error.code ?? "") : error.code === "ECONNREFUSED" && sentBytes <= REPLAY_LIMIT);
        if (!bodiless) req.unpipe(upstream);
        if (replayable && tries < ports.length + 1) return attempt(tries + 1);
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
        res.end("The app did not answer.");
      });
      if (bodiless) return void upstream.end();
      for (const chunk of sent) upstream.write(chunk);
      if (req.readableEnded) upstream.end();
      else req.pipe(upstream);
    };
    attempt(1);
  });
}

export async function startCluster({
  databaseUrl,
  webs = 3,
  workers = 2,
  port = 3000,
  env = {},
  output = process.stderr,
}: {
  databaseUrl?: string;
  webs?: number;
  workers?: number;
  port?: number;
  env?: Record<string, string>;
  output?: NodeJS.WritableStream;
} = {}): Promise<Cluster> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => output.write(`[cluster] stopping: ${String(error)}\n`));
  };
  try {
    let database = databaseUrl;
    if (!database) {
      const postgres = await startThrowawayPostgres();
      stops.push(postgres.stop);
      database = postgres.url;
      output.write(`[cluster] PostgreSQL ${database}\n`);
    }
    // One local chain for all, with the contracts deployed once: every process is handed their addresses.
    const chainEnv: Record<string, string> = {};
    if ((env.LOCAL_CHAIN ?? process.env.LOCAL_CHAIN) !== "off" && !env.LOCAL_CHAIN_RPC_URL) {
      const chain: LocalChain = await startLocalChain();
      stops.push(chain.stop);
      const { addresses } = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") });
      chainEnv.LOCAL_CHAIN_RPC_URL = chain.url;
      chainEnv.LOCAL_CHAIN = "on";
      for (const key of CONTRACT_KEYS) chainEnv[`${ENV_PREFIXES[key]}_ADDRESS_31337`] = addresses[key];
      output.write(`[cluster] local chain ${chain.url}\n`);
    }
    const appUrl = env.APP_URL ?? `http://localhost:${port}`;
    const shared = {
      ...process.env,
      NODE_ENV: "production",
      // Uploaded files and the generated secrets are shared by every process.
      DATA_DIR: process.env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "questline-cluster-")),
      ...env,
      ...chainEnv,
      DATABASE_URL: database,
      APP_URL: appUrl,
      HOST: "127.0.0.1",
      TRUST_PROXY: "loopback",
    };
    const processes: ClusterProcess[] = [];
    let stopping = false;
    const restarts = restartPolicy();
    /** Processes the cluster itself stops or replaces: their end is expected. */
    const retired = new Set<ClusterProcess>();
    const launch = async (role: "web" | "worker", index: number) => {
      const name = `${role}-${index + 1}`;
      const own = await freePort();
      const child = spawnTied(process.execPath, ["server/main.ts", "--role", role], {
        cwd: root,
        env: { ...shared, PORT: String(own), DATABASE_URL: withApplicationName(database, `questline-${name}`) },
      });
      forward(name, child.child.stdout, output);
      forward(name, child.child.stderr, output);
      const started: ClusterProcess = { name, role, port: own, process: child, ready: false };
      child.child.once("exit", (code, signal) => {
        const wasReady = started.ready;
        started.ready = false;
        if (stopping || retired.has(started)) return;
        // Ended from outside (killed, crashed): another takes its place, as `npm start`'s supervisor does.
        output.write(`[cluster] ${name} ended (${signal ?? `code ${code}`}); starting another\n`);
        if (!restarts.ended(wasReady)) {
          output.write(`[cluster] ${restarts.failedStartsLimit} processes in a row ended before they were ready: not starting more\n`);
          return;
        }
        setTimeout(
          () => void replace(started).catch((error: unknown) => output.write(`[cluster] restarting ${name} failed: ${String(error)}\n`)),
          restarts.delayMs,
        );
      });
      return started;
    };
    const ready = async (started: ClusterProcess) => {
      await healthy(started.port, started.process, started.name);
      started.ready = true;
      restarts.ready();
    };
    /** Starts a process in `old`'s place (same name and role) and waits until it answers. */
    const replace = async (old: ClusterProcess) => {
      if (stopping) return;
      retired.add(old);
      const replacement = await launch(old.role, Number(old.name.split("-")[1]) - 1);
      processes[processes.indexOf(old)] = replacement;
      await ready(replacement);
    };
    // All at once against the fresh database: the startup lock lets exactly one migrate and seed.
    processes.push(
      ...(await Promise.all([...Array.from({ length: webs }, (_, i) => launch("web", i)), ...Array.from({ length: workers }, (_, i) => launch("worker", i))])),
    );
    stops.push(() => {
      stopping = true;
      return Promise.all(processes.map((p) => p.process.stop())).then(() => undefined);
    });
    await Promise.all(processes.map(ready));

    const proxy = roundRobinProxy(
      () => processes.filter((p) => p.role === "web" && p.ready).map((p) => p.port),
      (port) => {
        const refused = processes.find((p) => p.port === port && p.ready);
        if (!refused) return;
        refused.ready = false;
        // Back in rotation once it answers again; if it ended instead, another takes its place.
        void ready(refused).catch(() => undefined);
      },
    );
    await new Promise<void>((resolve, reject) => {
      proxy.once("error", reject);
      proxy.listen(port, "127.0.0.1", resolve);
    });
    stops.push(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    proxy.closeIdleConnections?.();

    return {
      url: appUrl,
      databaseUrl: database,
      processes,
      killWorker: async (index) => {
        const workerProcesses = processes.filter((p) => p.role === "worker");
        const victim = workerProcesses[index % workerProcesses.length]!;
        retired.add(victim);
        const pid = victim.process.commandPid();
        if (pid) process.kill(pid, "SIGKILL");
        await victim.process.stop();
        await replace(victim);
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The connection string with an application name, so each process's connections are told apart in pg_stat_activity. */
function withApplicationName(url: string, name: string) {
  const parsed = new URL(url);
  parsed.searchParams.set("application_name", name);
  return parsed.toString();
}

/**
 * The fault run: SIGKILLs one worker about every `everySeconds`, preferably while it is in the
 * middle of a withdrawal or reward payout (such a job running for 200 ms or more, and that
 * worker's connection busy), else after the full interval; a new worker takes its place.
 */
function killWorkers(cluster: Cluster, everySeconds: number) {
  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: 1 });
  const workerCount = cluster.processes.filter((p) => p.role === "worker").length;
  let stopped = false;
  let kills = 0;
  const loop = (async () => {
    let last = Date.now();
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const since = Date.now() - last;
      if (since < everySeconds * 500) continue;
      const { rows } = await pool
        .query<{ worker: string }>(
          `select distinct a.application_name as worker from pg_stat_activity a
            where a.application_name like 'questline-worker-%' and a.state <> 'idle'
              and exists (select 1 from pgboss.job j where j.name in ('withdrawals', 'reward-distribution') and j.state = 'active'
                            and j.started_on < now() - interval '200 milliseconds')`,
        )
        .catch(() => ({ rows: [] }));
      const busy = rows[0]?.worker;
      if (!busy && since < everySeconds * 1000) continue;
      const index = busy ? Number(busy.split("-").at(-1)) - 1 : kills % workerCount;
      kills += 1;
      console.error(`[cluster] SIGKILL worker-${index + 1} (kill ${kills}${busy ? ", in the middle of a withdrawal or reward job" : ""})`);
      await cluster.killWorker(index).catch((error: unknown) => console.error(`[cluster] restarting a worker failed: ${String(error)}`));
      last = Date.now();
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      await pool.end();
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      webs: { type: "string", default: "3" },
      workers: { type: "string", default: "2" },
      port: { type: "string", default: process.env.PORT ?? "3000" },
      // For the cluster's fault run: SIGKILL a worker (and start another) every this many seconds.
      "kill-worker-every": { type: "string" },
      // Where to write { url, databaseUrl } once ready (for a test run against the cluster).
      "info-file": { type: "string" },
    },
  });
  const options = z
    .object({
      webs: z.coerce.number().int().min(1).max(16),
      workers: z.coerce.number().int().min(0).max(16),
      port: z.coerce.number().int().min(1).max(65535),
      "kill-worker-every": z.coerce.number().positive().optional(),
      "info-file": z.string().optional(),
    })
    .parse(values);
  const cluster = await startCluster({ webs: options.webs, workers: options.workers, port: options.port, databaseUrl: process.env.DATABASE_URL });
  if (options["info-file"]) mkdirSync(path.dirname(options["info-file"]), { recursive: true });
  if (options["info-file"]) writeFileSync(options["info-file"], JSON.stringify({ url: cluster.url, databaseUrl: cluster.databaseUrl }));
  console.log(`Questline cluster (${options.webs} web, ${options.workers} workers) is running at ${cluster.url}`);
  const every = options["kill-worker-every"];
  const chaos = every ? killWorkers(cluster, every) : null;
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void (chaos?.stop() ?? Promise.resolve()).then(() => cluster.stop()).then(() => process.exit(0));
    });
}
