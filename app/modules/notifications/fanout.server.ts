import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { WALLET_EMAIL_DOMAIN } from "~/modules/wallets/wallets.server";
import { fanoutOf, type Fanout } from "./event-notifications.server";
import { NOTIFICATION_KINDS } from "./notification-kinds";

export type FanoutRun = { events: number; notifications: number };

/**
 * The notifications job: turns the outbox's events into notifications, a batch per call, in one
 * transaction. It claims the oldest events no run has notified (`for update skip locked`: two runs
 * at once take different events), inserts each one's notifications (unique per member and event
 * key: a run that repeats an event after a crash adds nothing), and marks the events. A killed
 * worker's transaction rolls back whole; the next run takes the same events again.
 *
 * Each notification carries the member's choice at the time: `in_inbox` from their inbox
 * preference for its kind, `mail` `pending` (mail it), `digest` (in the day's digest) or `none`,
 * from their e-mail preference and digest switch. A member who turned both channels off for the
 * kind gets no row at all; a member signed in by wallet only (no real address) gets no mail.
 * `telegram` is `pending` when the member chose Telegram for the kind and their chat with the
 * platform's bot is open (started, not blocked): sendTelegramNotifications sends it.
 */
export async function notifyFromEvents({
  db,
  now = new Date(),
  limit = 100,
  chains,
}: {
  db: Db;
  now?: Date;
  limit?: number;
  /** Token decimals for amounts in words (USDC's 6); without it, 18. */
  chains?: Pick<ChainRegistry, "get">;
}): Promise<FanoutRun> {
  return db.transaction(async (tx) => {
    const events = rowsOf(
      await tx.execute(sql`select id, key, type, project_id, data from app_event
        where notified_at is null order by id limit ${limit} for update skip locked`),
    ) as { id: number | string; key: string; type: string; project_id: string | null; data: unknown }[];
    if (events.length === 0) return { events: 0, notifications: 0 };
    let notifications = 0;
    for (const event of events) {
      const fanout = await fanoutOf({ type: event.type, key: event.key, projectId: event.project_id, data: event.data }, { db: tx, chains });
      if (fanout) notifications += await insertNotifications(tx, { fanout, dedupe: event.key, projectId: event.project_id, now });
    }
    const ids = events.map((event) => Number(event.id));
    await tx.execute(sql`update app_event set notified_at = ${now.toISOString()}::timestamptz where id in (${sql.join(ids, sql`, `)})`);
    return { events: events.length, notifications };
  });
}

/** One event's notifications, one statement whatever the number of recipients (a raffle's 100,000 entrants). */
async function insertNotifications(tx: Db, { fanout, dedupe, projectId, now }: { fanout: Fanout; dedupe: string; projectId: string | null; now: Date }) {
  const { kind } = fanout;
  const { inbox, email } = NOTIFICATION_KINDS[kind].defaults;
  const result = await tx.execute(sql`
    with inserted as (insert into notification (user_id, kind, dedupe, project_id, title, body, link, in_inbox, mail, telegram, created_at)
    select r.user_id, ${kind}, ${dedupe}, ${projectId}::text, r.title, r.body, r.link,
      coalesce(pi.enabled, ${inbox}::boolean),
      case when not coalesce(pe.enabled, ${email}::boolean) or u.email like ${`%@${WALLET_EMAIL_DOMAIN}`} then 'none'
           when coalesce(s.digest, false) then 'digest'
           else 'pending' end,
      case when coalesce(pt.enabled, false) and tc.started_at is not null and tc.blocked_at is null then 'pending' else 'none' end,
      ${now.toISOString()}::timestamptz
    from (${fanout.recipients}) r
    join "user" u on u.id = r.user_id
    left join notification_preference pi on pi.user_id = r.user_id and pi.kind = ${kind} and pi.channel = 'inbox'
    left join notification_preference pe on pe.user_id = r.user_id and pe.kind = ${kind} and pe.channel = 'email'
    left join notification_setting s on s.user_id = r.user_id
    left join notification_preference pt on pt.user_id = r.user_id and pt.kind = ${kind} and pt.channel = 'telegram'
    left join telegram_chat tc on tc.user_id = r.user_id
    where coalesce(pi.enabled, ${inbox}::boolean) or coalesce(pe.enabled, ${email}::boolean)
      or (coalesce(pt.enabled, false) and tc.started_at is not null and tc.blocked_at is null)
    on conflict (user_id, dedupe) do nothing
    returning 1)
    select count(*)::int as n from inserted`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}

/** A job's run: batches of `notifyFromEvents` until the outbox has no event left to notify, or `maxBatches` ran. */
export async function notifyPendingEvents({
  maxBatches = 20,
  ...options
}: Parameters<typeof notifyFromEvents>[0] & { maxBatches?: number }): Promise<FanoutRun> {
  const limit = options.limit ?? 100;
  const total = { events: 0, notifications: 0 };
  for (let batch = 0; batch < maxBatches; batch++) {
    const run = await notifyFromEvents({ ...options, limit });
    total.events += run.events;
    total.notifications += run.notifications;
    if (run.events < limit) break;
  }
  return total;
}
