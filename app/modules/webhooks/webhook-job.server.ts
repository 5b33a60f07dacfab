import type { Db } from "~/lib/db.server";
import { deliverDue, fanOutWebhooks } from "./delivery.server";

const FAN_OUT_BATCH = 1_000;
const DELIVERY_BATCH = 500;
const LANES = 2;

/**
 * One run of the webhook job (every second, one key): turns new outbox rows into deliveries, then
 * sends what is due, batch after batch while batches come back full, for at most `budgetMs` (the
 * rest waits for the next run). Safe with several workers: every claim skips what another holds.
 */
export async function runWebhooks({
  db,
  tokenKey,
  allowLoopback,
  budgetMs = 30_000,
  concurrency = 50,
}: {
  db: Db;
  tokenKey: Buffer;
  allowLoopback: boolean;
  budgetMs?: number;
  concurrency?: number;
}) {
  const until = Date.now() + budgetMs;
  const totals = { events: 0, deliveries: 0, sent: 0, delivered: 0, retrying: 0, failed: 0, disabled: [] as string[] };
  for (;;) {
    const fanned = await fanOutWebhooks({ db, limit: FAN_OUT_BATCH });
    totals.events += fanned.events;
    totals.deliveries += fanned.deliveries;
    if (fanned.events < FAN_OUT_BATCH || Date.now() >= until) break;
  }
  // Two lanes: while one records its batch in the database, the other's requests are on the wire.
  const lane = async () => {
    for (;;) {
      const done = await deliverDue({ db, tokenKey, allowLoopback, limit: DELIVERY_BATCH, concurrency });
      totals.sent += done.sent;
      totals.delivered += done.delivered;
      totals.retrying += done.retrying;
      totals.failed += done.failed;
      totals.disabled.push(...done.disabled);
      if (done.sent < DELIVERY_BATCH || Date.now() >= until) break;
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return totals;
}
