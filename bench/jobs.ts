// Job engine benchmark: `npm run bench -- jobs` (PGlite, or PostgreSQL with DATABASE_URL).
//
// On a fresh database with the app's own engine settings (app/lib/job-engine.server.ts):
//   - the latency from `send` to the handler starting, one job at a time (median and p95): what a
//     queued e-mail would add to the sign-in step (decision 031);
//   - throughput: jobs sent in batches and completed by a trivial handler, per second.

import { performance } from "node:perf_hooks";
import { startJobEngine } from "../app/lib/job-engine.server.ts";
import { createLogger } from "../app/lib/logger.server.ts";
import { withBenchDatabase } from "./database.ts";
import { bench, log, median, p95 } from "./stats.ts";

const LATENCY_SAMPLES = Number(process.env.BENCH_JOB_SAMPLES ?? 50);
const THROUGHPUT_JOBS = Number(process.env.BENCH_JOB_COUNT ?? 2_000);

await withBenchDatabase(async (database) => {
  const jobs = await startJobEngine({ connection: database.jobConnection, runsJobs: true, logger: createLogger("silent") });
  try {
    await jobs.createQueue("bench-latency", { notify: true } as never);
    const started = new Map<string, (at: number) => void>();
    await jobs.work<{ n: number }>("bench-latency", { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1 }, async ([job]) =>
      started.get(String(job!.data.n))?.(performance.now()),
    );
    const latencies: number[] = [];
    for (let n = 0; n < LATENCY_SAMPLES; n++) {
      const reached = new Promise<number>((resolve) => started.set(String(n), resolve));
      const sent = performance.now();
      await jobs.send("bench-latency", { n });
      latencies.push((await reached) - sent);
    }
    log(`${database.kind}: ${LATENCY_SAMPLES} jobs one at a time`);
    bench(`job_latency_${database.kind}_median_ms`, median(latencies), "ms");
    bench(`job_latency_${database.kind}_p95_ms`, p95(latencies), "ms");

    await jobs.createQueue("bench-throughput", { notify: true } as never);
    let done = 0;
    const all = new Promise<void>((resolve) => {
      void jobs.work(
        "bench-throughput",
        { batchSize: 50, burstWhenBatchFull: true, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1, localConcurrency: 2 },
        async (batch) => {
          done += batch.length;
          if (done >= THROUGHPUT_JOBS) resolve();
        },
      );
    });
    const begun = performance.now();
    for (let i = 0; i < THROUGHPUT_JOBS; i += 500)
      await jobs.insert(
        "bench-throughput",
        Array.from({ length: Math.min(500, THROUGHPUT_JOBS - i) }, (_, k) => ({ data: { i: i + k } })),
      );
    await all;
    const seconds = (performance.now() - begun) / 1000;
    log(`${database.kind}: ${THROUGHPUT_JOBS} jobs inserted in batches of 500 and completed in ${seconds.toFixed(1)} s`);
    bench(`job_throughput_${database.kind}`, THROUGHPUT_JOBS / seconds, "jobs/s");
  } finally {
    await jobs.stop({ graceful: false });
  }
});
