import { lt } from "drizzle-orm";
import { emailCodeCooldown, rateLimit, verification } from "#db/schema/auth";
import { devMail } from "#db/schema/mail";
import type { Db } from "~/lib/db.server";
import { purgeAccessContext } from "~/modules/trust/access-context.server";

const HOUR = 60 * 60 * 1000;

/** Deletes what has no use any more: expired codes and links, stale rate-limit rows, old dev mail, sign-in context past its 30 days. */
export async function purgeExpired({ db, now = new Date() }: { db: Db; now?: Date }) {
  const [codes, limits, cooldowns, mails, accessContext] = await Promise.all([
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
  ]);
  return { codes: codes.length, rateLimits: limits.length, cooldowns: cooldowns.length, mails: mails.length, accessContext };
}
