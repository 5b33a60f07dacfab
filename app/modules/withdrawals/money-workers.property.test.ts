// The money property test (money.property.test.ts: same commands, model and checks, on two local
// chains at once, 31337 and 31338) with the withdrawal job and the deposit scan run as production
// runs them: through the job engine, by two separate worker processes (tests/setup/job-worker-child.ts)
// on one PostgreSQL database, each with both chains in its registry. A `job` or `scan` command
// sends the queue's job for its chain (as a worker's ticker would: a second one while one is
// queued is refused, and the queued one waited for) and waits until the engine's table says it
// completed. A `kill` command kills one worker with SIGKILL while it holds a withdrawals job of the
// command's chain — right after that chain's node took a payment's transaction when there is one
// to send — and starts another; the job must still complete (taken up again once its heartbeat
// lapses, ~12 s) and the money checks must hold on both chains. After each run the engine's own
// tables are read: nothing failed, one run per queue and chain at a time, every job the test sent
// completed.
//
// PostgreSQL only: a PGlite database is one process's alone. CI runs it in the suite's second,
// PostgreSQL pass (scripts/with-postgres.sh npm run test:unit).

import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { withdrawal } from "#db/schema/ledger";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { startJobEngine, type JobEngine } from "~/lib/job-engine.server";
import type { JobRun } from "~/modules/jobs/queues";
import { createLogger } from "~/lib/logger.server";
import { killJobWorkers, startJobWorker, type JobWorker } from "#tests/setup/job-workers";
import {
  batches,
  CHAIN_IDS,
  CONFIRMATIONS,
  grants,
  moneyModel,
  moneyWorld,
  SCRIPTED,
  together,
  type Command,
  type MoneyWorld,
  type Run,
  type Runner,
} from "#tests/setup/money-model";
import { createTestDatabase, sharedDatabase } from "#tests/setup/test-db";

/** Random runs besides the scripted one (each with one or two kills, ~13 s each); MONEY_WORKER_RUNS changes it. */
const RUNS = z.coerce.number().int().positive().default(2).parse(process.env.MONEY_WORKER_RUNS);
type Queue = "withdrawals" | "deposit-scan";

let world: MoneyWorld;

/** A job's first attempt, cut short by a kill: from its start until it was last seen active. */
type DeadAttempt = { id: string; queue: string; key: string; startedOn: number; lastActive: number };

/** One run's engine: the test's own (it sends, runs nothing), the two live workers, and what the test knows of the jobs. */
type Cluster = {
  db: Db;
  databaseUrl: string;
  engine: JobEngine;
  engineErrors: () => string[];
  workers: JobWorker[];
  /** Every worker started in the run, killed ones included. */
  everyWorker: JobWorker[];
  /** Jobs the test sent or waited for. */
  waitedFor: Set<string>;
  /** Jobs active at the moment of a kill: the only ones allowed a second attempt. */
  activeAtKill: Set<string>;
  deadAttempts: DeadAttempt[];
  /** How each kill's stall came (after-send, after-run), with its chain: `after-send@31338`. */
  kills: string[];
};
let cluster: Cluster | null = null;
/** Over all runs, for the summary. */
const totals = { runs: 0, kills: 0, afterSend: 0, jobs: 0, retried: 0, killsOn: {} as Record<string, number> };

/** Workers started so far, for their names. */
let started = 0;

async function startWorker(c: Pick<Cluster, "databaseUrl" | "everyWorker">) {
  const [first, second] = world.two.chains;
  const worker = await startJobWorker({
    name: `questline-job-worker-${++started}`,
    databaseUrl: c.databaseUrl,
    rpcUrl: first!.node.url,
    contracts: first!.vault.addresses,
    second: { rpcUrl: second!.node.url, contracts: second!.vault.addresses },
    confirmations: CONFIRMATIONS,
  });
  c.everyWorker.push(worker);
  return worker;
}

async function startCluster(database: Database): Promise<Cluster> {
  const logger = createLogger("silent");
  const logged = vi.spyOn(logger, "error");
  const engine = await startJobEngine({ connection: database.jobConnection, runsJobs: false, logger });
  const shared = await sharedDatabase(database, { applicationName: "questline-money-workers" });
  const c: Cluster = {
    db: database.db,
    databaseUrl: shared.env.CHILD_DATABASE_URL!,
    engine,
    engineErrors: () => logged.mock.calls.splice(0).map((call) => `the test's engine: ${JSON.stringify(call)}`),
    workers: [],
    everyWorker: [],
    waitedFor: new Set(),
    activeAtKill: new Set(),
    deadAttempts: [],
    kills: [],
  };
  try {
    c.workers = await Promise.all([startWorker(c), startWorker(c)]);
  } catch (error) {
    await stopCluster(c);
    throw error;
  }
  return c;
}

async function stopCluster(c: Cluster) {
  await Promise.all(c.everyWorker.map((worker) => worker.stop()));
  await c.engine.stop({ graceful: true, timeout: 10_000 });
}

/** Error lines the workers (and the test's engine) logged: the job's failed steps, as the in-process runner's onError. */
function takeErrors(c: Cluster, run: Run) {
  run.unexpected.push(...c.everyWorker.flatMap((worker) => worker.takeErrors()), ...c.engineErrors());
}

/** A row of the engine's job table; times in microseconds since 1970 (the table's own precision). */
type JobRow = {
  id: string;
  name: string;
  state: string;
  singletonKey: string | null;
  retryCount: number;
  startedOn: number | null;
  completedOn: number | null;
  output: ({ message?: string } & Partial<JobRun>) | null;
  now: number;
};
const micros = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000000)::bigint`);
async function jobRows(db: Db, where = sql`true`): Promise<JobRow[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select id, name, state, singleton_key, retry_count, output,
        ${micros("started_on")} as started_on, ${micros("completed_on")} as completed_on, ${micros("now()")} as now
      from pgboss.job where ${where} order by created_on`),
  );
  const time = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return rows.map((row) => ({
    id: String(row.id),
    name: String(row.name),
    state: String(row.state),
    singletonKey: row.singleton_key === null ? null : String(row.singleton_key),
    retryCount: Number(row.retry_count),
    startedOn: time(row.started_on),
    completedOn: time(row.completed_on),
    output: (typeof row.output === "string" ? JSON.parse(row.output) : row.output) as JobRow["output"],
    now: Number(row.now),
  }));
}

/** Sends the queue's job for the chain as a ticker would; when one is queued already (send refused), that one is the job. */
async function sendJob(c: Cluster, queue: Queue, chainId: number): Promise<string> {
  const key = String(chainId);
  const sent = await c.engine.send(queue, { key }, { singletonKey: key });
  // Refused: a job of this key is queued (`created`). It, or one created after it left the queue, is the latest.
  const id = sent ?? (await jobRows(c.db, sql`name = ${queue} and singleton_key = ${key}`)).at(-1)!.id;
  c.waitedFor.add(id);
  return id;
}

/** Waits until the engine's table says job `id` completed; a failed (or cancelled) job fails the test with its output. */
async function completed(c: Cluster, id: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await jobRows(c.db, sql`id = ${id}`);
    if (row?.state === "completed") return row;
    if (row && ["failed", "cancelled"].includes(row.state))
      throw new Error(`the ${row.name} job ${id} ${row.state} (attempts ${row.retryCount + 1}): ${row.output?.message ?? JSON.stringify(row.output)}`);
    if (Date.now() > until) throw new Error(`the job ${id} is still ${row?.state ?? "missing"} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function runJob(c: Cluster, run: Run, queue: Queue, chainId: number) {
  try {
    await completed(c, await sendJob(c, queue, chainId));
  } finally {
    takeErrors(c, run);
  }
}

/**
 * Arms both workers for the chain's withdrawals job, sends one and kills (SIGKILL) the worker that
 * stalls holding it; starts a replacement; waits until every job the dead one held was taken up
 * again and completed. Returns where the job was stopped: `after-send` or `after-run`.
 */
async function killMidJob(c: Cluster, run: Run, chainId: number): Promise<string> {
  await Promise.all(c.workers.map((worker) => worker.arm(chainId)));
  const stop = new AbortController();
  const stalls = c.workers.map((worker) => worker.stalled(60_000, stop.signal).then((event) => ({ worker, event })));
  const sent = await sendJob(c, "withdrawals", chainId);
  const { worker: victim, event } = await Promise.any(stalls).finally(() => stop.abort());
  const survivors = c.workers.filter((worker) => worker !== victim);
  await Promise.all(survivors.map((worker) => worker.disarm()));
  const [held] = await jobRows(c.db, sql`id = ${event.id!}`);
  expect(held?.state, "the stalled withdrawals job is active in the engine's table").toBe("active");

  await victim.kill();
  // Whatever was active now may have been the dead worker's: only these may be attempted twice.
  const active = await jobRows(c.db, sql`state = 'active'`);
  for (const row of active) c.activeAtKill.add(row.id);
  const dead = active
    .filter((row) => victim.inHand.has(row.id))
    .map((row) => ({ id: row.id, queue: row.name, key: row.singletonKey ?? "", startedOn: row.startedOn!, lastActive: row.now }));
  expect(
    dead.map((attempt) => attempt.id),
    "the dead worker held the stalled job",
  ).toContain(event.id);
  expect(event.key, "the stalled job is the chain's").toBe(String(chainId));
  if (event.at === "after-send") {
    // Paid on its chain, still `sending` in the rows: the worker died before it could record the send.
    const sending = await c.db
      .select()
      .from(withdrawal)
      .where(and(eq(withdrawal.status, "sending"), eq(withdrawal.chainId, chainId)));
    expect(await Promise.all(sending.map((row) => world.vaults.get(chainId)!.paid(row.id))), "a payment the dead worker sent").toContain(true);
  }
  c.deadAttempts.push(...dead);
  c.kills.push(`${event.at!}@${chainId}`);
  c.workers = [...survivors, await startWorker(c)];

  // The dead attempts hold their key until they are taken over (their leases went with their process).
  await Promise.all(dead.map((attempt) => lapsed(c, attempt)));
  await Promise.all([sent, ...dead.map((attempt) => attempt.id)].map((id) => completed(c, id)));
  takeErrors(c, run);
  return event.at!;
}

/** Follows a dead attempt until its job leaves `active` (or starts again), noting the last time it was seen held. */
async function lapsed(c: Cluster, attempt: DeadAttempt) {
  for (;;) {
    const [row] = await jobRows(c.db, sql`id = ${attempt.id}`);
    if (row?.state !== "active" || row.startedOn !== attempt.startedOn) return;
    attempt.lastActive = row.now;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Kills one after the other (two in one batch would arm the same workers). */
let killing: Promise<unknown> = Promise.resolve();
const throughWorkers: Runner = {
  job: (run, chainId, workers) => together(workers, () => runJob(cluster!, run, "withdrawals", chainId)),
  scan: (run, chainId, scanners) => together(scanners, () => runJob(cluster!, run, "deposit-scan", chainId)),
  kill: (run, chainId) => {
    const next = killing.catch(() => {}).then(() => killMidJob(cluster!, run, chainId));
    killing = next;
    return next;
  },
};

/**
 * The engine's own table after a run. "No job ran twice for the same idempotency key" has two
 * layers here: the engine's key (queue + chain, the stately singleton key) never had two runs at
 * once — no two jobs' handler runs (JobRun), nor a killed worker's attempt, overlap — and the
 * ledger's keys (journal_entry.idempotency_key is unique) never paid or credited twice: the money
 * checks of the run. Nothing failed, nothing is left queued or running, every job the test sent
 * completed, and only a job a kill caught was attempted twice.
 */
async function expectEngineClean(c: Cluster) {
  const rows = await jobRows(c.db);
  expect(
    rows.filter((row) => row.state === "failed").map((row) => `${row.name} ${row.id}: ${row.output?.message}`),
    "failed jobs",
  ).toEqual([]);
  expect(
    rows.filter((row) => row.state !== "completed").map((row) => `${row.name} ${row.id}: ${row.state}`),
    "jobs not completed",
  ).toEqual([]);
  const ids = new Set(rows.map((row) => row.id));
  expect(
    [...c.waitedFor].filter((id) => !ids.has(id)),
    "jobs sent but not in the table",
  ).toEqual([]);
  for (const attempt of c.deadAttempts)
    expect(rows.find((row) => row.id === attempt.id)!.retryCount, `retries of ${attempt.id}, cut by a kill`).toBeGreaterThan(0);
  expect(
    rows.filter((row) => row.retryCount > 0 && !c.activeAtKill.has(row.id)).map((row) => `${row.name} ${row.id}: ${row.output?.message}`),
    "jobs attempted again without a kill",
  ).toEqual([]);

  expect(
    rows.filter((row) => typeof row.output?.ranFrom !== "number" || typeof row.output.ranTo !== "number").map((row) => `${row.name} ${row.id}`),
    "completed jobs without their handler's run times",
  ).toEqual([]);
  const runs = [
    // A completed job's run is its handler's own (JobRun, ms): the engine's started_on is the claim's transaction start.
    ...rows.map((row) => ({
      what: `${row.name} ${row.id}`,
      key: `${row.name}/${row.singletonKey}`,
      from: row.output!.ranFrom! * 1000,
      to: row.output!.ranTo! * 1000,
    })),
    ...c.deadAttempts.map((a) => ({ what: `${a.queue} ${a.id} (killed)`, key: `${a.queue}/${a.key}`, from: a.startedOn, to: a.lastActive })),
  ].sort((a, b) => a.from - b.from);
  const lastOf = new Map<string, (typeof runs)[number]>();
  const overlaps: string[] = [];
  for (const current of runs) {
    const before = lastOf.get(current.key);
    if (before && current.from < before.to) overlaps.push(`${current.what} started before ${before.what} ended`);
    if (!before || current.to > before.to) lastOf.set(current.key, current);
  }
  expect(overlaps, "runs of one queue and chain at once").toEqual([]);

  totals.runs += 1;
  totals.kills += c.kills.length;
  totals.afterSend += c.kills.filter((at) => at.startsWith("after-send")).length;
  for (const kill of c.kills) totals.killsOn[kill] = (totals.killsOn[kill] ?? 0) + 1;
  totals.jobs += rows.length;
  totals.retried += rows.filter((row) => row.retryCount > 0).length;
}

const kill: Command = { op: "kill" };
/** The property's batches with one or two kills put among them, each on a chain of its own pick. */
const batchesWithKills = fc
  .tuple(batches, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: CHAIN_IDS.length - 1 })), { minLength: 1, maxLength: 2 }))
  .map(([list, kills]) => {
    const copy = list.map((batch) => [...batch]);
    for (const [at, position, chain] of kills) {
      const batch = copy[at % copy.length]!;
      batch.splice(position % (batch.length + 1), 0, { op: "kill", chain });
    }
    return copy;
  });
/**
 * The scripted run with three kills: alone, while a requested withdrawal is sent on the first
 * chain (the node takes the payment, the worker dies before recording it); then among two job
 * sends and a deposit; then alone again while the second chain's withdrawal is sent there. Its
 * end adds a deposit scanned at one of its two confirmations, a second pending one.
 */
const SCRIPTED_WITH_KILLS: typeof SCRIPTED = [
  SCRIPTED[0],
  [
    ...SCRIPTED[1].slice(0, 8),
    [kill],
    ...SCRIPTED[1].slice(8, -2),
    [...SCRIPTED[1].at(-2)!, kill],
    [{ op: "kill", chain: 1 }],
    SCRIPTED[1].at(-1)!,
    [{ op: "deposit", member: 1, amount: parseEther("2"), stranger: false }],
    [{ op: "scan", scanners: 1 }],
  ],
];

describe.skipIf(!process.env.DATABASE_URL)("money properties with the jobs run by two worker processes through the job engine", () => {
  beforeAll(async () => {
    world = await moneyWorld();
  }, 120_000);
  afterAll(async () => {
    await killJobWorkers();
    await world?.two.stop();
  });

  it("pays and credits exactly once with a worker killed mid-job, and the engine ran one job per chain at a time, none failed", async () => {
    const model = moneyModel(world, throughWorkers);
    await fc.assert(
      fc.asyncProperty(grants, batchesWithKills, async (grantList, batchList) => {
        const database = await createTestDatabase();
        try {
          cluster = await startCluster(database);
          await model.checkRun(database, grantList, batchList);
          await expectEngineClean(cluster);
        } finally {
          if (cluster) await stopCluster(cluster);
          cluster = null;
          await database.close();
        }
      }),
      // Each run drives a real chain and real processes: no shrinking, the failing run is reported as it is.
      { numRuns: RUNS + 1, endOnFailure: true, examples: [SCRIPTED_WITH_KILLS] },
    );
    model.expectEverythingMet();
    expect(totals.afterSend, "a worker was killed right after the node took a payment").toBeGreaterThan(0);
    for (const chainId of CHAIN_IDS)
      expect(totals.killsOn[`after-send@${chainId}`] ?? 0, `a worker was killed right after chain ${chainId}'s node took a payment`).toBeGreaterThan(0);
    console.info(`money through workers: ${JSON.stringify(totals)}`);
  }, 480_000);
});
