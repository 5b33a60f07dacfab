import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { account } from "#db/schema/auth";
import { telegramChat } from "#db/schema/community";
import { socialAccount } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import { isUniqueViolation } from "~/lib/db-errors";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, ok, type Result } from "~/lib/result";
import { RELINK_WAIT_DAYS } from "./providers";
import { recordSocialLink, waitsToRelink } from "./social-oauth.server";
import type { SocialConfig, TelegramConfig } from "./social-config.server";

/**
 * Connecting Telegram: the Login Widget's signed data (https://core.telegram.org/widgets/login),
 * checked against the platform bot's token, then linked like X's posted code (verify-x.server.ts):
 * a better-auth `account` row without tokens and a `social_account` row with method `widget`.
 */

/** Signed data is taken for a day after Telegram signed it. */
export const TELEGRAM_AUTH_MAX_AGE_SECONDS = 86_400;
/** A clock a little ahead of ours is no forgery. */
const FUTURE_SKEW_SECONDS = 60;
/** Connection attempts per member per hour. */
export const TELEGRAM_CONNECTS_PER_HOUR = 10;

const name = z.string().min(1).max(256);
/** The widget's fields, as Telegram sends them (numbers may arrive as text from a form). */
export const telegramAuthData = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1),
  first_name: name,
  last_name: name.optional(),
  username: z
    .string()
    .regex(/^[A-Za-z0-9_]{4,32}$/)
    .optional(),
  photo_url: z.url({ protocol: /^https$/ }).optional(),
  auth_date: z.coerce.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type TelegramAuthData = z.output<typeof telegramAuthData>;

/** The `#tgAuthResult=` value: base64url of the JSON the login page signed. */
export function decodeAuthResult(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

/**
 * Checks the widget's data: every field it sent (strings as sent, unknown ones included), without
 * `hash`, as `key=value` lines sorted by key, HMAC-SHA256'd with SHA-256 of the bot token as the
 * key, compared in constant time; and `auth_date` within a day and not ahead of us.
 */
export function verifyTelegramLogin(raw: unknown, botToken: string, now: Date): Result<{ data: TelegramAuthData }> {
  const shape = z.record(z.string(), z.union([z.string(), z.number()])).safeParse(raw);
  const parsed = telegramAuthData.safeParse(shape.success ? shape.data : null);
  if (!shape.success || !parsed.success) return failure("conflict", "Telegram's answer was incomplete. Nothing changed: connect again.");
  const dataCheck = Object.entries(shape.data)
    .filter(([key]) => key !== "hash")
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  const expected = createHmac("sha256", createHash("sha256").update(botToken).digest()).update(dataCheck).digest();
  const given = Buffer.from(parsed.data.hash, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return failure("conflict", "Telegram's signature on this login does not match. Nothing changed: connect again.");
  const age = Math.floor(now.getTime() / 1000) - parsed.data.auth_date;
  if (age > TELEGRAM_AUTH_MAX_AGE_SECONDS) return failure("conflict", "This Telegram login is more than a day old. Nothing changed: connect again.");
  if (age < -FUTURE_SKEW_SECONDS) return failure("conflict", "This Telegram login is dated in the future. Check your device's clock, then connect again.");
  return ok({ data: parsed.data });
}

const ALREADY_HELD = failure("conflict", "This Telegram account is already connected to another member. One account belongs to one member.");

/** The Connect link: Telegram's login page for the platform's bot, coming back to `returnTo`. */
export function telegramLoginUrl({ social, telegram, origin, returnTo }: { social: SocialConfig; telegram: TelegramConfig; origin: string; returnTo: string }) {
  const url = new URL(`${social.telegramOAuthUrl}/auth`);
  url.searchParams.set("bot_id", telegram.botId);
  url.searchParams.set("origin", origin);
  url.searchParams.set("request_access", "write");
  url.searchParams.set("return_to", returnTo);
  return url.toString();
}

/** Where Connect sends the member: Telegram's login page for the platform's bot, back to /settings/connections/telegram/callback. */
export function telegramConnectUrl(social: SocialConfig, appUrl: string) {
  if (!social.telegram) throw new Error("Telegram is not set up");
  return telegramLoginUrl({ social, telegram: social.telegram, origin: new URL(appUrl).origin, returnTo: new URL(TELEGRAM_CALLBACK_PATH, appUrl).toString() });
}

export const TELEGRAM_CALLBACK_PATH = "/settings/connections/telegram/callback";

/**
 * Links the Telegram account the widget's data proves to the member: one Telegram account per
 * member, not one another member holds or let go less than 30 days ago. The member's chat with
 * the platform's bot is remembered for notifications (`telegram_chat`; started once a message goes through).
 */
export async function connectTelegram({
  db,
  social,
  userId,
  authData,
  now = new Date(),
}: {
  db: Db;
  social: SocialConfig;
  userId: string;
  /** The decoded `tgAuthResult`, as the browser sent it. */
  authData: unknown;
  now?: Date;
}): Promise<Result<{ handle: string }>> {
  const telegram = social.telegram;
  if (!telegram) return failure("unavailable", "Telegram is not set up on this server.");
  const limit = await takeRateLimit({ db, key: `telegram-connect:${userId}`, max: TELEGRAM_CONNECTS_PER_HOUR, windowSeconds: 3600, now: now.getTime() });
  if (!limit.ok) return failure("limited", `Too many tries. Try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`, limit.retryAfterSeconds);
  const verified = verifyTelegramLogin(authData, telegram.botToken, now);
  if (!verified.ok) return verified;
  const { data } = verified;
  const accountId = String(data.id);

  const [linked] = await db
    .select({ accountId: account.accountId })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "telegram")));
  // account_social_key does not cover telegram yet (migration 0028): asked here as well.
  const [held] = await db
    .select({ userId: account.userId })
    .from(account)
    .where(and(eq(account.providerId, "telegram"), eq(account.accountId, accountId), ne(account.userId, userId)));
  if (held) return ALREADY_HELD;
  if (linked && linked.accountId !== accountId)
    return failure("conflict", "You already have a Telegram account connected. Disconnect it first to connect another.");
  if (await waitsToRelink({ db, provider: "telegram", accountId, userId, now }))
    return failure(
      "conflict",
      `This Telegram account was disconnected from another member less than ${RELINK_WAIT_DAYS} days ago. It can be connected to a new member once ${RELINK_WAIT_DAYS} days have passed.`,
    );

  const handle = data.username ?? "";
  const displayName = [data.first_name, data.last_name].filter(Boolean).join(" ");
  try {
    await db.transaction(async (tx) => {
      if (!linked) await tx.insert(account).values({ id: randomUUID(), accountId, providerId: "telegram", userId, createdAt: now, updatedAt: now });
      await recordSocialLink({ db: tx, providerId: "telegram", accountId, userId, method: "widget", handle, now });
      await tx
        .update(socialAccount)
        .set({ displayName, avatarUrl: data.photo_url ?? null })
        .where(and(eq(socialAccount.provider, "telegram"), eq(socialAccount.accountId, accountId)));
      // A new account starts a new chat with the platform's bot: started and blocked are its own.
      const chat = tx.insert(telegramChat).values({ userId, telegramUserId: accountId, updatedAt: now });
      if (linked) await chat.onConflictDoNothing();
      else await chat.onConflictDoUpdate({ target: telegramChat.userId, set: { telegramUserId: accountId, startedAt: null, blockedAt: null, updatedAt: now } });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      return failure("conflict", "This Telegram account is already connected to another member. One account belongs to one member.");
    throw error;
  }
  return ok({ handle: handle || displayName });
}
