import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "~/lib/db.server";
import type { Services } from "~/services/services.server";
import { createQueues } from "../../../server/jobs";
import { createTestServices } from "#tests/setup/test-services";
import { cancelOpenJob, jobActionSchema, jobQueueSummaries, lastFailedJobs, MESSAGE_LENGTH, openJobs, retryFailedJob } from "./operator-jobs.server";
import { JOB_QUEUE_NAMES, type JobQueueName } from "./queues";

let services: Services;
beforeAll(async () => {
  services = await createTestServices({}, { jobs: true });
  await createQueues(services);
}, 60_000);
afterAll(() => services.close());

const db = () => services.database.db;

/** A job sent, taken by a worker (this test) and failed with `message` until it stays failed. */
async function failedJob(queue: JobQueueName, key: string, message: string | Error, retryLimit = 0) {
  const id = await services.jobs.send(queue, { key }, { singletonKey: key, retryLimit, retryDelay: 0, retryBackoff: false });
  expect(id).toBeTruthy();
  for (let run = 0; run <= retryLimit; run++) {
    const [taken] = await services.jobs.fetch(queue);
    expect(taken?.id).toBe(id);
    await services.jobs.fail(queue, id!, message instanceof Error ? message : new Error(message));
  }
  return id!;
}

async function stateOf(id: string) {
  const [row] = rowsOf(await db().execute(sql`select state from pgboss.job where id = ${id}`));
  return row?.state;
}

/** Every job's state, to check that a refused action changed nothing. */
async function allStates() {
  return rowsOf(await db().execute(sql`select id, state, retry_limit from pgboss.job order by id`));
}

describe("the operators' job reads and buttons", () => {
  it("count every catalogued queue's jobs by state, in the catalogue's order, and list the failures newest first", async () => {
    const empty = await jobQueueSummaries({ db: db() });
    expect(empty.map((q) => q.queue)).toEqual(JOB_QUEUE_NAMES);
    expect(empty.every((q) => q.counts.failed === 0 && q.lastRun === null && q.oldestQueuedSeconds === null)).toBe(true);
    expect(await lastFailedJobs({ db: db() })).toEqual([]);

    // Retries spent for real: three runs, each failed by its worker.
    const boom = await failedJob("purge", "all", "boom", 2);
    const long = await failedJob("deposit-scan", "56", new Error(`the node said no\n${"x".repeat(2000)}`));
    await services.jobs.complete("withdrawals", (await sendAndTake("withdrawals", "31337"))!);
    const waiting = await services.jobs.send("withdrawals", { key: "31337" }, { singletonKey: "31337" });

    const queues = await jobQueueSummaries({ db: db() });
    const byName = Object.fromEntries(queues.map((q) => [q.queue, q]));
    expect(byName.purge!.counts).toEqual({ queued: 0, retrying: 0, active: 0, completed: 0, failed: 1, takenOver: 0, cancelled: 0 });
    expect(byName.purge!.lastRun).toEqual({ at: expect.any(Date), failed: true });
    expect(byName.purge!.about).toMatch(/Deletes expired codes/);
    expect(byName.withdrawals!.counts).toEqual({ queued: 1, retrying: 0, active: 0, completed: 1, failed: 0, takenOver: 0, cancelled: 0 });
    expect(byName.withdrawals!.lastRun?.failed).toBe(false);
    expect(byName.withdrawals!.oldestQueuedSeconds).toBeGreaterThanOrEqual(0);
    expect(byName["deposit-scan"]!.counts.failed).toBe(1);

    const failed = await lastFailedJobs({ db: db() });
    expect(failed.map((f) => [f.id, f.queue, f.keyLabel, f.tries])).toEqual([
      [long, "deposit-scan", "BNB Smart Chain (56)", 1],
      [boom, "purge", "whole platform", 3],
    ]);
    expect(failed[1]!.message).toBe("boom");
    expect(failed[0]!.message).toMatch(/^the node said no x+…$/);
    expect(failed[0]!.message).toHaveLength(MESSAGE_LENGTH);
    expect(JSON.stringify(failed)).not.toMatch(/stack|at .*\.ts:\d+/);
    expect(failed[0]!.failedAt!.getTime()).toBeGreaterThanOrEqual(failed[1]!.failedAt!.getTime());

    expect((await openJobs({ db: db() })).map((j) => [j.id, j.queue, j.state, j.stateWords, j.keyLabel])).toEqual([
      [waiting, "withdrawals", "created", "waiting", "Questline Local (31337)"],
    ]);
  });

  it("retry a failed job (it waits to retry) and cancel a waiting or running one", async () => {
    const failed = await failedJob("airdrop-freeze", "all", "frozen out");
    expect(await retryFailedJob({ db: db(), jobs: services.jobs, queue: "airdrop-freeze", id: failed })).toEqual({
      ok: true,
      queue: "airdrop-freeze",
      queueLabel: "Airdrop freeze",
    });
    expect(await stateOf(failed)).toBe("retry");
    const open = await openJobs({ db: db() });
    expect(open.find((j) => j.id === failed)).toMatchObject({
      state: "retry",
      stateWords: "waiting to retry",
      tries: 1,
      lastError: "frozen out",
      nextTryAt: expect.any(Date),
      startedAt: null,
    });
    // It runs again, and this time works.
    const [again] = await services.jobs.fetch("airdrop-freeze");
    expect(again?.id).toBe(failed);
    await services.jobs.complete("airdrop-freeze", failed);
    expect(await stateOf(failed)).toBe("completed");

    const waiting = (await services.jobs.send("leaderboard-windows", { key: "all" }, { singletonKey: "all" }))!;
    expect(await cancelOpenJob({ db: db(), jobs: services.jobs, queue: "leaderboard-windows", id: waiting })).toMatchObject({ ok: true });
    expect(await stateOf(waiting)).toBe("cancelled");

    const running = (await sendAndTake("reward-distribution", "all"))!;
    expect((await openJobs({ db: db() }))[0]).toMatchObject({
      id: running,
      state: "active",
      stateWords: "running",
      tries: 1,
      startedAt: expect.any(Date),
      nextTryAt: null,
    });
    expect(await cancelOpenJob({ db: db(), jobs: services.jobs, queue: "reward-distribution", id: running })).toMatchObject({ ok: true });
    expect(await stateOf(running)).toBe("cancelled");
    const summary = (await jobQueueSummaries({ db: db() })).find((q) => q.queue === "reward-distribution")!;
    expect(summary.counts.cancelled).toBe(1);
  });

  it("refuse an unknown job, a job of another queue and a job in the wrong state, changing nothing", async () => {
    const failed = await failedJob("airdrop-rounds", "all", "no funds");
    const before = await allStates();
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await retryFailedJob({ db: db(), jobs: services.jobs, queue: "airdrop-rounds", id: unknown })).toEqual({
      ok: false,
      code: "not_found",
      message: "No such job in the Airdrop rounds queue: it may have been removed (finished jobs are kept six hours).",
    });
    expect(await cancelOpenJob({ db: db(), jobs: services.jobs, queue: "purge", id: failed })).toMatchObject({ ok: false, code: "not_found" });
    expect(await cancelOpenJob({ db: db(), jobs: services.jobs, queue: "airdrop-rounds", id: failed })).toEqual({
      ok: false,
      code: "conflict",
      message: "This job has already finished: it is failed. Reload the page.",
    });
    const waiting = (await services.jobs.send("airdrop-rounds", { key: "all" }, { singletonKey: "all" }))!;
    expect(await retryFailedJob({ db: db(), jobs: services.jobs, queue: "airdrop-rounds", id: waiting })).toEqual({
      ok: false,
      code: "conflict",
      message: "This job has not failed: it is waiting. Reload the page.",
    });
    expect((await allStates()).filter((row) => row.id !== waiting)).toEqual(before);
    expect(await stateOf(waiting)).toBe("created");
    await services.jobs.cancel("airdrop-rounds", waiting);
  });

  it("refuse retrying a job while another of its key waits to retry (one per key and state)", async () => {
    const first = await failedJob("deposit-scan", "11155111", "first");
    const second = await failedJob("deposit-scan", "11155111", "second");
    expect(await retryFailedJob({ db: db(), jobs: services.jobs, queue: "deposit-scan", id: first })).toMatchObject({ ok: true });
    expect(await retryFailedJob({ db: db(), jobs: services.jobs, queue: "deposit-scan", id: second })).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringMatching(/already waiting to retry/),
    });
    expect(await stateOf(second)).toBe("failed");
  });

  it("parse a button's form: the queue from the catalogue, the id a uuid", () => {
    const good = { intent: "retry", queue: "purge", id: "5f0e8f0a-3b3c-4c6a-9d7e-0a1b2c3d4e5f" };
    expect(jobActionSchema.safeParse(good).success).toBe(true);
    expect(jobActionSchema.safeParse({ ...good, queue: "pgboss-internal" }).success).toBe(false);
    expect(jobActionSchema.safeParse({ ...good, id: "1; drop table job" }).success).toBe(false);
    expect(jobActionSchema.safeParse({ ...good, intent: "delete" }).success).toBe(false);
  });
});

async function sendAndTake(queue: JobQueueName, key: string) {
  const id = await services.jobs.send(queue, { key }, { singletonKey: key });
  const [taken] = await services.jobs.fetch(queue);
  expect(taken?.id).toBe(id);
  return id;
}
