import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/modules/mail/mailer.server";
import type { NotificationKind } from "./notification-kinds";
import { digestMail, notificationMail } from "./templates.server";
import { unsubscribeToken, unsubscribeUrl } from "./unsubscribe.server";

/**
 * Mailing notifications, at most once each.
 *
 * A run claims rows in a transaction (`for update skip locked`: two runs never take the same row)
 * and stamps them in flight (`mailed_at`, one more attempt) before it commits; it sends after the
 * commit and marks each row `sent` once its send returned. A send the mail server refused is put
 * back for the next run (after 5 attempts: `failed`). A row whose run died between the commit and
 * the answer is never sent again: after IN_FLIGHT_MINUTES it is marked `failed`.
 *
 * We chose at most once over at least once: the mail server may have taken a mail whose answer we
 * never heard, and a second "You won" or "Withdrawal failed" mail reads as a second event; the
 * inbox keeps every notification whatever became of its mail, so a lost mail loses nothing.
 */

export const MAX_MAIL_ATTEMPTS = 5;
/** How long a claimed mail may wait for its send's answer before it is given up (its run died). */
const IN_FLIGHT_MINUTES = 15;

type MailOptions = {
  db: Db;
  mailer: Mailer;
  /** The product's name (APP_NAME). */
  appName: string;
  /** Where links lead (APP_URL, no trailing slash). */
  appUrl: string;
  /** Signs the unsubscribe links (AUTH_SECRET). */
  secret: string;
  now?: Date;
  logger?: Logger;
};

type Claimed = { id: number; user_id: string; email: string; kind: NotificationKind; title: string; body: string; link: string | null; mail_attempts: number };

/**
 * Sends the notifications waiting to be mailed, one mail each, a batch per call. A member's flood
 * limit: at most `maxPerHour` mails in any hour; past it a notification waits for the digest.
 */
export async function sendNotificationMails({ maxPerHour, limit = 100, ...options }: MailOptions & { maxPerHour: number; limit?: number }) {
  const { db, mailer, appName, appUrl, secret, now = new Date(), logger } = options;
  const at = now.toISOString();
  const claim = await db.transaction(async (tx) => {
    // Runs that died mid-send: their mails are not sent a second time.
    await tx.execute(sql`update notification set mail = 'failed'
      where mail = 'pending' and mailed_at is not null and mailed_at < ${at}::timestamptz - make_interval(mins => ${IN_FLIGHT_MINUTES})`);
    const claimed = rowsOf(
      await tx.execute(sql`select n.id, n.user_id, u.email, n.kind, n.title, n.body, n.link, n.mail_attempts
        from notification n join "user" u on u.id = n.user_id
        where n.mail = 'pending' and n.mailed_at is null
        order by n.id limit ${limit} for update of n skip locked`),
    ).map((row) => ({ ...row, id: Number(row.id), mail_attempts: Number(row.mail_attempts) })) as Claimed[];
    if (claimed.length === 0) return { send: [] as Claimed[], overflow: 0 };
    const members = [...new Set(claimed.map((row) => row.user_id))];
    // Mails of the last hour, sent or in flight (a digest does not count: it is the flood's outlet).
    const recent = rowsOf(
      await tx.execute(sql`select user_id, count(*)::int as n from notification
        where user_id in (${sql.join(members, sql`, `)}) and mail in ('sent', 'pending') and mailed_at > ${at}::timestamptz - interval '1 hour'
        group by user_id`),
    );
    const left = new Map(members.map((id) => [id, maxPerHour]));
    for (const row of recent) left.set(String(row.user_id), maxPerHour - Number(row.n));
    const send: Claimed[] = [];
    const overflow: number[] = [];
    for (const row of claimed) {
      const allowance = left.get(row.user_id)!;
      if (allowance > 0) {
        send.push(row);
        left.set(row.user_id, allowance - 1);
      } else overflow.push(row.id);
    }
    if (overflow.length) await tx.execute(sql`update notification set mail = 'digest' where id in (${sql.join(overflow, sql`, `)})`);
    if (send.length)
      await tx.execute(sql`update notification set mailed_at = ${at}::timestamptz, mail_attempts = mail_attempts + 1
        where id in (${sql.join(
          send.map((row) => row.id),
          sql`, `,
        )})`);
    return { send, overflow: overflow.length };
  });

  let sent = 0;
  let failed = 0;
  for (const row of claim.send) {
    const token = unsubscribeToken({ secret, userId: row.user_id, scope: row.kind });
    const mail = notificationMail({ appName, appUrl, to: row.email, notification: row, unsubscribeUrl: unsubscribeUrl(appUrl, token) });
    try {
      await mailer.send(mail);
    } catch (error) {
      failed++;
      logger?.warn({ err: error, notification: row.id, attempt: row.mail_attempts + 1 }, "a notification mail was not sent; it is tried again on the next run");
      await db.execute(sql`update notification
        set mailed_at = null, mail = case when mail_attempts >= ${MAX_MAIL_ATTEMPTS} then 'failed' else mail end
        where id = ${row.id} and mail = 'pending'`);
      continue;
    }
    sent++;
    await db.execute(sql`update notification set mail = 'sent', mailed_at = ${at}::timestamptz where id = ${row.id}`);
  }
  return { sent, failed, toDigest: claim.overflow };
}

/** The start of `now`'s day (UTC): a member gets at most one digest per day. */
const dayStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** How many notifications a digest lists; the rest are counted and wait in the inbox. */
const DIGEST_ITEMS = 50;

/**
 * The day's digests: one mail per member with notifications waiting for it (their digest switch is
 * on, or their flood limit sent them there), at most once per UTC day. Run it hourly: a member's
 * digest goes at the first run of their day. At most once, like single mails.
 */
export async function sendDigests({ limit = 100, ...options }: MailOptions & { limit?: number }) {
  const { db, mailer, appName, appUrl, secret, now = new Date(), logger } = options;
  const at = now.toISOString();
  const today = dayStart(now).toISOString();
  const members = rowsOf(
    await db.execute(sql`select distinct n.user_id from notification n
      left join notification_setting s on s.user_id = n.user_id
      where n.mail = 'digest' and (s.last_digest_at is null or s.last_digest_at < ${today}::timestamptz)
      limit ${limit}`),
  ).map((row) => String(row.user_id));

  let sent = 0;
  let failed = 0;
  for (const userId of members) {
    const claim = await db.transaction(async (tx) => {
      await tx.execute(sql`insert into notification_setting (user_id) values (${userId}) on conflict do nothing`);
      const [setting] = rowsOf(
        await tx.execute(sql`select s.last_digest_at, u.email from notification_setting s join "user" u on u.id = s.user_id
          where s.user_id = ${userId} for update of s skip locked`),
      );
      if (!setting) return null; // another run has this member
      const last = setting.last_digest_at ? new Date(setting.last_digest_at as string) : null;
      if (last && last >= new Date(today)) return null;
      const rows = rowsOf(
        await tx.execute(sql`update notification set mail = 'digested', mailed_at = ${at}::timestamptz, mail_attempts = mail_attempts + 1
          where user_id = ${userId} and mail = 'digest'
          returning id, kind, title, body, link, mail_attempts`),
      ) as { id: number; kind: NotificationKind; title: string; body: string; link: string | null; mail_attempts: number }[];
      if (rows.length === 0) return null;
      await tx.execute(sql`update notification_setting set last_digest_at = ${at}::timestamptz where user_id = ${userId}`);
      return { email: String(setting.email), last, rows: rows.sort((a, b) => Number(b.id) - Number(a.id)) };
    });
    if (!claim) continue;
    const shown = claim.rows.slice(0, DIGEST_ITEMS);
    const more = claim.rows.length - shown.length;
    const notifications =
      more > 0 ? [...shown, { kind: shown[0]!.kind, title: `And ${more} more`, body: "They are all in your inbox.", link: "/notifications" }] : shown;
    const token = unsubscribeToken({ secret, userId, scope: "all" });
    try {
      await mailer.send(digestMail({ appName, appUrl, to: claim.email, notifications, unsubscribeUrl: unsubscribeUrl(appUrl, token) }));
      sent++;
    } catch (error) {
      failed++;
      logger?.warn({ err: error, user: userId }, "a digest was not sent; it is tried again on the next run");
      const ids = claim.rows.map((row) => Number(row.id));
      await db.transaction(async (tx) => {
        await tx.execute(sql`update notification
          set mailed_at = null, mail = case when mail_attempts >= ${MAX_MAIL_ATTEMPTS} then 'failed' else 'digest' end
          where id in (${sql.join(ids, sql`, `)}) and mail = 'digested'`);
        await tx.execute(sql`update notification_setting set last_digest_at = ${claim.last?.toISOString() ?? null}::timestamptz where user_id = ${userId}`);
      });
    }
  }
  return { sent, failed };
}
