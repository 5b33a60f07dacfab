import { eq } from "drizzle-orm";
import { project } from "#db/schema/projects";
import { webhookEndpoint } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { devReceiverPath } from "~/modules/webhooks/dev-receiver.server";
import { createEndpoint } from "~/modules/webhooks/endpoints.server";
import type { WebhookEventType } from "~/modules/events/event-types";

/** The demo's first project (seed.server.ts), which gets the trial's webhook endpoint. */
const DEMO_PROJECT_SLUG = "lumen-swap";
const DEMO_EVENT_TYPES: WebhookEventType[] = ["completion.created", "completion.approved", "completion.rejected", "reward.paid", "raffle.drawn"];

/**
 * In the local trial, gives the demo's first project a webhook endpoint pointing at the trial's own
 * receiver (`/dev/webhooks`), for its completion and reward events: a newcomer sees signed
 * deliveries arrive there, and the endpoint's delivery log fill. Nothing in public mode, nothing
 * when the project is missing or has an endpoint already. Says whether it added one.
 */
export async function seedWebhooks({ db, appUrl, tokenKey, isPublic }: { db: Db; appUrl: string; tokenKey: Buffer; isPublic: boolean }) {
  if (isPublic) return { seeded: false as const };
  const [demo] = await db.select({ id: project.id, createdBy: project.createdBy }).from(project).where(eq(project.slug, DEMO_PROJECT_SLUG));
  if (!demo) return { seeded: false as const };
  const [existing] = await db.select({ id: webhookEndpoint.id }).from(webhookEndpoint).where(eq(webhookEndpoint.projectId, demo.id)).limit(1);
  if (existing) return { seeded: false as const };
  const base = appUrl.replace(/\/+$/, "");
  const created = await createEndpoint({
    db,
    tokenKey,
    allowLoopback: true,
    projectId: demo.id,
    userId: demo.createdBy,
    input: { url: `${base}/dev/webhooks`, description: "The local trial's receiver (/dev/webhooks)", eventTypes: DEMO_EVENT_TYPES },
  });
  if (!created.ok) return { seeded: false as const };
  // The receiver finds the secret by the endpoint's id, which is in its path: known once it exists.
  await db
    .update(webhookEndpoint)
    .set({ url: `${base}${devReceiverPath(created.endpoint.id)}` })
    .where(eq(webhookEndpoint.id, created.endpoint.id));
  return { seeded: true as const, endpointId: created.endpoint.id };
}
