import { sql } from "drizzle-orm";
import pg from "pg";
import { rowsOf, type Db } from "~/lib/db.server";
import { JOB_SCHEMA, type JobConnection, type JobEngine } from "~/lib/job-engine.server";
import { TAKEN_OVER_MESSAGE } from "./operator-jobs";
import { JOB_QUEUE_NAMES, type JobQueueName } from "./queues";

/*
 * Taking over the runs of a process that died (decision 044). Each run holds a lease on its queue
 * and key, a session advisory lock on one connection of its process: the database drops it the
 * moment that process's connection closes, so a run whose lease nobody holds has lost its process.
 * Every job process sweeps for such runs each second and, seen twice in a row, hands them back to
 * the engine to run again (a retry), instead of waiting for their 10 s heartbeat to lapse. No two
 * runs of one key overlap: a run starts only under its key's lease, and only if its claim is still
 * the job's current attempt.
 */

/** The first key of every lease's advisory lock (the second is the hash of its queue and key). */
const LEASE_CLASS = 0x51_4c_72;

const leaseName = (queue: string, key: string) => `${queue}:${key}`;

/** One connection of this process on which its runs' leases are held. */
export type RunLeases = {
  /** Takes the lease of `queue`/`key` for a run; false when a live run of that key holds it. */
  take: (queue: JobQueueName, key: string) => Promise<boolean>;
  release: (queue: JobQueueName, key: string) => Promise<void>;
  close: () => Promise<void>;
};

type Session = { query: (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };

/**
 * Opens the leases' connection: its own on PostgreSQL, the one PGlite session otherwise (one process
 * alone, whose death ends every run at once). `onLost`: the connection ended while this process runs
 * (its leases are gone, so other processes may take its runs over: it must stop running them).
 */
export async function openRunLeases({ connection, onLost }: { connection: JobConnection; onLost: (error: Error) => void }): Promise<RunLeases> {
  let session: Session;
  let close: () => Promise<void>;
  if ("pglite" in connection) {
    const { pglite } = connection;
    session = { query: async (text, params) => ({ rows: (await pglite.query<Record<string, unknown>>(text, params)).rows }) };
    close = async () => {};
  } else {
    const client = new pg.Client({ connectionString: connection.connectionString, application_name: "questline-run-leases" });
    let closing = false;
    client.on("error", (error) => {
      if (!closing) onLost(error);
    });
    client.on("end", () => {
      if (!closing) onLost(new Error("the run leases' connection ended"));
    });
    await client.connect();
    // One statement at a time on the one connection, whichever run asks.
    let turn: Promise<unknown> = Promise.resolve();
    session = {
      query: (text, params) => {
        const mine = turn.catch(() => undefined).then(() => client.query<Record<string, unknown>>(text, params));
        turn = mine;
        return mine;
      },
    };
    close = async () => {
      closing = true;
      await client.end();
    };
  }
  return {
    take: async (queue, key) => {
      const { rows } = await session.query("select pg_try_advisory_lock($1, hashtext($2)) as held", [LEASE_CLASS, leaseName(queue, key)]);
      return rows[0]?.held === true;
    },
    release: async (queue, key) => {
      await session.query("select pg_advisory_unlock($1, hashtext($2))", [LEASE_CLASS, leaseName(queue, key)]);
    },
    close,
  };
}

const job = sql.raw(`${JOB_SCHEMA}.job`);

/** Whether `attempt` is still the job's current claim: not taken over (nor settled) meanwhile. */
export async function stillClaimed({ db, id, retryCount }: { db: Db; id: string; retryCount: number }): Promise<boolean> {
  const rows = rowsOf(await db.execute(sql`select 1 from ${job} where id = ${id} and state = 'active' and retry_count = ${retryCount}`));
  return rows.length > 0;
}

type Attempt = { queue: JobQueueName; id: string; retryCount: number };

/** The running jobs of the catalogue whose key's lease no session holds: their process is gone. */
export async function unleasedRuns({ db }: { db: Db }): Promise<Attempt[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select j.name, j.id, j.retry_count from ${job} j
      where j.state = 'active' and j.name in (${sql.join(
        JOB_QUEUE_NAMES.map((name) => sql`${name}`),
        sql`, `,
      )})
        and not exists (
          select 1 from pg_locks l
          where l.locktype = 'advisory' and l.granted and l.objsubid = 2
            and l.database = (select oid from pg_database where datname = current_database())
            and l.classid = ${LEASE_CLASS}::bigint::oid
            and l.objid = (hashtext(j.name || ':' || coalesce(j.singleton_key, j.data->>'key'))::bigint & 4294967295)::oid)`),
  );
  return rows.map((row) => ({ queue: String(row.name) as JobQueueName, id: String(row.id), retryCount: Number(row.retry_count) }));
}

/**
 * The sweep a job process runs every second: a run found without its lease on two sweeps in a row
 * (so not one that just started or just ended) is failed as taken over, which the engine retries
 * after its retry delay. Returns the runs it took over.
 */
export function takeoverSweep({ db, jobs }: { db: Db; jobs: Pick<JobEngine, "fail"> }) {
  let suspects = new Set<string>();
  return async function sweep(): Promise<Attempt[]> {
    const found = await unleasedRuns({ db });
    const attemptKey = (run: Attempt) => `${run.id}:${run.retryCount}`;
    const taken = found.filter((run) => suspects.has(attemptKey(run)));
    for (const run of taken) await jobs.fail(run.queue, { id: run.id, retryCount: run.retryCount }, { message: TAKEN_OVER_MESSAGE });
    suspects = new Set(found.filter((run) => !taken.includes(run)).map(attemptKey));
    return taken;
  };
}
