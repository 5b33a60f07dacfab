import { eq } from "drizzle-orm";
import { projectTelegram } from "#db/schema/community";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { failure, invalid, ok, type Result } from "~/lib/result";
import { decryptToken, encryptToken } from "~/lib/secret-box.server";
import { getChat, getChatMember, getMe, telegramBot, type TelegramAnswer } from "~/modules/social/checks/telegram.server";
import { TELEGRAM_BOT_TOKEN, type SocialConfig } from "~/modules/social/social-config.server";
import { parseTelegramChatInput, TELEGRAM_CHAT_ID } from "~/modules/tasks/social-targets";

/**
 * A project's Telegram bot (`project_telegram`): its token checked with getMe and kept encrypted,
 * never shown again; its group or channel, where it must be an administrator to read who is in
 * it. What is missing is kept in words (`problems`) for the page and the task form.
 */

/** The project's bot as a page may show it: never its token. */
export type ProjectTelegramView = {
  chatId: string;
  chatTitle: string;
  botUsername: string;
  problems: string[];
  checkedAt: Date | null;
};

type Deps = { db: Db; social: Pick<SocialConfig, "tokenKey" | "telegramApiUrl">; fetchFn?: typeof fetch; now?: Date; logger?: Pick<Logger, "warn"> };
type BotCall = ReturnType<typeof telegramBot>;

export async function projectTelegramOf({ db, projectId }: { db: Db; projectId: string }): Promise<ProjectTelegramView | null> {
  const [row] = await db
    .select({
      chatId: projectTelegram.chatId,
      chatTitle: projectTelegram.chatTitle,
      botUsername: projectTelegram.botUsername,
      problems: projectTelegram.problems,
      checkedAt: projectTelegram.checkedAt,
    })
    .from(projectTelegram)
    .where(eq(projectTelegram.projectId, projectId));
  return row ?? null;
}

/** The project's bot, ready to call Telegram, with its saved row; null when none is saved or its token no longer decrypts. */
export async function projectTelegramBot({ db, social, projectId, fetchFn, now }: Deps & { projectId: string }) {
  const [row] = await db.select().from(projectTelegram).where(eq(projectTelegram.projectId, projectId));
  if (!row) return null;
  const token = decryptToken(social.tokenKey, row.botToken);
  if (!token) return null;
  return { row, call: telegramBot({ apiUrl: social.telegramApiUrl, token, ...(fetchFn ? { fetchFn } : {}), ...(now ? { now } : {}) }) };
}

const CANNOT_REACH = "Telegram could not be reached. Nothing changed: try again in a minute.";

/** A failure of Telegram's in words, for the page (details go to the log, never a token). */
function telegramTrouble(answer: Exclude<TelegramAnswer<unknown>, { kind: "ok" }>, logger?: Pick<Logger, "warn">): string {
  switch (answer.kind) {
    case "needs_reconnect":
      return "Telegram does not accept this bot token any more (revoked in @BotFather?). Save a new token.";
    case "rate_limited":
      return "Telegram is busy. Try again in a minute.";
    case "malformed":
      logger?.warn({ component: "community", detail: answer.detail }, "Telegram answered a bot check unexpectedly");
      return CANNOT_REACH;
    default:
      return CANNOT_REACH;
  }
}

/**
 * Reads what the bot can do in the chat: the chat exists and the bot sees it (getChat), and it is
 * an administrator there (getChatMember with its own id). Problems come back in words.
 */
export async function inspectTelegramBot({
  call,
  chatId,
  botId,
  botUsername,
  logger,
}: {
  call: BotCall;
  chatId: string;
  botId: string;
  botUsername: string;
  logger?: Pick<Logger, "warn">;
}): Promise<{ chatTitle: string | null; problems: string[] }> {
  const bot = `@${botUsername}`;
  const chat = await getChat(call, chatId);
  if (chat.kind === "chat_not_found")
    return { chatTitle: null, problems: [`Telegram does not show ${chatId} to ${bot}. Add ${bot} to ${chatId} as an administrator, then check again.`] };
  if (chat.kind !== "ok") return { chatTitle: null, problems: [telegramTrouble(chat, logger)] };
  const title = chat.data.title ?? chatId;
  if (chat.data.type === "private") return { chatTitle: title, problems: [`${chatId} is a person, not a group or channel.`] };
  const notIn = `${bot} is not in ${title}. Add ${bot} to ${title} as an administrator, then check again.`;
  const self = await getChatMember(call, chatId, botId);
  if (self.kind === "chat_not_found" || self.kind === "member_list_inaccessible" || self.kind === "user_not_found")
    return { chatTitle: title, problems: [notIn] };
  if (self.kind !== "ok") return { chatTitle: title, problems: [telegramTrouble(self, logger)] };
  const status = self.data.status;
  if (status === "left" || status === "kicked") return { chatTitle: title, problems: [notIn] };
  if (status !== "administrator" && status !== "creator")
    return {
      chatTitle: title,
      problems: [
        `${bot} is in ${title} but not an administrator: Telegram shows who is in a group only to its administrators. Add ${bot} to ${title} as an administrator.`,
      ],
    };
  return { chatTitle: title, problems: [] };
}

/**
 * Saves the project's bot: the token checked with getMe (and never kept in the clear), the chat
 * normalized to `@name` or its id, then what the bot can do there read and kept.
 */
export async function saveTelegramBot({
  db,
  social,
  projectId,
  userId,
  token,
  chat,
  fetchFn,
  now = new Date(),
  logger,
}: Deps & { projectId: string; userId: string; token: string; chat: string }): Promise<Result<ProjectTelegramView>> {
  const chatId = parseTelegramChatInput(chat);
  if (!chatId || !TELEGRAM_CHAT_ID.test(chatId)) return invalid("chat", "Enter the group or channel: @name, its t.me/name link, or its id (-100…)");
  const cleanToken = token.trim();
  if (!TELEGRAM_BOT_TOKEN.test(cleanToken)) return invalid("token", "Paste the token @BotFather gave you: digits, a colon, then about 35 characters.");
  const call = telegramBot({ apiUrl: social.telegramApiUrl, token: cleanToken, ...(fetchFn ? { fetchFn } : {}), now });
  const me = await getMe(call);
  if (me.kind === "needs_reconnect") return invalid("token", "Telegram does not know this token. Copy it again from @BotFather.");
  if (me.kind !== "ok") return failure("unavailable", me.kind === "rate_limited" ? "Telegram is busy. Try again in a minute." : CANNOT_REACH);
  const botUsername = me.data.username ?? me.data.first_name;
  const botId = String(me.data.id);
  const inspected = await inspectTelegramBot({ call, chatId, botId, botUsername, ...(logger ? { logger } : {}) });
  const values = {
    chatId,
    chatTitle: inspected.chatTitle ?? "",
    botToken: encryptToken(social.tokenKey, cleanToken),
    botId,
    botUsername,
    problems: inspected.problems,
    checkedAt: now,
    updatedBy: userId,
    updatedAt: now,
  };
  await db
    .insert(projectTelegram)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: projectTelegram.projectId, set: values });
  return ok({ chatId, chatTitle: values.chatTitle, botUsername, problems: values.problems, checkedAt: now });
}

/** Checks the saved bot again (Check again), keeping what it found. */
export async function recheckTelegramBot({
  db,
  social,
  projectId,
  fetchFn,
  now = new Date(),
  logger,
}: Deps & { projectId: string }): Promise<Result<ProjectTelegramView>> {
  const bot = await projectTelegramBot({ db, social, projectId, ...(fetchFn ? { fetchFn } : {}), now });
  if (!bot) return failure("not_found", "No Telegram bot is saved for this project (or its token can no longer be read): save it again.");
  const { row } = bot;
  const inspected = await inspectTelegramBot({
    call: bot.call,
    chatId: row.chatId,
    botId: row.botId,
    botUsername: row.botUsername,
    ...(logger ? { logger } : {}),
  });
  const chatTitle = inspected.chatTitle ?? row.chatTitle;
  await db.update(projectTelegram).set({ chatTitle, problems: inspected.problems, checkedAt: now }).where(eq(projectTelegram.projectId, projectId));
  return ok({ chatId: row.chatId, chatTitle, botUsername: row.botUsername, problems: inspected.problems, checkedAt: now });
}

export async function removeTelegramBot({ db, projectId }: { db: Db; projectId: string }): Promise<Result> {
  const removed = await db.delete(projectTelegram).where(eq(projectTelegram.projectId, projectId)).returning({ chatId: projectTelegram.chatId });
  return removed.length ? ok() : failure("not_found", "No Telegram bot is saved for this project.");
}
