import { randomBytes } from "node:crypto";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { project } from "#db/schema/projects";
import { webhookDelivery, webhookEndpoint } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { checkOutboundUrl } from "~/lib/outbound-request.server";
import { failure, invalid, ok, type Result } from "~/lib/result";
import { decryptToken, encryptToken } from "~/lib/secret-box.server";
import { newWebhookSecret } from "~/lib/webhook-signature.server";
import { MAX_ENDPOINTS_PER_PROJECT, type EndpointInput } from "./webhook.schema";

/**
 * A project's webhook endpoints: a URL checked against our own network when saved (and again by
 * every send), the event types it chose, and its signing secret, encrypted at rest and shown once,
 * when the endpoint is made or its secret rotated. During a rotation's overlap the previous secret
 * signs too, so a receiver can switch at its own pace.
 */

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export type EndpointView = {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
};

const viewColumns = {
  id: webhookEndpoint.id,
  url: webhookEndpoint.url,
  description: webhookEndpoint.description,
  eventTypes: webhookEndpoint.eventTypes,
  enabled: webhookEndpoint.enabled,
  disabledAt: webhookEndpoint.disabledAt,
  disabledReason: webhookEndpoint.disabledReason,
  failingSince: webhookEndpoint.failingSince,
  previousSecretUntil: webhookEndpoint.previousSecretUntil,
  createdAt: webhookEndpoint.createdAt,
};

const NOT_FOUND = failure("not_found", "This endpoint does not exist (any more).");

async function checkedUrl(url: string, allowLoopback: boolean): Promise<Result<{ url: string }>> {
  const checked = await checkOutboundUrl(url, { allowLoopback });
  return checked.ok ? ok({ url: checked.url.toString() }) : invalid("url", checked.message);
}

/** Adds an endpoint; its secret is in the answer, and never again. */
export async function createEndpoint({
  db,
  tokenKey,
  allowLoopback,
  projectId,
  userId,
  input,
}: {
  db: Db;
  tokenKey: Buffer;
  allowLoopback: boolean;
  projectId: string;
  userId: string | null;
  input: EndpointInput;
}): Promise<Result<{ endpoint: EndpointView; secret: string }>> {
  const checked = await checkedUrl(input.url, allowLoopback);
  if (!checked.ok) return checked;
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    // The project's row, locked: two forms sent at once cannot both take the last place.
    await tx.select({ id: project.id }).from(project).where(eq(project.id, projectId)).for("update");
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(webhookEndpoint).where(eq(webhookEndpoint.projectId, projectId));
    if (n >= MAX_ENDPOINTS_PER_PROJECT) return invalid("form", `A project has at most ${MAX_ENDPOINTS_PER_PROJECT} endpoints. Remove one first.`);
    const [endpoint] = await tx
      .insert(webhookEndpoint)
      .values({
        id: `ep_${randomBytes(12).toString("hex")}`,
        projectId,
        url: checked.url,
        description: input.description,
        eventTypes: input.eventTypes,
        secret: encryptToken(tokenKey, secret),
        createdBy: userId,
      })
      .returning(viewColumns);
    return ok({ endpoint: endpoint!, secret });
  });
}

/** Changes an endpoint's URL, description and event types. */
export async function updateEndpoint({
  db,
  allowLoopback,
  projectId,
  endpointId,
  input,
  now = new Date(),
}: {
  db: Db;
  allowLoopback: boolean;
  projectId: string;
  endpointId: string;
  input: EndpointInput;
  now?: Date;
}): Promise<Result> {
  const checked = await checkedUrl(input.url, allowLoopback);
  if (!checked.ok) return checked;
  const updated = await db
    .update(webhookEndpoint)
    .set({ url: checked.url, description: input.description, eventTypes: input.eventTypes, updatedAt: now })
    .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.projectId, projectId)))
    .returning({ id: webhookEndpoint.id });
  return updated.length ? ok() : NOT_FOUND;
}

/** Removes an endpoint with its deliveries and their log. */
export async function deleteEndpoint({ db, projectId, endpointId }: { db: Db; projectId: string; endpointId: string }): Promise<Result> {
  const deleted = await db
    .delete(webhookEndpoint)
    .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.projectId, projectId)))
    .returning({ id: webhookEndpoint.id });
  return deleted.length ? ok() : NOT_FOUND;
}

/** Turns a disabled endpoint on again, its failure streak forgotten. What failed meanwhile stays failed (Redeliver all failed sends it). */
export async function enableEndpoint({
  db,
  projectId,
  endpointId,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  endpointId: string;
  now?: Date;
}): Promise<Result> {
  const updated = await db
    .update(webhookEndpoint)
    .set({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null, updatedAt: now })
    .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.projectId, projectId)))
    .returning({ id: webhookEndpoint.id });
  return updated.length ? ok() : NOT_FOUND;
}

/**
 * A new secret (in the answer, once); the one it replaces keeps signing alongside it for
 * `ROTATION_OVERLAP_MS`. Rotating again during an overlap ends the older overlap: only the secret
 * in use until now stays valid with the new one.
 */
export async function rotateEndpointSecret({
  db,
  tokenKey,
  projectId,
  endpointId,
  now = new Date(),
}: {
  db: Db;
  tokenKey: Buffer;
  projectId: string;
  endpointId: string;
  now?: Date;
}): Promise<Result<{ secret: string; previousValidUntil: Date }>> {
  const secret = newWebhookSecret();
  const previousValidUntil = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  const updated = await db
    .update(webhookEndpoint)
    .set({
      previousSecret: sql`${webhookEndpoint.secret}`,
      previousSecretUntil: previousValidUntil,
      secret: encryptToken(tokenKey, secret),
      updatedAt: now,
    })
    .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.projectId, projectId)))
    .returning({ id: webhookEndpoint.id });
  return updated.length ? ok({ secret, previousValidUntil }) : NOT_FOUND;
}

/** The secrets a message is signed with at `now`: the current one, and the previous one during its overlap. */
export function signingSecrets(
  { tokenKey, now }: { tokenKey: Buffer; now: Date },
  endpoint: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null },
): string[] {
  const secrets = [decryptToken(tokenKey, endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now)
    secrets.push(decryptToken(tokenKey, endpoint.previousSecret));
  return secrets.filter((s): s is string => s !== null);
}

/** A project's endpoints, newest first, with their last delivery. Never their secrets. */
export async function listEndpoints({ db, projectId }: { db: Db; projectId: string }) {
  const endpoints = await db.select(viewColumns).from(webhookEndpoint).where(eq(webhookEndpoint.projectId, projectId)).orderBy(desc(webhookEndpoint.createdAt));
  const last = endpoints.length
    ? await db
        .selectDistinctOn([webhookDelivery.endpointId], {
          endpointId: webhookDelivery.endpointId,
          eventType: webhookDelivery.eventType,
          state: webhookDelivery.state,
          lastStatus: webhookDelivery.lastStatus,
          createdAt: webhookDelivery.createdAt,
        })
        .from(webhookDelivery)
        .where(
          sql`${webhookDelivery.endpointId} in (${sql.join(
            endpoints.map((e) => sql`${e.id}`),
            sql`, `,
          )})`,
        )
        .orderBy(webhookDelivery.endpointId, desc(webhookDelivery.createdAt))
    : [];
  const lastOf = new Map(last.map((d) => [d.endpointId, d]));
  return endpoints.map((endpoint) => ({ ...endpoint, lastDelivery: lastOf.get(endpoint.id) ?? null }));
}

/** One endpoint of the project, or null. Never its secrets. */
export async function endpointInProject({ db, projectId, endpointId }: { db: Db; projectId: string; endpointId: string }): Promise<EndpointView | null> {
  const [endpoint] = await db
    .select(viewColumns)
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.projectId, projectId)));
  return endpoint ?? null;
}
