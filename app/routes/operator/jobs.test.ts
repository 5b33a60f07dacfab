import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "~/lib/db.server";
import { readFlash } from "~/lib/flash.server";
import type { Services } from "~/services/services.server";
import { createQueues } from "../../../server/jobs";
import { answer, routeArgs, signedInMember } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { action, loader } from "./jobs";

let services: Services;
let operator: string;
let member: string;
let failed: string;
beforeAll(async () => {
  services = await createTestServices({ OPERATORS: "ops@example.com" }, { jobs: true });
  await createQueues(services);
  ({ cookie: operator } = await signedInMember(services, "ops"));
  ({ cookie: member } = await signedInMember(services, "member"));
  // A purge that failed for good: sent with no retries, taken and failed as a worker would.
  failed = (await services.jobs.send("purge", { key: "all" }, { singletonKey: "all", retryLimit: 0 }))!;
  const [taken] = await services.jobs.fetch("purge");
  expect(taken?.id).toBe(failed);
  await services.jobs.fail("purge", failed, new Error("boom: the database went away"));
}, 60_000);
afterAll(() => services.close());

const URL = "http://localhost:3000/operator/jobs";
const page = (cookie: string) => answer(() => loader(routeArgs(services, new Request(URL, { headers: { cookie } }))));
const post = (cookie: string, body: Record<string, string>) =>
  answer(() => action(routeArgs(services, new Request(URL, { method: "POST", headers: { cookie }, body: new URLSearchParams(body) }))));

/** A `data()` answer's status and body, or a Response's status. */
const statusOf = (result: unknown) => (result instanceof Response ? result.status : ((result as { init?: { status?: number } }).init?.status ?? 200));
const bodyOf = (result: unknown) => (result as { data: unknown }).data;
/** The toast an answer leaves for the page's next load of its data. */
function toastOf(result: unknown) {
  const cookie = new Headers((result as { init?: { headers?: HeadersInit } }).init?.headers).get("set-cookie") ?? "";
  const request = new Request(URL, { headers: { cookie: cookie.split(";")[0] ?? "" } });
  const { flash } = readFlash(request, { appUrl: services.env.APP_URL });
  return flash && { message: flash.message, description: flash.description };
}

async function states() {
  return rowsOf(await services.database.db.execute(sql`select id, state from pgboss.job order by id`));
}

describe("/operator/jobs", () => {
  it("is refused to a member who is not an operator, and changes nothing for them", async () => {
    expect(statusOf(await page(member))).toBe(403);
    const before = await states();
    expect(statusOf(await post(member, { intent: "retry", queue: "purge", id: failed }))).toBe(403);
    expect(await states()).toEqual(before);
  });

  it("shows an operator every queue, counted, and the failed job with its message but not its stack", async () => {
    const shown = await page(operator);
    if (shown instanceof Response) throw new Error(`answered ${shown.status}`);
    expect(shown.queues.map((q) => q.label)).toContain("Purge");
    expect(shown.queues.find((q) => q.queue === "purge")).toMatchObject({ counts: { failed: 1 }, lastRun: { failed: true, at: expect.any(String) } });
    expect(shown.failed).toEqual([
      expect.objectContaining({ id: failed, queueLabel: "Purge", keyLabel: "whole platform", tries: 1, message: "boom: the database went away" }),
    ]);
    expect(JSON.stringify(shown)).not.toContain("jobs.test.ts");
    expect(shown.open).toEqual([]);
  });

  it("refuses bad input with field errors and changes nothing", async () => {
    const before = await states();
    const badQueue = await post(operator, { intent: "retry", queue: "pgboss", id: failed });
    expect(statusOf(badQueue)).toBe(400);
    expect(bodyOf(badQueue)).toEqual({ ok: false, errors: { queue: "Choose a queue of the list." } });
    const badId = await post(operator, { intent: "retry", queue: "purge", id: "42" });
    expect(bodyOf(badId)).toEqual({ ok: false, errors: { id: "This is not a job's id." } });
    expect(toastOf(badId)).toBeNull();
    expect(statusOf(await post(operator, { intent: "delete", queue: "purge", id: failed }))).toBe(400);
    const unknown = await post(operator, { intent: "cancel", queue: "purge", id: "00000000-0000-4000-8000-000000000000" });
    expect(statusOf(unknown)).toBe(404);
    expect(bodyOf(unknown)).toEqual({
      ok: false,
      errors: { form: "No such job in the Purge queue: it may have been removed (finished jobs are kept six hours)." },
    });
    const finished = await post(operator, { intent: "cancel", queue: "purge", id: failed });
    expect(statusOf(finished)).toBe(409);
    expect(await states()).toEqual(before);
  });

  it("retries the failed job, then cancels it while it waits to retry", async () => {
    const retried = await post(operator, { intent: "retry", queue: "purge", id: failed });
    expect(bodyOf(retried)).toEqual({ ok: true });
    expect(toastOf(retried)).toEqual({ message: "Job retried", description: "Purge runs it again shortly." });
    const shown = await page(operator);
    if (shown instanceof Response) throw new Error(`answered ${shown.status}`);
    expect(shown.failed).toEqual([]);
    expect(shown.open).toEqual([
      expect.objectContaining({ id: failed, state: "retry", stateWords: "waiting to retry", lastError: "boom: the database went away" }),
    ]);

    const cancelled = await post(operator, { intent: "cancel", queue: "purge", id: failed });
    expect(bodyOf(cancelled)).toEqual({ ok: true });
    expect(toastOf(cancelled)).toEqual({ message: "Job cancelled", description: "Purge will not run it." });
    expect((await states()).find((row) => row.id === failed)?.state).toBe("cancelled");
  });
});
