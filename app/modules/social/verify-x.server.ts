import { randomBytes, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { account } from "#db/schema/auth";
import { xVerificationCode } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import { isUniqueViolation } from "~/lib/db-errors";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, invalid, ok, type Result } from "~/lib/result";
import type { Logger } from "~/lib/logger.server";
import { parseXPostUrl, readXPost } from "./checks/x.server";
import { RELINK_WAIT_DAYS } from "./providers";
import { recordSocialLink, waitsToRelink } from "./social-oauth.server";
import type { SocialConfig } from "./social-config.server";

/** Attempts at proving an X account by a post, per member per hour: each reads X with the platform's own token. */
export const VERIFY_X_PER_HOUR = 10;

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** The member's code, made on first visit and kept until it proves an account. */
export async function verificationCode({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }): Promise<string> {
  const bytes = randomBytes(8);
  const fresh = "QL-" + Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
  await db.insert(xVerificationCode).values({ userId, code: fresh, createdAt: now }).onConflictDoNothing();
  const [row] = await db.select({ code: xVerificationCode.code }).from(xVerificationCode).where(eq(xVerificationCode.userId, userId));
  return row!.code;
}

/** The post the member is asked to publish. */
export const verificationPost = (code: string, appName: string) => `Verifying my ${appName} account: ${code}`;

/** Whether this server can prove X accounts by a post: X is set up and has an app token to read public posts. */
export const canVerifyXByPost = (social: SocialConfig) => Boolean(social.providers.x && social.xBearerToken);

/**
 * Proves the member's X account from a post carrying their code: the post is read through X's API
 * with the platform's token, and its author becomes the member's X account (method `code`), under
 * the same rules as a connection: one account per member, not another member's (or recently so).
 */
export async function verifyXByPost({
  db,
  social,
  logger,
  userId,
  postUrl,
  now = new Date(),
  fetchFn = fetch,
}: {
  db: Db;
  social: SocialConfig;
  logger: Logger;
  userId: string;
  postUrl: string;
  now?: Date;
  fetchFn?: typeof fetch;
}): Promise<Result<{ handle: string }>> {
  const x = social.providers.x;
  if (!x || !social.xBearerToken) return failure("unavailable", "Verifying X accounts by a post is not set up on this server.");
  const postId = parseXPostUrl(postUrl);
  if (!postId) return invalid("postUrl", "Paste the link of your post, like https://x.com/yourname/status/1234567890");

  const [linked] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "x")));
  if (linked) return failure("conflict", "You already have an X account connected. Disconnect it first in Settings › Connections › X.");

  const limit = await takeRateLimit({ db, key: `verify-x:${userId}`, max: VERIFY_X_PER_HOUR, windowSeconds: 3600, now: now.getTime() });
  if (!limit.ok) return failure("limited", `Too many tries. Try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`, limit.retryAfterSeconds);

  const code = await verificationCode({ db, userId, now });
  const post = await readXPost({ provider: "x", apiUrl: x.apiUrl, accessToken: social.xBearerToken, fetch: fetchFn, now }, postId);
  switch (post.kind) {
    case "post":
      break;
    case "not_found":
      return invalid("postUrl", "That post was not found. Check the link, and that the post is public.");
    case "rate_limited": {
      const seconds = Math.max(1, Math.ceil((post.retryAt.getTime() - now.getTime()) / 1000));
      return failure("limited", `X is busy. Nothing changed: try again in ${seconds} seconds.`, seconds);
    }
    case "malformed":
      logger.warn({ component: "social", provider: "x", detail: post.detail }, "X answered a post lookup unexpectedly");
      return failure("unavailable", "Could not check with X right now. Nothing changed: try again in a minute.");
    default:
      if (post.kind !== "unavailable") logger.warn({ component: "social", provider: "x", kind: post.kind }, "X refused the platform's token");
      return failure("unavailable", "Could not check with X right now. Nothing changed: try again in a minute.");
  }
  if (!post.text.toUpperCase().includes(code))
    return invalid("postUrl", `That post does not contain your code ${code}. Post it exactly as shown, then paste the link.`);

  if (await waitsToRelink({ db, provider: "x", accountId: post.authorId, userId, now }))
    return failure(
      "conflict",
      `This X account was disconnected from another member less than ${RELINK_WAIT_DAYS} days ago. It can join a new member once ${RELINK_WAIT_DAYS} days have passed.`,
    );

  try {
    await db.transaction(async (tx) => {
      await tx.insert(account).values({ id: randomUUID(), accountId: post.authorId, providerId: "x", userId, createdAt: now, updatedAt: now });
      await recordSocialLink({ db: tx, providerId: "x", accountId: post.authorId, userId, method: "code", handle: post.authorHandle, now });
      await tx.delete(xVerificationCode).where(eq(xVerificationCode.userId, userId));
    });
  } catch (error) {
    if (isUniqueViolation(error)) return failure("conflict", "This X account is already connected to another member. One account belongs to one member.");
    throw error;
  }
  return ok({ handle: post.authorHandle });
}
