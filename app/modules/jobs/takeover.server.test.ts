import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "~/lib/db.server";
import type { Services } from "~/services/services.server";
import { createQueues } from "../../../server/jobs";
import { createTestServices } from "#tests/setup/test-services";
import { TAKEN_OVER_MESSAGE } from "./operator-jobs";
import { jobQueueSummaries, lastFailedJobs, openJobs } from "./operator-jobs.server";
import { openRunLeases, stillClaimed, takeoverSweep } from "./takeover.server";

let services: Services;
beforeAll(async () => {
  services = await createTestServices({}, { jobs: true });
  await createQueues(services);
}, 120_000);
afterAll(() => services.close());

const db = () => services.database.db;
const lost: Error[] = [];
const leasesOfAProcess = () => openRunLeases({ connection: services.database.jobConnection, onLost: (error) => lost.push(error) });

async function jobRow(id: string) {
  const [row] = rowsOf(
    await db().execute(sql`select state, output->>'message' as message, extract(epoch from start_after - now()) as wait from pgboss.job where id = ${id}`),
  );
  return row!;
}

describe("taking over the runs of a process that ended", () => {
  it("leaves a run whose process holds its lease, and hands back one whose lease is gone on the second sweep, as taken over", async () => {
    const sweep = takeoverSweep({ db: db(), jobs: services.jobs });
    const id = (await services.jobs.send("withdrawals", { key: "31337" }, { singletonKey: "31337" }))!;
    const [claim] = await services.jobs.fetch("withdrawals");
    expect(claim?.id).toBe(id);

    // The process running it holds the key's lease: however many sweeps, the run is its own.
    const leases = await leasesOfAProcess();
    expect(await leases.take("withdrawals", "31337")).toBe(true);
    expect(await sweep()).toEqual([]);
    expect(await sweep()).toEqual([]);
    expect((await jobRow(id)).state).toBe("active");

    // The process ends: its leases' connection closes (on PGlite, the one session lets the lease go).
    if (services.database.kind === "pglite") await leases.release("withdrawals", "31337");
    await leases.close();
    // Seen once: perhaps a run just starting or ending. Seen again: taken over, at once, not after a 10 s heartbeat.
    expect(await sweep()).toEqual([]);
    expect(await sweep()).toEqual([{ queue: "withdrawals", id, retryCount: claim!.retryCount }]);
    const row = await jobRow(id);
    expect(row).toMatchObject({ state: "retry", message: TAKEN_OVER_MESSAGE });
    // Run again after the first retry delay: one to two seconds.
    expect(Number(row.wait)).toBeLessThanOrEqual(2);
    expect(lost).toEqual([]);

    // The ended run's claim is no longer current: a handler still starting would not run it.
    expect(await stillClaimed({ db: db(), id, retryCount: claim!.retryCount })).toBe(false);

    // The operators see it taken over and waiting to run again, not failed.
    const withdrawals = (await jobQueueSummaries({ db: db() })).find((queue) => queue.queue === "withdrawals")!;
    expect(withdrawals.counts).toMatchObject({ failed: 0, takenOver: 1, retrying: 1 });
    expect(withdrawals.lastRun).toBeNull();
    expect(await lastFailedJobs({ db: db() })).toEqual([]);
    const [open] = await openJobs({ db: db() });
    expect(open).toMatchObject({ id, state: "retry", stateWords: "taken over, waiting to run again", takenOver: true, lastError: null });
  });

  it("lets one lease per queue and key be held by one process at a time", async () => {
    if (services.database.kind === "pglite") return; // one process, one session: nothing to contend with
    const [a, b] = await Promise.all([leasesOfAProcess(), leasesOfAProcess()]);
    try {
      expect(await a.take("deposit-scan", "56")).toBe(true);
      expect(await b.take("deposit-scan", "56")).toBe(false);
      expect(await b.take("deposit-scan", "97")).toBe(true);
      await a.release("deposit-scan", "56");
      expect(await b.take("deposit-scan", "56")).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
