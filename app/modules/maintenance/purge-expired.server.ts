import { lt, sql } from "drizzle-orm";
import { emailCodeCooldown, rateLimit, verification } from "#db/schema/auth";
import { devMail } from "#db/schema/mail";
import { appEvent } from "#db/schema/reach";
import { type Db, rowsOf } from "~/lib/db.server";
import { purgeIdempotency } from "~/modules/api/idempotency.server";
import { purgeWebhookLog } from "~/modules/webhooks/delivery-log.server";
import { purgeAccessContext } from "~/modules/trust/access-context.server";

const HOUR = 60 * 60 * 1000;

/** Outbox events are kept this long once both consumers have read them (a webhook's redelivery reads its own delivery, not the event). */
const EVENT_DAYS = 30;

/** Deletes the outbox's events older than EVENT_DAYS that both the notifications and the webhook job have read; returns how many. */
async function purgeEvents(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - EVENT_DAYS * 24 * HOUR).toISOString();
  const [row] = rowsOf(
    await db.execute(sql`
      with gone as (
        delete from ${appEvent}
        where created_at < ${before}::timestamptz and notified_at is not null and webhooked_at is not null
        returning 1
      )
      select count(*)::int as n from gone`),
  );
  return Number(row?.n ?? 0);
}

/**
 * Deletes what has no use any more: expired codes and links, stale rate-limit rows, old dev mail,
 * sign-in context past its 30 days, outbox events both consumers read over 30 days ago, the API's
 * stored answers to idempotent writes after 24 hours, webhook attempts and delivered deliveries
 * after 30 days.
 */
export async function purgeExpired({ db, now = new Date() }: { db: Db; now?: Date }) {
  const [codes, limits, cooldowns, mails, accessContext, events, apiAnswers, webhookLog] = await Promise.all([
    db.delete(verification).where(lt(verification.expiresAt, now)).returning({ id: verification.id }),
    db
      .delete(rateLimit)
      .where(lt(rateLimit.lastRequest, now.getTime() - HOUR))
      .returning({ id: rateLimit.id }),
    db
      .delete(emailCodeCooldown)
      .where(lt(emailCodeCooldown.sentAt, new Date(now.getTime() - HOUR)))
      .returning({ email: emailCodeCooldown.email }),
    db
      .delete(devMail)
      .where(lt(devMail.createdAt, new Date(now.getTime() - 7 * 24 * HOUR)))
      .returning({ id: devMail.id }),
    purgeAccessContext({ db, now }),
    purgeEvents(db, now),
    purgeIdempotency({ db, now }),
    purgeWebhookLog({ db, now }),
  ]);
  return { codes: codes.length, rateLimits: limits.length, cooldowns: cooldowns.length, mails: mails.length, accessContext, events, apiAnswers, webhookLog };
}
