import { and, eq } from "drizzle-orm";
import { webhookDelivery, webhookEndpoint } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, ok, type Result } from "~/lib/result";
import { deliveryBody, newDeliveryId } from "./delivery.server";
import { TEST_EVENT_TYPE } from "./webhook.schema";

/**
 * What the team does by hand: send one delivery again, send every failed one of an endpoint again,
 * send a test event. Each is due at once (the webhook job sends it within a second), with a fresh
 * retry schedule; the attempts made before stay in the log. Each has a flood limit per endpoint.
 */

export const LIMITS = {
  test: { max: 10, windowSeconds: 60 },
  redeliver: { max: 60, windowSeconds: 60 },
  redeliverAll: { max: 5, windowSeconds: 60 },
} as const;

async function limited({ db, kind, endpointId, now }: { db: Db; kind: keyof typeof LIMITS; endpointId: string; now: Date }) {
  const claim = await takeRateLimit({ db, key: `webhook.${kind}:${endpointId}`, ...LIMITS[kind], now: now.getTime() });
  return claim.ok ? null : failure("limited", `Too many at once. Try again in ${claim.retryAfterSeconds} s.`, claim.retryAfterSeconds);
}

async function enabledEndpoint({ db, projectId, endpointId }: { db: Db; projectId: string; endpointId: string }): Promise<Result> {
  const [endpoint] = await db
    .select({ enabled: webhookEndpoint.enabled })
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.projectId, projectId)));
  if (!endpoint) return failure("not_found", "This endpoint does not exist (any more).");
  if (!endpoint.enabled) return failure("conflict", "This endpoint is disabled. Enable it first.");
  return ok();
}

const again = (now: Date) => ({ state: "pending" as const, attempts: 0, nextAttemptAt: now, lastError: null });

/** Sends one delivery again, with the same `webhook-id` and body. */
export async function redeliver({
  db,
  projectId,
  endpointId,
  deliveryId,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  endpointId: string;
  deliveryId: string;
  now?: Date;
}): Promise<Result> {
  const endpoint = await enabledEndpoint({ db, projectId, endpointId });
  if (!endpoint.ok) return endpoint;
  const refused = await limited({ db, kind: "redeliver", endpointId, now });
  if (refused) return refused;
  const updated = await db
    .update(webhookDelivery)
    .set(again(now))
    .where(and(eq(webhookDelivery.id, deliveryId), eq(webhookDelivery.endpointId, endpointId)))
    .returning({ id: webhookDelivery.id });
  return updated.length ? ok() : failure("not_found", "This delivery does not exist (any more).");
}

/** Sends every failed delivery of an endpoint again; says how many. */
export async function redeliverAllFailed({
  db,
  projectId,
  endpointId,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  endpointId: string;
  now?: Date;
}): Promise<Result<{ count: number }>> {
  const endpoint = await enabledEndpoint({ db, projectId, endpointId });
  if (!endpoint.ok) return endpoint;
  const refused = await limited({ db, kind: "redeliverAll", endpointId, now });
  if (refused) return refused;
  const updated = await db
    .update(webhookDelivery)
    .set(again(now))
    .where(and(eq(webhookDelivery.endpointId, endpointId), eq(webhookDelivery.state, "failed")))
    .returning({ id: webhookDelivery.id });
  return ok({ count: updated.length });
}

/** A `webhook.test` delivery to the endpoint, due at once. */
export async function sendTestEvent({
  db,
  projectId,
  endpointId,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  endpointId: string;
  now?: Date;
}): Promise<Result<{ deliveryId: string }>> {
  const endpoint = await enabledEndpoint({ db, projectId, endpointId });
  if (!endpoint.ok) return endpoint;
  const refused = await limited({ db, kind: "test", endpointId, now });
  if (refused) return refused;
  const id = newDeliveryId();
  await db.insert(webhookDelivery).values({
    id,
    endpointId,
    eventId: null,
    eventType: TEST_EVENT_TYPE,
    body: deliveryBody(TEST_EVENT_TYPE, now, { endpointId, message: "A test event: your endpoint receives and verifies our webhooks." }),
    nextAttemptAt: now,
    createdAt: now,
  });
  return ok({ deliveryId: id });
}
