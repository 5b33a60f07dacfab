import { sql } from "drizzle-orm";
import { appEvent } from "#db/schema/reach";
import { type Db, rowsOf } from "~/lib/db.server";
import { EVENT_DATA, isNotifyingEvent, isWebhookEvent, type EventType, type NewEvent } from "./event-types";

/*
 * The keys the features use, `<type>:<what makes it once>` (the type first, so no two types meet):
 *   completion.created|approved|rejected|voided:<completionId>[:<round>]  (completion-events.server.ts)
 *   member.joined:<projectId>:<userId>            xp.changed:<sourceType>[_void]:<sourceId>:<userId>
 *   reward.paid:<poolId>:<userId>                 raffle.drawn:<poolId>
 *   airdrop.frozen|claimable|closing:<airdropId>  airdrop.claimed:<chainId>:<txHash>:<logIndex>
 *   deposit.credited:<depositId>                  withdrawal.confirmed:<withdrawalId>
 *   withdrawal.failed:<withdrawalId>:<attempt>[:unsigned:<ms>]
 *   invitation.received:<inviteId>:<userId>       campaign.published:<campaignId>
 */

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

/**
 * Above this many events, `emitEvents` sends its rows as one JSON parameter (a payout's batch):
 * binding thousands of parameters costs more than the database spends writing the rows.
 */
const ROWS_AS_JSON = 50;

/** Several events in one statement (a payout's grants); returns how many were new. */
export async function emitEvents(db: Db, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  if (events.length > ROWS_AS_JSON) return emitMany(db, events);
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

/** `emitEvents`' insert for many events: the same rows, as one JSON array. */
async function emitMany(db: Db, events: NewEvent[]): Promise<number> {
  const rows = JSON.stringify(
    events.map((event) => ({
      key: event.key,
      type: event.type,
      project_id: event.projectId,
      data: EVENT_DATA[event.type].parse(event.data),
      notify: isNotifyingEvent(event.type),
      webhook: Boolean(event.projectId) && isWebhookEvent(event.type),
    })),
  );
  const inserted = await db.execute(sql`
    insert into ${appEvent} (key, type, project_id, data, notified_at, webhooked_at)
    select r.key, r.type, r.project_id, r.data,
           case when r.notify then null else now() end,
           case when r.webhook then null else now() end
    from jsonb_to_recordset(${rows}::jsonb) as r(key text, type text, project_id text, data jsonb, notify boolean, webhook boolean)
    on conflict (key) do nothing
    returning 1`);
  return rowsOf(inserted).length;
}
