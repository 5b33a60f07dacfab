import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";

/** An endpoint's delivery log, newest first, and its purge. */

export const LOG_PAGE_SIZE = 25;
/** Attempts, and deliveries that arrived, are kept this long. */
export const LOG_KEEP_DAYS = 30;

export type LoggedDelivery = {
  id: string;
  eventType: string;
  state: "pending" | "delivered" | "failed";
  createdAt: Date;
  nextAttemptAt: Date;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  responseExcerpt: string | null;
};

const encodeCursor = (d: { createdAt: Date; id: string }) => Buffer.from(`${d.createdAt.toISOString()}|${d.id}`).toString("base64url");
function decodeCursor(cursor: string | null | undefined): { createdAt: string; id: string } | null {
  if (!cursor) return null;
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!createdAt || !id || Number.isNaN(Date.parse(createdAt))) return null;
  return { createdAt, id };
}

/** One page of the endpoint's deliveries, each with its logged attempts and the last one's answer; `next` is the cursor of the page after. */
export async function listDeliveries({
  db,
  endpointId,
  cursor,
  limit = LOG_PAGE_SIZE,
}: {
  db: Db;
  endpointId: string;
  cursor?: string | null;
  limit?: number;
}) {
  const after = decodeCursor(cursor);
  const rows = rowsOf(
    await db.execute(sql`
      select d.id, d.event_type, d.state, d.created_at, d.next_attempt_at, d.last_status, d.last_error,
        (select count(*) from webhook_attempt a where a.delivery_id = d.id) as attempts,
        last.duration_ms, last.response_excerpt
      from webhook_delivery d
      left join lateral (
        select a.duration_ms, a.response_excerpt from webhook_attempt a where a.delivery_id = d.id order by a.id desc limit 1
      ) last on true
      where d.endpoint_id = ${endpointId}
        ${after ? sql`and (d.created_at, d.id) < (${after.createdAt}::timestamptz, ${after.id})` : sql``}
      order by d.created_at desc, d.id desc
      limit ${limit + 1}`),
  );
  const deliveries: LoggedDelivery[] = rows.slice(0, limit).map((row) => ({
    id: String(row.id),
    eventType: String(row.event_type),
    state: row.state as LoggedDelivery["state"],
    createdAt: new Date(row.created_at as string | Date),
    nextAttemptAt: new Date(row.next_attempt_at as string | Date),
    attempts: Number(row.attempts),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error as string | null,
    lastDurationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    responseExcerpt: row.response_excerpt as string | null,
  }));
  const next = rows.length > limit ? encodeCursor(deliveries[deliveries.length - 1]!) : null;
  return { deliveries, next };
}

/**
 * Deletes attempts older than `LOG_KEEP_DAYS`, and deliveries that arrived that long ago (with
 * their attempts). Failed and pending deliveries stay, so they can be sent again. For the purge job.
 */
export async function purgeWebhookLog({ db, now = new Date() }: { db: Db; now?: Date }) {
  const before = new Date(now.getTime() - LOG_KEEP_DAYS * 86_400_000).toISOString();
  return db.transaction(async (tx) => {
    const deliveries = rowsOf(
      await tx.execute(sql`delete from webhook_delivery where state = 'delivered' and delivered_at < ${before}::timestamptz returning id`),
    ).length;
    const attempts = rowsOf(await tx.execute(sql`delete from webhook_attempt where attempted_at < ${before}::timestamptz returning id`)).length;
    return { deliveries, attempts };
  });
}
