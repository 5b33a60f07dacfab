import { and, eq } from "drizzle-orm";
import { account } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, ok, type CodedFailure, type Ok } from "~/lib/result";
import type { Task } from "~/modules/tasks/completions.server";
import { taskConfigSchemas } from "~/modules/tasks/task.schema";
import { isApiChecked, isProofOnly, socialProviderOf, type ApiCheckedType, type SocialTaskAccess } from "~/modules/tasks/task-checks";
import { accessRefusals, markNeedsReconnect, recordTokenWorked, scopesOf, socialAccess } from "./access.server";
import type { CheckOutcome, Evidence, ProviderCall } from "./checks/outcome";
import { checkDiscordMembership } from "./checks/discord.server";
import { checkInstagramPost } from "./checks/instagram.server";
import { checkTiktokPost } from "./checks/tiktok.server";
import { checkXFollow, checkXLike, checkXPost, checkXRepost } from "./checks/x.server";
import { checkYoutubeSubscription } from "./checks/youtube.server";
import { PROVIDER_LABELS, PROVIDER_SCOPES, type SocialProvider } from "./providers";
import { isConnectable, type SocialConfig } from "./social-config.server";
import { checkTelegramJoin, notInChat } from "~/modules/community/telegram-join.server";

/**
 * Social tasks checked through the provider's API: which provider and scopes each type needs, the
 * member's access (socialAccess), the provider's check, and its outcome as an attempt's result.
 * Only a found or not-found answer is about the member; every other outcome (a token refused, a
 * scope missing, a rate limit, the provider down or answering nonsense) says what to do next and
 * changes nothing.
 */

/** Social checks one member may ask for in 5 minutes, across tasks. */
export const SOCIAL_CHECKS_PER_5_MINUTES = 30;

/** The scopes each check needs of the member's connection. */
const X_READ = ["tweet.read", "users.read"];
export const TASK_SCOPES: Record<ApiCheckedType, readonly string[]> = {
  x_follow: [...X_READ, "follows.read"],
  x_like: [...X_READ, "like.read"],
  x_repost: X_READ,
  x_post: X_READ,
  youtube_subscribe: PROVIDER_SCOPES.youtube,
  tiktok_post: ["video.list"],
  instagram_post: ["instagram_business_basic"],
  discord_join: ["guilds.members.read"],
  discord_role: ["guilds.members.read"],
  // Read by the project's bot: the member's Telegram connection only says who they are.
  telegram_join: [],
};

/**
 * An API check's result: found (with the evidence kept on the completion), `not_met` when what
 * the task asks for was not found (and only then), or a coded failure that is the
 * provider's or the connection's, never the member's: `conflict` (connect or reconnect first),
 * `limited` (rate limit, with `retryAfterSeconds`), `unavailable` (not set up, down, unreadable).
 */
export type SocialCheckResult = Ok<{ verifiedBy: "api"; evidence: Evidence; submission: Record<string, unknown> }> | CodedFailure;

const couldNotCheck = (provider: SocialProvider) =>
  failure("unavailable", `Could not check with ${PROVIDER_LABELS[provider]} right now. Nothing changed: try again in a minute.`);

/** Checks the member's social task through the provider's API with their connected account. */
export async function checkSocialTask({
  db,
  social,
  task: t,
  userId,
  now = new Date(),
  log,
  fetchFn,
}: {
  db: Db;
  social: SocialConfig;
  task: Task;
  userId: string;
  now?: Date;
  log?: Pick<Logger, "warn">;
  /** Injected by tests of timeouts; the global fetch otherwise. */
  fetchFn?: typeof fetch;
}): Promise<SocialCheckResult> {
  const type = t.type;
  if (!isApiChecked(type)) throw new Error(`${type} tasks are not checked through an API`);
  const provider = socialProviderOf(type)!;
  // Each check spends the member's (or the platform's) quota at the provider: a flood is held back here.
  const limit = await takeRateLimit({ db, key: `social-check:${userId}`, max: SOCIAL_CHECKS_PER_5_MINUTES, windowSeconds: 300, now: now.getTime() });
  if (!limit.ok) return failure("limited", `Too many checks in a row. Try again in ${waitText(limit.retryAfterSeconds)}.`, limit.retryAfterSeconds);
  if (type === "telegram_join") {
    // Read by the project's bot: the member's Telegram connection only says who they are.
    const { chatId, chatTitle } = taskConfigSchemas.telegram_join.parse(t.config);
    const joined = await checkTelegramJoin({
      db,
      social,
      projectId: t.projectId,
      userId,
      chatId,
      chatTitle,
      now,
      ...(fetchFn ? { fetchFn } : {}),
      ...(log ? { log } : {}),
    });
    if (!joined.ok) return joined;
    return ok({
      verifiedBy: "api" as const,
      evidence: { ...joined.evidence, label: chatTitle },
      submission: { account: joined.handle, checkedAt: now.toISOString() },
    });
  }
  const access = await socialAccess({ db, social, userId, provider, needs: TASK_SCOPES[type], now, ...(fetchFn ? { fetchFn } : {}) });
  if (!access.ok) return failure(access.reason === "not_set_up" || access.reason === "unavailable" ? "unavailable" : "conflict", access.message);
  if (access.method === "code" && type === "x_like") {
    return failure(
      "conflict",
      "X shows a member's liked posts only to their own connection: connect X with its sign-in in Settings › Connections › X (a posted code is not enough for this task).",
    );
  }

  const outcome = await runCheck(type, t.config, access.call, access.accountId);
  const label = PROVIDER_LABELS[provider];
  switch (outcome.kind) {
    case "found":
      if (access.method === "oauth") await recordTokenWorked({ db, provider, accountId: access.accountId, now });
      return ok({
        verifiedBy: "api" as const,
        evidence: { ...outcome.evidence, ...foundLabel(t) },
        submission: { account: access.handle, checkedAt: now.toISOString() },
      });
    case "not_found":
      if (access.method === "oauth") await recordTokenWorked({ db, provider, accountId: access.accountId, now });
      return failure("not_met", notFoundMessage(t));
    case "needs_reconnect":
      if (access.method === "code") {
        // The app's own token was refused: our configuration, not the member's account.
        log?.warn({ provider, taskId: t.id }, "the app's X token was refused");
        return couldNotCheck(provider);
      }
      await markNeedsReconnect({ db, provider, accountId: access.accountId, reason: `${label} refused the connection during a check.`, now });
      return failure("conflict", accessRefusals.needsReconnect(provider).message);
    case "missing_scope":
      return failure("conflict", accessRefusals.missingScope(provider, outcome.scope).message);
    case "rate_limited": {
      const seconds = Math.max(1, Math.ceil((outcome.retryAt.getTime() - now.getTime()) / 1000));
      return failure("limited", `${label} is busy: try again in ${waitText(seconds)}.`, seconds);
    }
    case "malformed":
      log?.warn({ provider, taskId: t.id, type, detail: outcome.detail }, "a provider's answer could not be read");
      return couldNotCheck(provider);
    case "unavailable":
      return couldNotCheck(provider);
  }
}

/** A wait in words: seconds under two minutes, then minutes, then hours (YouTube's daily quota resets at midnight in California). */
const waitText = (seconds: number) =>
  seconds < 120 ? `${seconds} seconds` : seconds < 7200 ? `${Math.ceil(seconds / 60)} minutes` : `${Math.ceil(seconds / 3600)} hours`;

/** The provider's check for the task's type, with its stored settings. */
function runCheck(type: ApiCheckedType, config: unknown, call: ProviderCall, memberId: string): Promise<CheckOutcome> {
  switch (type) {
    case "x_follow":
      return checkXFollow(call, { memberId, targetHandle: taskConfigSchemas.x_follow.parse(config).handle });
    case "x_like":
      return checkXLike(call, { memberId, postId: taskConfigSchemas.x_like.parse(config).postId });
    case "x_repost":
      return checkXRepost(call, { memberId, postId: taskConfigSchemas.x_repost.parse(config).postId });
    case "x_post":
      return checkXPost(call, { memberId, phrase: taskConfigSchemas.x_post.parse(config).phrase });
    case "youtube_subscribe":
      return checkYoutubeSubscription(call, { channelId: taskConfigSchemas.youtube_subscribe.parse(config).channelId });
    case "tiktok_post":
      return checkTiktokPost(call, { phrase: taskConfigSchemas.tiktok_post.parse(config).phrase });
    case "instagram_post":
      return checkInstagramPost(call, { phrase: taskConfigSchemas.instagram_post.parse(config).phrase });
    case "discord_join":
      return checkDiscordMembership(call, { guildId: taskConfigSchemas.discord_join.parse(config).guildId });
    case "discord_role": {
      const { guildId, roleId } = taskConfigSchemas.discord_role.parse(config);
      return checkDiscordMembership(call, { guildId, roleId });
    }
    case "telegram_join":
      throw new Error("telegram_join is checked by the project's bot (checkTelegramJoin)");
  }
}

/** What a Discord check found, in words (its evidence's ids name nothing a member reads). */
function foundLabel(t: Pick<Task, "type" | "config">): { label?: string } {
  if (t.type === "discord_join") return { label: taskConfigSchemas.discord_join.parse(t.config).guildName };
  if (t.type === "discord_role") {
    const { roleName, guildName } = taskConfigSchemas.discord_role.parse(t.config);
    return { label: `the ${roleName} role in ${guildName}` };
  }
  return {};
}

/** What was not found, and what to do about it. */
export function notFoundMessage(t: Pick<Task, "type" | "config">): string {
  switch (t.type) {
    case "x_follow": {
      const { allowProof } = taskConfigSchemas.x_follow.parse(t.config);
      const base = "Not found yet — X can take a minute to show a new follow. Try again in a minute.";
      return allowProof ? `${base} If it still does not show, send proof below for the team to review.` : base;
    }
    case "x_like":
      return "Your like of this post was not found among your recent likes on X. Like the post, then try again.";
    case "x_repost":
      return "Your repost was not found among the post's recent reposts on X. Repost it (a quote does not count), then try again in a minute.";
    case "x_post":
      return `None of your recent posts on X contains “${taskConfigSchemas.x_post.parse(t.config).phrase}”. Replies and reposts do not count.`;
    case "youtube_subscribe":
      return "Your YouTube account is not subscribed to this channel. Subscribe, then try again.";
    case "tiktok_post":
      return `None of your recent TikTok videos has “${taskConfigSchemas.tiktok_post.parse(t.config).phrase}” in its description.`;
    case "instagram_post":
      return `None of your recent Instagram posts has “${taskConfigSchemas.instagram_post.parse(t.config).phrase}” in its caption. Only professional (business or creator) accounts can be checked.`;
    case "telegram_join":
      return notInChat(taskConfigSchemas.telegram_join.parse(t.config).chatTitle);
    case "discord_join":
      return `You are not in ${taskConfigSchemas.discord_join.parse(t.config).guildName} on Discord yet. Join with the invite, then check again.`;
    case "discord_role": {
      const { roleName, guildName } = taskConfigSchemas.discord_role.parse(t.config);
      return `You do not have the ${roleName} role in ${guildName} yet.`;
    }
    default:
      return "Not found.";
  }
}

/**
 * What the member's connection allows for a social task, read from the database only (no call to
 * the provider: the check itself refreshes tokens): the task page shows a connect or reconnect
 * card before the action, or "not set up on this server" instead of it.
 */
export async function socialTaskAccess({
  db,
  social,
  task: t,
  userId,
}: {
  db: Db;
  /** The configured providers; none when left out. */
  social?: Pick<SocialConfig, "providers" | "connectable" | "xBearerToken">;
  task: Pick<Task, "type">;
  userId: string | null;
}): Promise<SocialTaskAccess | null> {
  const provider = socialProviderOf(t.type);
  if (!provider) return null;
  if (isProofOnly(t.type)) return { state: "no_connection_needed", provider };
  if (!social || !isConnectable(social, provider)) return { state: "not_set_up", provider };
  if (!userId) return { state: "not_connected", provider };
  const [row] = await db
    .select({
      scope: account.scope,
      handle: socialAccount.handle,
      method: socialAccount.method,
      status: socialAccount.status,
      reason: socialAccount.statusReason,
    })
    .from(account)
    .leftJoin(socialAccount, and(eq(socialAccount.provider, account.providerId), eq(socialAccount.accountId, account.accountId)))
    .where(and(eq(account.userId, userId), eq(account.providerId, provider)));
  if (!row) return { state: "not_connected", provider };
  const handle = row.handle ?? "";
  if (row.method === "code") {
    // Proven by a posted code: X's app token reads public follows, posts and reposts, never likes.
    return provider === "x" && social.xBearerToken && t.type !== "x_like" ? { state: "connected", provider, handle } : { state: "not_connected", provider };
  }
  if (row.status === "needs_reconnect") return { state: "needs_reconnect", provider, handle, reason: row.reason };
  const scopes = scopesOf(row.scope);
  const missing = isApiChecked(t.type) ? TASK_SCOPES[t.type].find((scope) => !scopes.includes(scope)) : undefined;
  if (missing) {
    return {
      state: "needs_reconnect",
      provider,
      handle,
      reason: `Your connection does not allow this check (${missing}): reconnect and allow every permission asked.`,
    };
  }
  return { state: "connected", provider, handle };
}
