// After the suite ran against the cluster (E2E_CLUSTER=1, see playwright.config.ts): the job
// engine's own tables must show that no job ran twice at once for its key and none is left failed,
// whatever the SIGKILLed workers were doing, and the ledger must balance. Prints what the run did.

import { readFileSync } from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "../../app/lib/db.server.ts";
import { TAKEN_OVER_MESSAGES } from "../../app/modules/jobs/operator-jobs.ts";
import { JOB_QUEUE_NAMES } from "../../app/modules/jobs/queues.ts";
import { checkLedger } from "../../app/modules/ledger/ledger.server.ts";

/** Where the cluster writes its URL and database once ready, in the run's data folder. */
export const clusterInfoFile = (dataDir: string) => path.resolve(dataDir, "cluster.json");

export default async function clusterTeardown() {
  const { databaseUrl } = JSON.parse(readFileSync(clusterInfoFile(process.env.QUESTLINE_E2E_DATA_DIR!), "utf8")) as { databaseUrl: string };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: byQueue } = await client.query<{ name: string; state: string; jobs: string; retried: string }>(
      `select name, state, count(*) as jobs, count(*) filter (where retry_count > 0) as retried from pgboss.job group by 1, 2 order by 1, 2`,
    );
    for (const row of byQueue) console.log(`[cluster] ${row.name} ${row.state}: ${row.jobs} jobs, ${row.retried} taken up again`);
    // Two runs of one queue and key whose handlers ran at the same time: "one scan per chain at a
    // time" broken. Told by the interval each handler reports as its output (JobRun), not by the
    // engine's started_on, which is the claiming statement's transaction start and so can precede
    // the previous job's completion by the time the statement took to plan.
    const { rows: overlaps } = await client.query<{ name: string; key: string; pairs: string }>(
      `with run as (
         select id, name, singleton_key, (output->>'ranFrom')::bigint as ran_from, (output->>'ranTo')::bigint as ran_to
           from pgboss.job where state = 'completed' and name = any($1))
       select a.name, a.singleton_key as key, count(*) as pairs from run a
         join run b on b.name = a.name and b.singleton_key is not distinct from a.singleton_key and b.id > a.id
        where a.ran_from < b.ran_to and b.ran_from < a.ran_to
        group by 1, 2`,
      [JOB_QUEUE_NAMES],
    );
    // Every completed job says when it ran, so the check above cannot pass for want of data.
    const { rows: unreported } = await client.query<{ name: string; jobs: string }>(
      `select name, count(*) as jobs from pgboss.job
        where state = 'completed' and name = any($1) and (output->>'ranFrom' is null or output->>'ranTo' is null) group by 1`,
      [JOB_QUEUE_NAMES],
    );
    // A run whose worker was killed is taken over (failed with a takeover message and retried); the
    // job must still complete. One left failed, taken over or not (its retries spent), is a problem.
    const { rows: failed } = await client.query<{ name: string; key: string; message: string }>(
      `select name, singleton_key as key, output->>'message' as message from pgboss.job where state = 'failed'`,
    );
    const { rows: takenOver } = await client.query<{ name: string; runs: string }>(
      `select name, count(*) as runs from pgboss.job where output->>'message' = any($1) group by 1 order by 1`,
      [TAKEN_OVER_MESSAGES],
    );
    console.log(`[cluster] taken over and waiting to run again: ${takenOver.map((row) => `${row.name} ${row.runs}`).join(", ") || "none"}`);
    // The money, whatever the kills interrupted: every entry balanced, every cached balance its lines' sum, no member below zero.
    const ledger = await checkLedger({ db: drizzle(client) as unknown as Db });
    const { rows: withdrawals } = await client.query<{ status: string; n: string }>(`select status, count(*) as n from withdrawal group by 1 order by 1`);
    console.log(`[cluster] withdrawals: ${withdrawals.map((row) => `${row.n} ${row.status}`).join(", ") || "none"}; ledger ${JSON.stringify(ledger)}`);
    const problems = [
      ...Object.entries(ledger)
        .filter(([, count]) => count > 0)
        .map(([check, count]) => `ledger: ${count} ${check}`),
      ...overlaps.map((row) => `${row.name} (${row.key}) ran twice at once ${row.pairs} time(s)`),
      ...unreported.map((row) => `${row.name}: ${row.jobs} completed job(s) without the handler's run times`),
      ...failed.map((row) => `${row.name} (${row.key}) failed: ${row.message}`),
    ];
    if (problems.length > 0) throw new Error(`The cluster's jobs:\n${problems.join("\n")}`);
    console.log("[cluster] no job ran twice at once for its key, and none is left failed");
  } finally {
    await client.end();
  }
}
