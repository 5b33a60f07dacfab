import { and, eq } from "drizzle-orm";
import { account } from "#db/schema/auth";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { failure, ok, type CodedFailure, type Ok } from "~/lib/result";
import { getChatMember, isInChat } from "~/modules/social/checks/telegram.server";
import type { Evidence } from "~/modules/social/checks/outcome";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { projectTelegramBot } from "./telegram-bot.server";

/**
 * `telegram_join`: read by the project's own bot with getChatMember(chat, the member's Telegram
 * id). The member's Telegram connection only says who they are. A bot missing, refused or not in
 * the chat is the project's to fix, never held against the member.
 */
export type TelegramJoinResult = Ok<{ evidence: Evidence; handle: string }> | CodedFailure;

const projectMustFix = (what: string) =>
  failure("unavailable", `${what} The project's team must set up its Telegram bot before this task can be checked. Nothing changed.`);

export async function checkTelegramJoin({
  db,
  social,
  projectId,
  userId,
  chatId,
  chatTitle,
  now = new Date(),
  fetchFn,
  log,
}: {
  db: Db;
  social: Pick<SocialConfig, "tokenKey" | "telegramApiUrl" | "telegram">;
  projectId: string;
  userId: string;
  chatId: string;
  chatTitle: string;
  now?: Date;
  fetchFn?: typeof fetch;
  log?: Pick<Logger, "warn">;
}): Promise<TelegramJoinResult> {
  const [linked] = await db
    .select({ accountId: account.accountId })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "telegram")));
  if (!linked) {
    if (!social.telegram) return failure("unavailable", "Telegram is not set up on this server.");
    return failure("conflict", "Connect your Telegram account first (Settings › Connections › Telegram).");
  }
  const bot = await projectTelegramBot({ db, social, projectId, ...(fetchFn ? { fetchFn } : {}), now });
  if (!bot) return projectMustFix("This project has no Telegram bot.");
  const answer = await getChatMember(bot.call, chatId, linked.accountId);
  const botName = `@${bot.row.botUsername}`;
  switch (answer.kind) {
    case "ok":
      if (isInChat(answer.data))
        return ok({
          evidence: { id: `${chatId}:${linked.accountId}`, at: now.toISOString() },
          handle: answer.data.user.username ?? answer.data.user.first_name,
        });
      return failure("not_met", notInChat(chatTitle));
    case "user_not_found":
      return failure("not_met", notInChat(chatTitle));
    case "chat_not_found":
    case "member_list_inaccessible":
      return projectMustFix(`The project's bot ${botName} cannot see who is in ${chatTitle}: it must be an administrator there.`);
    case "needs_reconnect":
    case "forbidden":
      return projectMustFix(`Telegram refused the project's bot ${botName}.`);
    case "rate_limited": {
      const seconds = Math.max(1, Math.ceil((answer.retryAt.getTime() - now.getTime()) / 1000));
      return failure("limited", `Telegram is busy: try again in ${seconds} seconds.`, seconds);
    }
    case "malformed":
      log?.warn({ provider: "telegram", projectId, detail: answer.detail }, "Telegram answered a membership check unexpectedly");
      return failure("unavailable", "Could not check with Telegram right now. Nothing changed: try again in a minute.");
    default:
      return failure("unavailable", "Could not check with Telegram right now. Nothing changed: try again in a minute.");
  }
}

export const notInChat = (chatTitle: string) =>
  `You are not in ${chatTitle} on Telegram yet. Join it with the Telegram account you connected, then check again.`;
