import { z } from "zod";
import { providerRequestOrRefusal } from "./http.server";
import type { ProviderCall, ProviderFailure } from "./outcome";

/**
 * Telegram's Bot API (https://core.telegram.org/bots/api), one client for the projects' bots and
 * the platform's: every answer parsed with zod. The token sits in the call's `apiUrl`
 * (`<api>/bot<token>`), never in a request's `path`, so no failure's `detail` (logged) carries it.
 */

/** A bot's call: the API base from configuration and the bot's token. */
export function telegramBot({ apiUrl, token, fetchFn, now }: { apiUrl: string; token: string; fetchFn?: typeof fetch; now?: Date }): ProviderCall {
  return { provider: "telegram", apiUrl: `${apiUrl}/bot${token}`, accessToken: token, ...(fetchFn ? { fetch: fetchFn } : {}), ...(now ? { now } : {}) };
}

const envelope = <S extends z.ZodType>(result: S) => z.object({ ok: z.literal(true), result });
const refusalBody = z.object({ ok: z.literal(false), error_code: z.number(), description: z.string() }).loose();

export const telegramUser = z.object({ id: z.number().int(), is_bot: z.boolean(), first_name: z.string(), username: z.string().optional() }).loose();
const chat = z
  .object({ id: z.number().int(), type: z.enum(["private", "group", "supergroup", "channel"]), title: z.string().optional(), username: z.string().optional() })
  .loose();
export type TelegramChat = z.output<typeof chat>;

const adminRights = {
  can_manage_chat: z.boolean().optional(),
  can_invite_users: z.boolean().optional(),
  can_restrict_members: z.boolean().optional(),
  can_delete_messages: z.boolean().optional(),
  can_promote_members: z.boolean().optional(),
};
/** A ChatMember: one of its six kinds, told apart by `status`. */
const chatMember = z.discriminatedUnion("status", [
  z.object({ status: z.literal("creator"), user: telegramUser }).loose(),
  z.object({ status: z.literal("administrator"), user: telegramUser, ...adminRights }).loose(),
  z.object({ status: z.literal("member"), user: telegramUser }).loose(),
  z.object({ status: z.literal("restricted"), user: telegramUser, is_member: z.boolean() }).loose(),
  z.object({ status: z.literal("left"), user: telegramUser }).loose(),
  z.object({ status: z.literal("kicked"), user: telegramUser }).loose(),
]);
export type TelegramChatMember = z.output<typeof chatMember>;

/** What Telegram refused, read from its 400 and 403 descriptions. */
export type TelegramRefusal =
  | { kind: "chat_not_found" }
  | { kind: "user_not_found" }
  /** A channel's subscribers, or a group's members, that this bot may not read (it is not an administrator there). */
  | { kind: "member_list_inaccessible" }
  | { kind: "cant_initiate" }
  | { kind: "blocked" }
  | { kind: "forbidden"; description: string };

export type TelegramAnswer<T> = { kind: "ok"; data: T } | ProviderFailure | TelegramRefusal;

function refusalOf(body: unknown, method: string): TelegramRefusal | ProviderFailure {
  const parsed = refusalBody.safeParse(body);
  const description = parsed.success ? parsed.data.description : "";
  if (/chat not found/i.test(description)) return { kind: "chat_not_found" };
  if (/user not found|PARTICIPANT_ID_INVALID|USER_ID_INVALID/i.test(description)) return { kind: "user_not_found" };
  if (/member list is inaccessible|CHAT_ADMIN_REQUIRED/i.test(description)) return { kind: "member_list_inaccessible" };
  if (/blocked by the user/i.test(description)) return { kind: "blocked" };
  if (/can't initiate conversation|user is deactivated/i.test(description)) return { kind: "cant_initiate" };
  if (parsed.success && parsed.data.error_code === 403) return { kind: "forbidden", description: description.slice(0, 200) };
  return { kind: "malformed", detail: `telegram ${method}: ${description.slice(0, 200) || "an error without a description"}` };
}

async function botApi<S extends z.ZodType>(
  call: ProviderCall,
  method: string,
  params: Record<string, string | number>,
  result: S,
  verb: "GET" | "POST" = "GET",
): Promise<TelegramAnswer<z.output<S>>> {
  const answer = await providerRequestOrRefusal(call, {
    path: `/${method}`,
    method: verb,
    ...(verb === "GET" ? { query: params } : { json: params }),
    schema: envelope(result),
    scope: method,
    auth: "none",
    refusals: [400, 403],
  });
  if (answer.kind === "refused") return refusalOf(answer.body, method);
  if (answer.kind !== "ok") return answer;
  return { kind: "ok", data: (answer.data as { result: z.output<S> }).result };
}

/** The bot itself: checks a token (401 → `needs_reconnect`: Telegram does not know it). */
export const getMe = (call: ProviderCall) => botApi(call, "getMe", {}, telegramUser);

/** A group or channel by `@name` or id. */
export const getChat = (call: ProviderCall, chatId: string) => botApi(call, "getChat", { chat_id: chatId }, chat);

/** A user's (or the bot's own) membership of a chat. */
export const getChatMember = (call: ProviderCall, chatId: string, userId: string | number) =>
  botApi(call, "getChatMember", { chat_id: chatId, user_id: String(userId) }, chatMember);

export const getChatAdministrators = (call: ProviderCall, chatId: string) => botApi(call, "getChatAdministrators", { chat_id: chatId }, z.array(chatMember));

/** A message from the bot; to a person, only once they pressed Start in the bot. */
export const sendMessage = (call: ProviderCall, chatId: string, text: string) =>
  botApi(call, "sendMessage", { chat_id: chatId, text }, z.object({ message_id: z.number() }).loose(), "POST");

/** Whether a ChatMember is in the chat: member, administrator, creator, or restricted while still a member. */
export function isInChat(member: TelegramChatMember): boolean {
  switch (member.status) {
    case "creator":
    case "administrator":
    case "member":
      return true;
    case "restricted":
      return member.is_member;
    case "left":
    case "kicked":
      return false;
  }
}
