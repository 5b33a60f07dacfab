import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { appEvent, webhookAttempt, webhookDelivery, webhookEndpoint } from "#db/schema/reach";
import { rowsOf, type Db } from "~/lib/db.server";
import { outboundRequest, type OutboundAnswer } from "~/lib/outbound-request.server";
import { signedHeaders } from "~/lib/webhook-signature.server";
import { emitEvent } from "~/modules/events/emit.server";
import { signingSecrets } from "./endpoints.server";

/**
 * From the outbox to the endpoints, at least once.
 *
 * `fanOutWebhooks` claims outbox rows no webhook pass has read (`webhooked_at is null`, skip
 * locked), inserts one delivery per enabled endpoint of the event's project that chose its type
 * (unique per endpoint and event: once, however often or concurrently it runs) and marks the rows,
 * in one transaction. Each delivery's body, `{ type, timestamp, data }`, is fixed there: every
 * attempt signs and sends the same bytes under the same `webhook-id` (the delivery's id).
 *
 * `deliverDue` claims due pending deliveries and, in the same statement, moves their
 * `next_attempt_at` past the send's timeout: a lease. A worker killed after the claim leaves them
 * pending, and they come due again when the lease ends, to be sent again: at least once, never
 * lost. Receivers tell a repeat by its `webhook-id`. An answer in 2xx delivers; anything else is
 * tried again after a growing wait (`RETRY_AFTER_MS`, with jitter, about 28 hours in all), then
 * the delivery has failed. An endpoint whose every attempt has failed for 24 hours is disabled,
 * its pending deliveries failed, and a `webhook.disabled` event tells the project's team.
 */

/** The wait before each retry, after the 1st, 2nd, … failed attempt (±10 % jitter); after the last, the delivery has failed. */
export const RETRY_AFTER_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
/** Attempts a delivery gets in all. */
export const MAX_ATTEMPTS = RETRY_AFTER_MS.length + 1;
/** An endpoint failing every attempt for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 24 * 3_600_000;
export const SEND_TIMEOUT_MS = 10_000;
/** How much of an answer the log keeps. */
export const EXCERPT_CHARS = 1_000;
/** The lease a claim takes beyond the send's timeout, for the recording. */
const LEASE_MARGIN_MS = 60_000;

export const newDeliveryId = () => `msg_${randomBytes(16).toString("hex")}`;

/** The body every attempt of a delivery sends. */
export const deliveryBody = (type: string, timestamp: Date, data: unknown) => JSON.stringify({ type, timestamp: timestamp.toISOString(), data });

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Turns up to `limit` outbox rows into deliveries, exactly once. */
export async function fanOutWebhooks({ db, limit = 1_000, now = new Date() }: { db: Db; limit?: number; now?: Date }) {
  return db.transaction(async (tx) => {
    const events = rowsOf(
      await tx.execute(
        sql`select id, type, project_id, data, created_at from app_event where webhooked_at is null order by id limit ${limit} for update skip locked`,
      ),
    ).map((row) => ({
      id: Number(row.id),
      type: String(row.type),
      projectId: row.project_id as string | null,
      data: row.data,
      createdAt: new Date(row.created_at as string | Date),
    }));
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const projectIds = [...new Set(events.map((e) => e.projectId).filter((id): id is string => id !== null))];
    const endpoints = projectIds.length
      ? await tx
          .select({
            id: webhookEndpoint.id,
            projectId: webhookEndpoint.projectId,
            eventTypes: webhookEndpoint.eventTypes,
            createdAt: webhookEndpoint.createdAt,
          })
          .from(webhookEndpoint)
          .where(and(inArray(webhookEndpoint.projectId, projectIds), eq(webhookEndpoint.enabled, true)))
      : [];
    const rows = events.flatMap((event) =>
      endpoints
        // An endpoint hears what happens from when it was added, never the project's history.
        .filter((endpoint) => endpoint.projectId === event.projectId && endpoint.eventTypes.includes(event.type) && event.createdAt >= endpoint.createdAt)
        .map((endpoint) => ({
          id: newDeliveryId(),
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          body: deliveryBody(event.type, event.createdAt, event.data),
          nextAttemptAt: now,
          createdAt: now,
        })),
    );
    // In slices: a statement carries at most 65,535 parameters (1,000 events × 10 endpoints would pass it).
    let inserted = 0;
    for (let i = 0; i < rows.length; i += 1_000)
      inserted += (
        await tx
          .insert(webhookDelivery)
          .values(rows.slice(i, i + 1_000))
          .onConflictDoNothing()
          .returning({ id: webhookDelivery.id })
      ).length;
    await tx
      .update(appEvent)
      .set({ webhookedAt: now })
      .where(
        inArray(
          appEvent.id,
          events.map((e) => e.id),
        ),
      );
    return { events: events.length, deliveries: inserted };
  });
}

type Claimed = {
  id: string;
  endpointId: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
};

/**
 * Claims up to `limit` due pending deliveries of enabled endpoints, leasing them until `leaseUntil`:
 * until then no other claim takes them; after it, an unrecorded one is due again.
 */
export async function claimDueDeliveries({ db, now, leaseUntil, limit }: { db: Db; now: Date; leaseUntil: Date; limit: number }): Promise<Claimed[]> {
  const rows = rowsOf(
    await db.execute(sql`
      update webhook_delivery d set next_attempt_at = ${at(leaseUntil)}
      from webhook_endpoint e
      where e.id = d.endpoint_id and d.id in (
        select d2.id from webhook_delivery d2 join webhook_endpoint e2 on e2.id = d2.endpoint_id and e2.enabled
        where d2.state = 'pending' and d2.next_attempt_at <= ${at(now)}
        order by d2.next_attempt_at limit ${limit}
        for update of d2 skip locked)
      returning d.id, d.endpoint_id, d.body, d.attempts, e.url, e.secret, e.previous_secret, e.previous_secret_until`),
  );
  return rows.map((row) => ({
    id: String(row.id),
    endpointId: String(row.endpoint_id),
    body: String(row.body),
    attempts: Number(row.attempts),
    url: String(row.url),
    secret: String(row.secret),
    previousSecret: row.previous_secret as string | null,
    previousSecretUntil: row.previous_secret_until ? new Date(row.previous_secret_until as string | Date) : null,
  }));
}

/** Runs `work` over `items`, at most `concurrency` at a time; the results in the order they finished. */
async function inPool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      results.push(await work(item));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

type Outcome = { delivery: Claimed; answer: OutboundAnswer };

const delivered = (answer: OutboundAnswer) => answer.ok && answer.status >= 200 && answer.status < 300;
const errorOf = (answer: OutboundAnswer) => (answer.ok ? (delivered(answer) ? null : `The endpoint answered HTTP ${answer.status}.`) : answer.message);

/**
 * Sends the due deliveries (up to `limit`, `concurrency` at once) and records each attempt: the
 * webhook job's step. Returns what happened.
 */
export async function deliverDue({
  db,
  tokenKey,
  allowLoopback,
  now = new Date(),
  limit = 1_000,
  concurrency = 50,
  timeoutMs = SEND_TIMEOUT_MS,
  random = Math.random,
}: {
  db: Db;
  tokenKey: Buffer;
  allowLoopback: boolean;
  now?: Date;
  limit?: number;
  concurrency?: number;
  timeoutMs?: number;
  /** The jitter's source, in [0, 1). */
  random?: () => number;
}) {
  const claimed = await claimDueDeliveries({ db, now, leaseUntil: new Date(now.getTime() + timeoutMs + LEASE_MARGIN_MS), limit });
  if (claimed.length === 0) return { sent: 0, delivered: 0, retrying: 0, failed: 0, disabled: [] as string[] };
  const timestamp = Math.floor(now.getTime() / 1000);
  const outcomes = await inPool(claimed, concurrency, async (delivery): Promise<Outcome> => {
    const secrets = signingSecrets({ tokenKey, now }, delivery);
    // A secret stored under another key (SOCIAL_TOKEN_KEY changed) cannot sign: nothing unsigned leaves.
    if (secrets.length === 0)
      return {
        delivery,
        answer: { ok: false, reason: "refused", message: "The endpoint's secret cannot be read with this server's key: rotate it.", durationMs: 0 },
      };
    const headers = { "content-type": "application/json", ...signedHeaders({ secrets, id: delivery.id, timestamp, body: delivery.body }) };
    const answer = await outboundRequest({
      url: delivery.url,
      body: delivery.body,
      headers,
      timeoutMs,
      maxBytes: 4 * EXCERPT_CHARS,
      allowLoopback,
      keepAlive: true,
    });
    return { delivery, answer };
  });
  return recordOutcomes({ db, now, outcomes, random });
}

async function recordOutcomes({ db, now, outcomes: sent, random }: { db: Db; now: Date; outcomes: Outcome[]; random: () => number }) {
  let outcomes = sent;
  const summary = { sent: outcomes.length, delivered: 0, retrying: 0, failed: 0, disabled: [] as string[] };
  let updates = outcomes.map(({ delivery, answer }) => {
    const attempt = delivery.attempts + 1;
    const ok = delivered(answer);
    const state = ok ? "delivered" : attempt >= MAX_ATTEMPTS ? "failed" : "pending";
    summary[ok ? "delivered" : state === "failed" ? "failed" : "retrying"]++;
    const wait = state === "pending" ? RETRY_AFTER_MS[attempt - 1]! * (0.9 + 0.2 * random()) : 0;
    return {
      id: delivery.id,
      attempt,
      state,
      nextAttemptAt: new Date(now.getTime() + Math.round(wait)),
      status: answer.ok ? answer.status : null,
      error: errorOf(answer),
    };
  });
  await db.transaction(async (tx) => {
    // An endpoint deleted while its requests were on the wire took its deliveries along: nothing to record for them.
    const still = new Set(
      (
        await tx
          .select({ id: webhookDelivery.id })
          .from(webhookDelivery)
          .where(
            inArray(
              webhookDelivery.id,
              outcomes.map((o) => o.delivery.id),
            ),
          )
          .for("update")
      ).map((row) => row.id),
    );
    outcomes = outcomes.filter((o) => still.has(o.delivery.id));
    updates = updates.filter((u) => still.has(u.id));
    if (outcomes.length === 0) return;
    await tx.insert(webhookAttempt).values(
      outcomes.map(({ delivery, answer }) => ({
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        attemptedAt: now,
        durationMs: answer.durationMs,
        status: answer.ok ? answer.status : null,
        responseExcerpt: answer.ok ? answer.body.slice(0, EXCERPT_CHARS) : null,
        error: errorOf(answer),
      })),
    );
    const values = sql.join(
      updates.map(
        (u) =>
          sql`(${u.id}, ${u.attempt}::int, ${u.state}, ${at(u.nextAttemptAt)}, ${u.status}::int, ${u.error}::text, ${u.state === "delivered" ? at(now) : sql`null::timestamptz`})`,
      ),
      sql`, `,
    );
    await tx.execute(sql`
      update webhook_delivery d set attempts = v.attempts, state = v.state, next_attempt_at = v.next_attempt_at,
        last_status = v.status, last_error = v.error, delivered_at = coalesce(v.delivered_at, d.delivered_at)
      from (values ${values}) as v(id, attempts, state, next_attempt_at, status, error, delivered_at)
      where d.id = v.id`);

    // Each endpoint's streak: the last outcome (in the order they finished) decides.
    const streak = new Map<string, { lastOk: boolean; anyOk: boolean; lastError: string | null }>();
    for (const { delivery, answer } of outcomes) {
      const ok = delivered(answer);
      const seen = streak.get(delivery.endpointId);
      streak.set(delivery.endpointId, { lastOk: ok, anyOk: ok || (seen?.anyOk ?? false), lastError: ok ? (seen?.lastError ?? null) : errorOf(answer) });
    }
    const recovered = [...streak].filter(([, s]) => s.lastOk).map(([id]) => id);
    const restarted = [...streak].filter(([, s]) => !s.lastOk && s.anyOk).map(([id]) => id);
    const failing = [...streak].filter(([, s]) => !s.anyOk).map(([id]) => id);
    if (recovered.length) await tx.update(webhookEndpoint).set({ failingSince: null }).where(inArray(webhookEndpoint.id, recovered));
    if (restarted.length) await tx.update(webhookEndpoint).set({ failingSince: now }).where(inArray(webhookEndpoint.id, restarted));
    if (failing.length)
      await tx
        .update(webhookEndpoint)
        .set({ failingSince: sql`coalesce(${webhookEndpoint.failingSince}, ${at(now)})` })
        .where(inArray(webhookEndpoint.id, failing));

    const candidates = [...restarted, ...failing];
    if (candidates.length === 0) return;
    const due = await tx
      .select({ id: webhookEndpoint.id })
      .from(webhookEndpoint)
      .where(
        and(
          inArray(webhookEndpoint.id, candidates),
          eq(webhookEndpoint.enabled, true),
          sql`${webhookEndpoint.failingSince} <= ${at(new Date(now.getTime() - DISABLE_AFTER_FAILING_MS))}`,
        ),
      );
    for (const { id } of due) {
      const lastError = streak.get(id)?.lastError;
      const reason = lastError ? `Every delivery failed for 24 hours. The last: ${lastError}` : "Every delivery failed for 24 hours.";
      // `enabled` in the condition: of two workers recording at once, one disables it and tells the team.
      const [endpoint] = await tx
        .update(webhookEndpoint)
        .set({ enabled: false, disabledAt: now, disabledReason: reason, updatedAt: now })
        .where(and(eq(webhookEndpoint.id, id), eq(webhookEndpoint.enabled, true)))
        .returning({ id: webhookEndpoint.id, projectId: webhookEndpoint.projectId, url: webhookEndpoint.url });
      if (!endpoint) continue;
      await tx
        .update(webhookDelivery)
        .set({ state: "failed", lastError: "Not sent: the endpoint was disabled." })
        .where(and(eq(webhookDelivery.endpointId, endpoint.id), eq(webhookDelivery.state, "pending")));
      await emitEvent(tx, {
        type: "webhook.disabled",
        key: `webhook.disabled:${endpoint.id}:${now.getTime()}`,
        projectId: endpoint.projectId,
        data: { endpointId: endpoint.id, url: endpoint.url, reason },
      });
      summary.disabled.push(endpoint.id);
    }
  });
  return summary;
}
