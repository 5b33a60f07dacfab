import { createHmac, timingSafeEqual } from "node:crypto";
import { isNotificationKind, type NotificationKind } from "./notification-kinds";

/**
 * One-click unsubscribe without signing in (RFC 8058): a mail's link carries a token that names
 * the member and the kind (or `all`) and is signed with the server's secret (HMAC-SHA256 of the
 * auth secret), so it can only turn e-mail off, only for that member, and cannot be forged.
 * It does not expire: an old mail's link still works, as mail clients expect.
 */

export type UnsubscribeScope = NotificationKind | "all";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const mac = (secret: string, userId: string, scope: string) => createHmac("sha256", secret).update(`unsubscribe\n${userId}\n${scope}`).digest("base64url");

/** `<member, base64url>.<kind or all>.<signature>` */
export function unsubscribeToken({ secret, userId, scope }: { secret: string; userId: string; scope: UnsubscribeScope }) {
  return `${b64(userId)}.${scope}.${mac(secret, userId, scope)}`;
}

export const unsubscribeUrl = (appUrl: string, token: string) => `${appUrl}/unsubscribe/${token}`;

/** The member and kind a token names, or null when it is not one we signed. */
export function readUnsubscribeToken({ secret, token }: { secret: string; token: string }): { userId: string; scope: UnsubscribeScope } | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [who, scope, signature] = parts as [string, string, string];
  if (scope !== "all" && !isNotificationKind(scope)) return null;
  const userId = Buffer.from(who, "base64url").toString("utf8");
  if (!userId || b64(userId) !== who) return null;
  const expected = Buffer.from(mac(secret, userId, scope));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, scope };
}
