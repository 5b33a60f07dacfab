import { eq, sql } from "drizzle-orm";
import { emailCodeCooldown } from "#db/schema/auth";
import type { Db } from "~/lib/db.server";

/** The sending rule: an address gets at most one sign-in e-mail every 30 seconds. */
export const EMAIL_COOLDOWN_SECONDS = 30;

export type CooldownClaim = { ok: true } | { ok: false; retryAfterSeconds: number };

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

/**
 * Claims the right to send to `email` now. Atomic: of two racing claims for one address, one
 * wins and the other is told how long to wait.
 */
export async function claimEmailCooldown({ db, email, now = new Date() }: { db: Db; email: string; now?: Date }): Promise<CooldownClaim> {
  const address = normalizeEmail(email);
  const threshold = new Date(now.getTime() - EMAIL_COOLDOWN_SECONDS * 1000);
  const claimed = await db
    .insert(emailCodeCooldown)
    .values({ email: address, sentAt: now })
    .onConflictDoUpdate({
      target: emailCodeCooldown.email,
      set: { sentAt: now },
      setWhere: sql`${emailCodeCooldown.sentAt} <= ${threshold.toISOString()}`,
    })
    .returning({ email: emailCodeCooldown.email });
  if (claimed.length > 0) return { ok: true };

  const [row] = await db.select().from(emailCodeCooldown).where(eq(emailCodeCooldown.email, address));
  const elapsed = row ? now.getTime() - row.sentAt.getTime() : 0;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(EMAIL_COOLDOWN_SECONDS - elapsed / 1000)) };
}

/** Gives the claim back when the e-mail could not be sent, so the member can try again at once. */
export async function releaseEmailCooldown({ db, email }: { db: Db; email: string }) {
  await db.delete(emailCodeCooldown).where(eq(emailCodeCooldown.email, normalizeEmail(email)));
}
