// Webhook deliveries: `node --import ./scripts/app-paths.ts bench/webhook-deliveries.ts`
// (PGlite, or PostgreSQL with DATABASE_URL).
//
// A project with one endpoint pointing at a local node:http receiver (answering 204 at once);
// BENCH_WEBHOOK_COUNT (5,000) deliveries put due; one job of a queue on the app's job engine runs
// `runWebhooks` (app/modules/webhooks/webhook-job.server.ts, what the webhook job runs every second)
// until none is due. The figure is deliveries recorded `delivered` per second, from the job's send to
// the last one recorded: the median of BENCH_WEBHOOK_RUNS (3) runs, each on new deliveries.

import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { project } from "../db/schema/projects.ts";
import { webhookDelivery } from "../db/schema/reach.ts";
import { rowsOf } from "../app/lib/db.server.ts";
import { startJobEngine } from "../app/lib/job-engine.server.ts";
import { createLogger } from "../app/lib/logger.server.ts";
import { deliveryBody, newDeliveryId } from "../app/modules/webhooks/delivery.server.ts";
import { createEndpoint } from "../app/modules/webhooks/endpoints.server.ts";
import { runWebhooks } from "../app/modules/webhooks/webhook-job.server.ts";
import { withBenchDatabase } from "./database.ts";
import { bench, log, median } from "./stats.ts";

const COUNT = Number(process.env.BENCH_WEBHOOK_COUNT ?? 5_000);
const RUNS = Number(process.env.BENCH_WEBHOOK_RUNS ?? 3);

let received = 0;
const receiver = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    received++;
    response.writeHead(204).end();
  });
});
receiver.keepAliveTimeout = 5_000;
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const { port } = receiver.address() as AddressInfo;

await withBenchDatabase(async (database) => {
  const db = database.db;
  const tokenKey = randomBytes(32);
  await db.insert(project).values({ id: "bench", slug: "bench", name: "Bench" });
  const created = await createEndpoint({
    db,
    tokenKey,
    allowLoopback: true,
    projectId: "bench",
    userId: null,
    input: { url: `http://127.0.0.1:${port}/hook`, description: "", eventTypes: ["completion.created"] },
  });
  if (!created.ok) throw new Error("the endpoint was refused");
  const endpointId = created.endpoint.id;

  const jobs = await startJobEngine({ connection: database.jobConnection, runsJobs: true, logger: createLogger("silent") });
  try {
    await jobs.createQueue("bench-webhooks", { policy: "stately", notify: true } as never);
    let finished: (() => void) | null = null;
    await jobs.work("bench-webhooks", { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1 }, async () => {
      for (;;) {
        const done = await runWebhooks({ db, tokenKey, allowLoopback: true });
        if (done.sent === 0) break;
      }
      finished?.();
    });

    const rates: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const now = new Date();
      for (let i = 0; i < COUNT; i += 1_000)
        await db.insert(webhookDelivery).values(
          Array.from({ length: Math.min(1_000, COUNT - i) }, (_, k) => ({
            id: newDeliveryId(),
            endpointId,
            eventId: run * 1_000_000 + i + k,
            eventType: "completion.created",
            body: deliveryBody("completion.created", now, { completionId: `c${run}-${i + k}`, taskId: "t1", userId: "u1", reviewed: false }),
            nextAttemptAt: now,
          })),
        );
      const before = received;
      const done = new Promise<void>((resolve) => (finished = resolve));
      const started = performance.now();
      await jobs.send("bench-webhooks", {});
      await done;
      const seconds = (performance.now() - started) / 1000;
      const [row] = rowsOf(await db.execute(sql`select count(*)::int as n from webhook_delivery where state = 'delivered'`));
      const rate = COUNT / seconds;
      rates.push(rate);
      log(
        `run ${run}: ${COUNT} deliveries in ${seconds.toFixed(2)} s (${rate.toFixed(0)}/s); received ${received - before}, delivered in all ${String(row!.n)}`,
      );
      if (received - before !== COUNT) throw new Error(`the receiver got ${received - before} of ${COUNT}`);
    }
    const [one, five, fifteen] = loadavg();
    log(
      `${database.kind}: runs ${rates.map((r) => r.toFixed(0)).join(", ")} deliveries/s; load average ${one!.toFixed(2)} ${five!.toFixed(2)} ${fifteen!.toFixed(2)}`,
    );
    bench("webhook_deliveries_per_s", median(rates), "deliveries/s");
    bench("webhook_deliveries_load_average_1m", one!, "load");
  } finally {
    await jobs.stop({ graceful: false });
    receiver.closeAllConnections();
    receiver.close();
  }
});
