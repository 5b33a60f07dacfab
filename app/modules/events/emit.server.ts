import { sql } from "drizzle-orm";
import { appEvent } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";
import { EVENT_DATA, isNotifyingEvent, isWebhookEvent, type EventType, type NewEvent } from "./event-types";

/**
 * Records that something happened, once per `key` (the same key again records nothing), in the
 * caller's transaction: the event exists exactly when the change does. Its data is checked against
 * the type's schema (a wrong shape is our bug, thrown). A consumer with nothing to do for the type
 * (no webhook for a member's deposit, no notification for a new completion) finds it marked at once.
 * Returns whether it was new.
 */
export async function emitEvent<T extends EventType>(db: Db, event: NewEvent<T>): Promise<boolean> {
  return (await emitEvents(db, [event])) > 0;
}

/** Several events in one statement (a payout's grants); returns how many were new. */
export async function emitEvents(db: Db, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = events.map((event) => ({
    key: event.key,
    type: event.type,
    projectId: event.projectId,
    data: EVENT_DATA[event.type].parse(event.data),
    notifiedAt: isNotifyingEvent(event.type) ? null : sql`now()`,
    webhookedAt: event.projectId && isWebhookEvent(event.type) ? null : sql`now()`,
  }));
  const inserted = await db.insert(appEvent).values(rows).onConflictDoNothing({ target: appEvent.key }).returning({ id: appEvent.id });
  return inserted.length;
}
