import { eq } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { referral } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";

/** The cookie that remembers whose invite link brought a visitor, until they sign up. */
export const REFERRAL_COOKIE = "ref";
const REFERRAL_MAX_AGE = 30 * 24 * 60 * 60;
const ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export function referralCookie(referrerId: string) {
  return `${REFERRAL_COOKIE}=${referrerId}; Max-Age=${REFERRAL_MAX_AGE}; Path=/; SameSite=Lax; HttpOnly`;
}

export function referrerFromCookie(cookieHeader: string | null) {
  const value = cookieHeader?.match(/(?:^|;\s*)ref=([^;]*)/)?.[1];
  return value && ID_PATTERN.test(value) ? value : null;
}

/** The `?ref=` of a visited URL, when it looks like a member id. */
export function referrerFromUrl(url: URL) {
  const value = url.searchParams.get(REFERRAL_COOKIE);
  return value && ID_PATTERN.test(value) ? value : null;
}

/** Counts `referredId` as brought by `referrerId` (once; never oneself; only an existing member). */
export async function recordReferral({ db, referrerId, referredId }: { db: Db; referrerId: string; referredId: string }) {
  if (referrerId === referredId) return false;
  const [referrer] = await db.select({ id: user.id }).from(user).where(eq(user.id, referrerId));
  if (!referrer) return false;
  const inserted = await db.insert(referral).values({ referrerId, referredId }).onConflictDoNothing().returning({ id: referral.referredId });
  return inserted.length > 0;
}
