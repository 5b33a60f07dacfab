import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "#tests/setup/test-db";
import { user } from "#db/schema/auth";
import { appEvent, webhookAttempt, webhookDelivery, webhookEndpoint } from "#db/schema/reach";
import type { Database, Db } from "~/lib/db.server";
import { emitEvent } from "~/modules/events/emit.server";
import { projectSchema } from "~/modules/projects/project.schema";
import { createProject } from "~/modules/projects/projects.server";
import { createEndpoint, deleteEndpoint, enableEndpoint, rotateEndpointSecret } from "./endpoints.server";
import { claimDueDeliveries, deliverDue, fanOutWebhooks, MAX_ATTEMPTS, RETRY_AFTER_MS } from "./delivery.server";
import { listDeliveries, purgeWebhookLog } from "./delivery-log.server";
import { redeliver, redeliverAllFailed, sendTestEvent } from "./redeliver.server";

/** A receiver on this machine: answers with `answer` (null: never answers), keeps what came. */
type Received = { headers: Record<string, string>; body: string };
async function receiver(answer: (received: Received) => number | null | Promise<number>) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const got = { headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") };
      received.push(got);
      void Promise.resolve(answer(got)).then((status) => {
        if (status === null) return; // hangs
        response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "thanks" : "x".repeat(3000));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** What the `standardwebhooks` package (not our code) says of a received message under `secret`. */
function verifies(secret: string, got: Received) {
  try {
    new Webhook(secret).verify(got.body, got.headers);
    return true;
  } catch {
    return false;
  }
}

let database: Database;
let db: Db;
let projectId: string;
const tokenKey = randomBytes(32);
const receivers: Awaited<ReturnType<typeof receiver>>[] = [];
let eventSeq = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await db.insert(user).values({ id: "owner", email: "owner@example.com", name: "Olive" });
  const input = projectSchema.parse({ name: "Acme", slug: "acme", description: "", categoryId: "", website: "", xUrl: "", discordUrl: "", telegramUrl: "" });
  const created = await createProject({ db, userId: "owner", input });
  if (!created.ok) throw new Error("no project");
  projectId = created.project.id;
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await database.close();
});

async function endpointAt(url: string, eventTypes = ["member.joined"]) {
  const created = await createEndpoint({
    db,
    tokenKey,
    allowLoopback: true,
    projectId,
    userId: "owner",
    input: { url, description: "", eventTypes: eventTypes as never },
  });
  if (!created.ok) throw new Error(JSON.stringify(created));
  return created;
}
async function startReceiver(answer: (received: Received) => number | null | Promise<number>) {
  const r = await receiver(answer);
  receivers.push(r);
  return r;
}
const memberJoined = (userId = `u${++eventSeq}`) => emitEvent(db, { type: "member.joined", key: `joined:${projectId}:${userId}`, projectId, data: { userId } });
const deliveriesOf = (endpointId: string) => db.select().from(webhookDelivery).where(eq(webhookDelivery.endpointId, endpointId));
const attemptsOf = (endpointId: string) => db.select().from(webhookAttempt).where(eq(webhookAttempt.endpointId, endpointId)).orderBy(webhookAttempt.id);
const send = (now: Date, extra: Partial<Parameters<typeof deliverDue>[0]> = {}) => deliverDue({ db, tokenKey, allowLoopback: true, now, ...extra });
/** Turns off the other tests' endpoints, so each test sees its own deliveries. */
const onlyThis = (endpointId: string) =>
  db
    .update(webhookEndpoint)
    .set({ enabled: false })
    .where(sql`${webhookEndpoint.id} <> ${endpointId}`);

describe("fan-out", () => {
  it("makes one delivery per endpoint that chose the type, once however often and however concurrently it runs", async () => {
    const r = await startReceiver(() => 204);
    const chosen = await endpointAt(r.url, ["member.joined"]);
    const other = await endpointAt(r.url, ["reward.paid"]);
    await onlyThis(chosen.endpoint.id);
    await db.update(webhookEndpoint).set({ enabled: true }).where(eq(webhookEndpoint.id, other.endpoint.id));
    await memberJoined("alice");
    await Promise.all([fanOutWebhooks({ db }), fanOutWebhooks({ db })]);
    await fanOutWebhooks({ db });
    const made = await deliveriesOf(chosen.endpoint.id);
    expect(made).toHaveLength(1);
    expect(made[0]!.id).toMatch(/^msg_/);
    expect(JSON.parse(made[0]!.body)).toMatchObject({ type: "member.joined", data: { userId: "alice" } });
    expect(await deliveriesOf(other.endpoint.id)).toHaveLength(0);
    const [left] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(appEvent)
      .where(sql`${appEvent.webhookedAt} is null`);
    expect(left!.n).toBe(0);
  });

  it("sends an endpoint what happens from when it was added, never the project's history", async () => {
    const r = await startReceiver(() => 204);
    await memberJoined("before");
    await db.execute(sql`update app_event set created_at = now() - interval '1 minute' where key = ${`joined:${projectId}:before`}`);
    const added = await endpointAt(r.url, ["member.joined"]);
    await onlyThis(added.endpoint.id);
    await memberJoined("after");
    await fanOutWebhooks({ db });
    expect((await deliveriesOf(added.endpoint.id)).map((d) => JSON.parse(d.body).data.userId)).toEqual(["after"]);
    // (a project has at most 10 endpoints: the other tests need their places)
    await db.delete(webhookEndpoint).where(eq(webhookEndpoint.id, added.endpoint.id));
  });
});

describe("delivery", () => {
  it("signs so that the standardwebhooks package verifies, with both secrets during a rotation", async () => {
    const r = await startReceiver(() => 200);
    const { endpoint, secret: first } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    const now = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now });
    expect(await send(now)).toMatchObject({ sent: 1, delivered: 1 });
    expect(verifies(first, r.received[0]!)).toBe(true);
    expect(r.received[0]!.headers["webhook-id"]).toBe((await deliveriesOf(endpoint.id))[0]!.id);

    const rotated = await rotateEndpointSecret({ db, tokenKey, projectId, endpointId: endpoint.id, now });
    if (!rotated.ok) throw new Error("not rotated");
    await memberJoined();
    await fanOutWebhooks({ db, now });
    await send(now);
    const during = r.received[1]!;
    expect(during.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(verifies(rotated.secret, during)).toBe(true);
    expect(verifies(first, during)).toBe(true);
    expect(verifies(`whsec_${randomBytes(32).toString("base64")}`, during)).toBe(false);

    // After the overlap only the new secret signs (the package's clock told the send's time).
    const later = new Date(now.getTime() + 25 * 3_600_000);
    await memberJoined();
    await fanOutWebhooks({ db, now: later });
    await send(later);
    const after = r.received[2]!;
    expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    const realNow = Date.now;
    Date.now = () => later.getTime();
    try {
      expect(verifies(rotated.secret, after)).toBe(true);
      expect(verifies(first, after)).toBe(false);
    } finally {
      Date.now = realNow;
    }
  });

  it("tries again after a failure, and the next attempt arrives; both are logged", async () => {
    let calls = 0;
    const r = await startReceiver(() => (++calls === 1 ? 500 : 200));
    const { endpoint, secret } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    const now = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now });
    expect(await send(now)).toMatchObject({ sent: 1, retrying: 1 });
    const [pending] = await deliveriesOf(endpoint.id);
    expect(pending!.state).toBe("pending");
    const wait = pending!.nextAttemptAt.getTime() - now.getTime();
    expect(wait).toBeGreaterThanOrEqual(RETRY_AFTER_MS[0] * 0.9);
    expect(wait).toBeLessThanOrEqual(RETRY_AFTER_MS[0] * 1.1);
    expect((await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpoint.id)))[0]!.failingSince).toEqual(now);
    expect(await send(new Date(now.getTime() + 1_000))).toMatchObject({ sent: 0 });

    const retryAt = new Date(now.getTime() + 6_000);
    expect(await send(retryAt)).toMatchObject({ sent: 1, delivered: 1 });
    expect(r.received.map((got) => got.headers["webhook-id"])).toEqual([pending!.id, pending!.id]);
    expect(r.received[0]!.body).toBe(r.received[1]!.body);
    expect(verifies(secret, r.received[1]!)).toBe(true);
    const attempts = await attemptsOf(endpoint.id);
    expect(attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(attempts[0]!.responseExcerpt).toHaveLength(1_000);
    expect(attempts[1]!.responseExcerpt).toBe("thanks");
    const [done] = await deliveriesOf(endpoint.id);
    expect(done).toMatchObject({ state: "delivered", attempts: 2, lastStatus: 200 });
    expect((await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpoint.id)))[0]!.failingSince).toBeNull();
  });

  it("records a receiver that hangs as a timeout and tries it again", async () => {
    let calls = 0;
    const r = await startReceiver(() => (++calls === 1 ? null : 200));
    const { endpoint } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    const now = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now });
    expect(await send(now, { timeoutMs: 300 })).toMatchObject({ sent: 1, retrying: 1 });
    const [attempt] = await attemptsOf(endpoint.id);
    expect(attempt).toMatchObject({ status: null, error: "No answer within 0.3 s." });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(300);
    expect(await send(new Date(now.getTime() + 6_000), { timeoutMs: 300 })).toMatchObject({ delivered: 1 });
  });

  it("follows the backoff schedule against a receiver that fails forever, then fails the delivery and disables the endpoint once", async () => {
    const r = await startReceiver(() => 500);
    const { endpoint } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    const start = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now: start });
    let now = start;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await send(now, { random: () => 0.5 });
      expect(result.sent).toBe(1);
      const [delivery] = await deliveriesOf(endpoint.id);
      if (attempt < MAX_ATTEMPTS) {
        expect(delivery!.state).toBe("pending");
        expect(delivery!.nextAttemptAt.getTime() - now.getTime()).toBe(RETRY_AFTER_MS[attempt - 1]);
        expect(await send(new Date(delivery!.nextAttemptAt.getTime() - 1))).toMatchObject({ sent: 0 });
        now = delivery!.nextAttemptAt;
      } else {
        expect(delivery!.state).toBe("failed");
        expect(result.disabled).toEqual([endpoint.id]);
      }
    }
    expect(now.getTime() - start.getTime()).toBeGreaterThan(24 * 3_600_000);
    expect(r.received).toHaveLength(MAX_ATTEMPTS);
    const [state] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpoint.id));
    expect(state).toMatchObject({ enabled: false, disabledReason: "Every delivery failed for 24 hours. The last: The endpoint answered HTTP 500." });
    const notices = await db.select().from(appEvent).where(eq(appEvent.type, "webhook.disabled"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ projectId, data: { endpointId: endpoint.id, url: r.url } });

    // Disabled, it receives nothing: no new delivery, and nothing pending is sent.
    await memberJoined();
    await fanOutWebhooks({ db, now });
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    await db.update(webhookDelivery).set({ state: "pending", nextAttemptAt: now }).where(eq(webhookDelivery.endpointId, endpoint.id));
    expect(await send(new Date(now.getTime() + 3_600_000))).toMatchObject({ sent: 0 });
    expect(r.received).toHaveLength(MAX_ATTEMPTS);
    await db.update(webhookDelivery).set({ state: "failed" }).where(eq(webhookDelivery.endpointId, endpoint.id));

    // Enabled again, Redeliver all failed sends it once more, with a fresh schedule; the log keeps every attempt.
    expect(await redeliverAllFailed({ db, projectId, endpointId: endpoint.id, now })).toMatchObject({ ok: false, code: "conflict" });
    await enableEndpoint({ db, projectId, endpointId: endpoint.id });
    expect(await redeliverAllFailed({ db, projectId, endpointId: endpoint.id, now })).toEqual({ ok: true, count: 1 });
    expect(await send(now)).toMatchObject({ sent: 1, retrying: 1 });
    expect(await attemptsOf(endpoint.id)).toHaveLength(MAX_ATTEMPTS + 1);
    expect((await listDeliveries({ db, endpointId: endpoint.id })).deliveries[0]).toMatchObject({ attempts: MAX_ATTEMPTS + 1, lastStatus: 500 });
    expect(await db.select().from(appEvent).where(eq(appEvent.type, "webhook.disabled"))).toHaveLength(1);
  });

  it("sends a claim whose worker died again once its lease has run out", async () => {
    const r = await startReceiver(() => 200);
    const { endpoint } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    const now = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now });
    // A worker claims and is killed before it sends or records anything.
    const leaseUntil = new Date(now.getTime() + 70_000);
    expect(await claimDueDeliveries({ db, now, leaseUntil, limit: 10 })).toHaveLength(1);
    expect(await send(new Date(now.getTime() + 1_000))).toMatchObject({ sent: 0 });
    expect(await send(leaseUntil)).toMatchObject({ sent: 1, delivered: 1 });
    expect(r.received).toHaveLength(1);
  });

  it("refuses at send a URL changed to a private address behind the form's back, and logs the attempt", async () => {
    const r = await startReceiver(() => 200);
    const { endpoint } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    await db.update(webhookEndpoint).set({ url: "http://10.0.0.7/hook" }).where(eq(webhookEndpoint.id, endpoint.id));
    const now = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now });
    expect(await send(now)).toMatchObject({ sent: 1, retrying: 1 });
    const [attempt] = await attemptsOf(endpoint.id);
    expect(attempt!.status).toBeNull();
    expect(attempt!.error).toContain("10.0.0.7 is a private, link-local or reserved address");
    // And loopback is refused when the trial's allowance is off (public mode).
    await db.update(webhookEndpoint).set({ url: r.url }).where(eq(webhookEndpoint.id, endpoint.id));
    expect(await send(new Date(now.getTime() + 6_000), { allowLoopback: false })).toMatchObject({ sent: 1, retrying: 1 });
    expect((await attemptsOf(endpoint.id))[1]!.error).toContain("loopback");
    // A secret this server's key cannot read: nothing leaves unsigned.
    const later = new Date(now.getTime() + 10 * 60_000);
    expect(await send(later, { tokenKey: randomBytes(32) })).toMatchObject({ sent: 1, retrying: 1 });
    expect((await attemptsOf(endpoint.id))[2]!.error).toContain("secret cannot be read");
    expect(r.received).toHaveLength(0);
  });

  it("redelivers one delivery with its id and body, and sends a test event at once, within the flood limit", async () => {
    const r = await startReceiver(() => 200);
    const { endpoint, secret } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    const now = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now });
    await send(now);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(await redeliver({ db, projectId, endpointId: endpoint.id, deliveryId: delivery!.id, now })).toEqual({ ok: true });
    expect(await send(now)).toMatchObject({ delivered: 1 });
    expect(r.received[1]!.headers["webhook-id"]).toBe(delivery!.id);
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
    expect(await redeliver({ db, projectId: "elsewhere", endpointId: endpoint.id, deliveryId: delivery!.id, now })).toMatchObject({ code: "not_found" });

    const test = await sendTestEvent({ db, projectId, endpointId: endpoint.id, now });
    if (!test.ok) throw new Error("no test event");
    expect(await send(now)).toMatchObject({ delivered: 1 });
    expect(r.received[2]!.headers["webhook-id"]).toBe(test.deliveryId);
    expect(JSON.parse(r.received[2]!.body)).toMatchObject({ type: "webhook.test", data: { endpointId: endpoint.id } });
    expect(verifies(secret, r.received[2]!)).toBe(true);
    for (let i = 1; i < 10; i++) expect((await sendTestEvent({ db, projectId, endpointId: endpoint.id, now })).ok).toBe(true);
    expect(await sendTestEvent({ db, projectId, endpointId: endpoint.id, now })).toMatchObject({ ok: false, code: "limited" });
    const testRows = await db
      .select()
      .from(webhookDelivery)
      .where(and(eq(webhookDelivery.endpointId, endpoint.id), eq(webhookDelivery.eventType, "webhook.test")));
    expect(testRows.every((row) => row.eventId === null)).toBe(true);
  });

  it("pages the log by cursor and purges what is older than 30 days, keeping the failed", async () => {
    const r = await startReceiver(() => 200);
    const { endpoint } = await endpointAt(r.url);
    await onlyThis(endpoint.id);
    const old = new Date(Date.now() - 40 * 86_400_000);
    for (let i = 0; i < 5; i++) await memberJoined();
    await fanOutWebhooks({ db, now: old });
    await send(old);
    await db
      .update(webhookDelivery)
      .set({ state: "failed" })
      .where(sql`${webhookDelivery.id} = (select id from webhook_delivery where endpoint_id = ${endpoint.id} limit 1)`);
    const first = await listDeliveries({ db, endpointId: endpoint.id, limit: 2 });
    const second = await listDeliveries({ db, endpointId: endpoint.id, limit: 2, cursor: first.next });
    const third = await listDeliveries({ db, endpointId: endpoint.id, limit: 2, cursor: second.next });
    expect(third.next).toBeNull();
    expect(new Set([...first.deliveries, ...second.deliveries, ...third.deliveries].map((d) => d.id)).size).toBe(5);
    const purged = await purgeWebhookLog({ db, now: new Date() });
    expect(purged.deliveries).toBeGreaterThanOrEqual(4);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    expect(await attemptsOf(endpoint.id)).toHaveLength(0);
  });

  it("records the rest of a batch when an endpoint is deleted while its request is on the wire", async () => {
    await db.delete(webhookEndpoint);
    const ok = await startReceiver(() => 200);
    let deleting = "";
    const gone = await startReceiver(async () => {
      await deleteEndpoint({ db, projectId, endpointId: deleting });
      return 200;
    });
    const kept = await endpointAt(ok.url);
    const deleted = await endpointAt(gone.url);
    deleting = deleted.endpoint.id;
    const now = new Date();
    await memberJoined();
    await fanOutWebhooks({ db, now });
    expect(await send(now)).toMatchObject({ sent: 2 });
    expect(gone.received).toHaveLength(1);
    expect(await deliveriesOf(kept.endpoint.id)).toMatchObject([{ state: "delivered" }]);
    expect(await attemptsOf(kept.endpoint.id)).toHaveLength(1);
  });
});
