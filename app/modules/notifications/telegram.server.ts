import { and, eq, sql } from "drizzle-orm";
import { account } from "#db/schema/auth";
import { telegramChat } from "#db/schema/community";
import { rowsOf, type Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { failure, ok, type Result } from "~/lib/result";
import { sendMessage, telegramBot } from "~/modules/social/checks/telegram.server";
import type { SocialConfig } from "~/modules/social/social-config.server";

/**
 * Notifications by Telegram: a direct message from the platform's bot, which Telegram lets a bot
 * send only to people who pressed Start in it. At most once, as mail is (mail.server.ts): a run
 * claims rows in a transaction and stamps them in flight (`telegram_sent_at`) before it commits,
 * then sends; a row whose run died before Telegram's answer is never sent again (after
 * IN_FLIGHT_MINUTES it is marked `failed`). "Blocked by the user" closes the member's chat
 * (`blocked_at`) and what else waited for it is not sent; a rate limit puts the rest back for the
 * next run.
 */

const IN_FLIGHT_MINUTES = 15;

type Options = {
  db: Db;
  social: Pick<SocialConfig, "telegram" | "telegramApiUrl">;
  /** Where links lead (APP_URL, no trailing slash). */
  appUrl: string;
  now?: Date;
  logger?: Pick<Logger, "warn">;
  fetchFn?: typeof fetch;
};

/** Whether Telegram can be offered for notifications on this server, and to this member: the platform's bot and their connection. */
export async function telegramNotificationState({ db, social, userId }: { db: Db; social: Pick<SocialConfig, "telegram">; userId: string }) {
  if (!social.telegram) return null;
  const [row] = await db
    .select({ accountId: account.accountId, startedAt: telegramChat.startedAt, blockedAt: telegramChat.blockedAt, chatUser: telegramChat.telegramUserId })
    .from(account)
    .leftJoin(telegramChat, eq(telegramChat.userId, account.userId))
    .where(and(eq(account.userId, userId), eq(account.providerId, "telegram")));
  if (!row) return null;
  const sameAccount = row.chatUser === row.accountId;
  return {
    botUsername: social.telegram.botUsername,
    started: sameAccount && row.startedAt !== null && row.blockedAt === null,
    blocked: sameAccount && row.blockedAt !== null,
  };
}

/** The message: the notification's title, its words and its link. Plain text (nothing of a member's is read as markup). */
export const telegramText = ({ title, body, link }: { title: string; body: string; link: string | null }, appUrl: string) =>
  [title, body, link ? `${appUrl}${link}` : ""].filter(Boolean).join("\n\n").slice(0, 4096);

/**
 * "Send a test message": proves the member started the platform's bot. Telegram accepting it
 * opens their chat (`started_at`); refusing it says to press Start in the bot.
 */
export async function sendTelegramTest({ db, social, appUrl, userId, now = new Date(), logger, fetchFn }: Options & { userId: string }): Promise<Result> {
  const telegram = social.telegram;
  if (!telegram) return failure("unavailable", "Telegram is not set up on this server.");
  const [linked] = await db
    .select({ accountId: account.accountId })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "telegram")));
  if (!linked) return failure("conflict", "Connect your Telegram account first (Settings › Connections › Telegram).");
  const call = telegramBot({ apiUrl: social.telegramApiUrl, token: telegram.botToken, now, ...(fetchFn ? { fetchFn } : {}) });
  const sent = await sendMessage(call, linked.accountId, `This is a test from ${appUrl}: notifications you choose will come here.`);
  const chat = (values: { startedAt: Date | null; blockedAt: Date | null }) =>
    db
      .insert(telegramChat)
      .values({ userId, telegramUserId: linked.accountId, ...values, updatedAt: now })
      .onConflictDoUpdate({ target: telegramChat.userId, set: { telegramUserId: linked.accountId, ...values, updatedAt: now } });
  switch (sent.kind) {
    case "ok":
      await chat({ startedAt: now, blockedAt: null });
      return ok();
    case "cant_initiate":
    case "blocked":
    case "chat_not_found":
      await chat({ startedAt: null, blockedAt: null });
      return failure(
        "conflict",
        `Telegram did not let @${telegram.botUsername} write to you: open @${telegram.botUsername} in Telegram, press Start, then send the test again.`,
      );
    case "rate_limited":
      return failure("limited", "Telegram is busy. Try again in a minute.", Math.max(1, Math.ceil((sent.retryAt.getTime() - now.getTime()) / 1000)));
    default:
      if (sent.kind === "malformed") logger?.warn({ component: "notifications", detail: sent.detail }, "Telegram answered a test message unexpectedly");
      return failure("unavailable", "Telegram could not be reached. Try again in a minute.");
  }
}

type Claimed = { id: number; user_id: string; chat_id: string; title: string; body: string; link: string | null };

/** Sends the notifications waiting for Telegram, a batch per call. */
export async function sendTelegramNotifications({ db, social, appUrl, now = new Date(), logger, fetchFn, limit = 100 }: Options & { limit?: number }) {
  const telegram = social.telegram;
  if (!telegram) return { sent: 0, failed: 0, retry: 0 };
  const at = now.toISOString();
  const claimed = await db.transaction(async (tx) => {
    // Runs that died mid-send: their messages are not sent a second time.
    await tx.execute(sql`update notification set telegram = 'failed'
      where telegram = 'pending' and telegram_sent_at is not null and telegram_sent_at < ${at}::timestamptz - make_interval(mins => ${IN_FLIGHT_MINUTES})`);
    // Whose chat closed since (blocked, disconnected, another account): not sent that way.
    await tx.execute(sql`update notification n set telegram = 'none'
      where n.telegram = 'pending' and n.telegram_sent_at is null and not exists (
        select 1 from telegram_chat tc join account a on a.user_id = tc.user_id and a.provider_id = 'telegram' and a.account_id = tc.telegram_user_id
        where tc.user_id = n.user_id and tc.started_at is not null and tc.blocked_at is null)`);
    const rows = rowsOf(
      await tx.execute(sql`select n.id, n.user_id, tc.telegram_user_id as chat_id, n.title, n.body, n.link
        from notification n join telegram_chat tc on tc.user_id = n.user_id
        where n.telegram = 'pending' and n.telegram_sent_at is null
        order by n.id limit ${limit} for update of n skip locked`),
    ).map((row) => ({ ...row, id: Number(row.id) })) as Claimed[];
    if (rows.length)
      await tx.execute(
        sql`update notification set telegram_sent_at = ${at}::timestamptz where id in (${sql.join(
          rows.map((row) => row.id),
          sql`, `,
        )})`,
      );
    return rows;
  });

  const call = telegramBot({ apiUrl: social.telegramApiUrl, token: telegram.botToken, now, ...(fetchFn ? { fetchFn } : {}) });
  const closed = new Set<string>();
  let sent = 0;
  let failed = 0;
  let retry = 0;
  const putBack = (ids: number[]) =>
    ids.length ? db.execute(sql`update notification set telegram_sent_at = null where id in (${sql.join(ids, sql`, `)}) and telegram = 'pending'`) : null;
  for (const [index, row] of claimed.entries()) {
    if (closed.has(row.user_id)) {
      await db.execute(sql`update notification set telegram = 'none' where id = ${row.id}`);
      continue;
    }
    const answer = await sendMessage(call, row.chat_id, telegramText(row, appUrl));
    if (answer.kind === "ok") {
      sent++;
      await db.execute(sql`update notification set telegram = 'sent', telegram_sent_at = ${at}::timestamptz where id = ${row.id}`);
      continue;
    }
    if (answer.kind === "rate_limited" || answer.kind === "unavailable") {
      // A rate limit refused this one: it and the rest wait for the next run. Telegram down or
      // silent may still have delivered this one: at most once, so it is failed, and only the rest wait.
      const unsure = answer.kind === "unavailable";
      if (unsure) {
        failed++;
        await db.execute(sql`update notification set telegram = 'failed' where id = ${row.id}`);
      }
      const rest = claimed.slice(unsure ? index + 1 : index).map((r) => r.id);
      retry += rest.length;
      await putBack(rest);
      break;
    }
    failed++;
    await db.execute(sql`update notification set telegram = 'failed' where id = ${row.id}`);
    if (answer.kind === "blocked" || answer.kind === "cant_initiate" || answer.kind === "chat_not_found") {
      closed.add(row.user_id);
      const values = answer.kind === "blocked" ? { blockedAt: now } : { startedAt: null };
      await db
        .update(telegramChat)
        .set({ ...values, updatedAt: now })
        .where(eq(telegramChat.userId, row.user_id));
      await db.execute(sql`update notification set telegram = 'none' where user_id = ${row.user_id} and telegram = 'pending' and telegram_sent_at is null`);
    } else if (answer.kind === "malformed") {
      logger?.warn({ component: "notifications", notification: row.id, detail: answer.detail }, "Telegram answered a notification unexpectedly");
    } else {
      logger?.warn({ component: "notifications", notification: row.id, kind: answer.kind }, "Telegram refused a notification");
    }
  }
  return { sent, failed, retry };
}
