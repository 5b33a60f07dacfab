import type { PGlite } from "@electric-sql/pglite";
import { PgBoss, fromPglite, type ConstructorOptions } from "pg-boss";
import type { Logger } from "./logger.server";

/** The job engine (pg-boss 12, decision 031): queues, retries and schedules in the app's own database. */
export type JobEngine = PgBoss;

/** Where the engine keeps its tables, beside the app's. */
export const JOB_SCHEMA = "pgboss";

/** How the engine reaches the database: its own small pool on PostgreSQL, the app's one PGlite session embedded. */
export type JobConnection = { connectionString: string } | { pglite: PGlite };

/**
 * Starts the job engine on the app's database (installing or migrating its schema, race-safe
 * across processes). A process that runs jobs supervises them (a job whose process died is
 * retried once its heartbeat stops) and keeps the schedules; one that only serves pages just
 * sends, retries and cancels.
 */
export async function startJobEngine({ connection, runsJobs, logger }: { connection: JobConnection; runsJobs: boolean; logger: Logger }): Promise<JobEngine> {
  const options: ConstructorOptions = {
    schema: JOB_SCHEMA,
    // Workers wake the moment a job is sent instead of at their next poll.
    useListenNotify: true,
    supervise: runsJobs,
    schedule: runsJobs,
    // A dead worker's run is taken over within seconds through its lease (decision 044); as a backstop,
    // within ~12 s once its 10 s heartbeat lapses, checked every 2 s.
    // The check runs once per max(monitor, supervise) interval: the monitor's default (60 s) would hold
    // the job, and its chain's queue, for a minute.
    superviseIntervalSeconds: 2,
    monitorIntervalSeconds: 2,
  };
  const boss =
    "pglite" in connection
      ? new PgBoss({ ...options, db: fromPglite(connection.pglite), backend: "pglite" })
      : // Few connections: several processes share one server's max_connections with the app's own pools.
        new PgBoss({ ...options, connectionString: connection.connectionString, max: 3 });
  // Unhandled, the engine's `error` event would end the process.
  boss.on("error", (err) => logger.error({ err }, "the job engine hit an error; it carries on"));
  boss.on("warning", (warning) => logger.warn({ warning }, "job engine warning"));
  await boss.start();
  return boss;
}
