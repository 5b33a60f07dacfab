/**
 * A stand-in for Telegram, typed by hand from the Bot API docs (https://core.telegram.org/bots/api):
 * one HTTP server on 127.0.0.1 serving
 *
 *   /bot<token>/<method>   the Bot API (GET or POST, query, JSON or form body): getMe, getChat,
 *                          getChatMember, getChatAdministrators, sendMessage; `{ok:true,result}` or
 *                          `{ok:false,error_code,description,parameters?}` as Telegram answers
 *   GET /auth              the login page (oauth.telegram.org): picks the next fake account
 *   GET /auth/login        signs it (the Login Widget's hash) and redirects to
 *                          `return_to#tgAuthResult=<base64url JSON>`
 *   POST /__control/<cmd>  the control API for tests in another process (body: a JSON array of
 *                          the method's arguments); GET /health
 */
import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeBot } from "./endpoints.ts";

export type FakeTelegramUser = { id: number; first_name: string; last_name?: string; username?: string; photo_url?: string };
export type ChatType = "group" | "supergroup" | "channel";
/** Rights an administrator has (ChatMemberAdministrator's `can_*` fields); all true unless said. */
export type AdminRights = Partial<
  Record<"can_invite_users" | "can_restrict_members" | "can_manage_chat" | "can_delete_messages" | "can_promote_members", boolean>
>;
export type FakeChat = {
  id: number;
  title: string;
  type: ChatType;
  username?: string;
  /** The bots in the chat, by bot id: as administrators (with their rights) or plain members. */
  bots?: Record<number, { admin: boolean; rights?: AdminRights }>;
};
export type MemberStatus = "creator" | "administrator" | "member" | "restricted" | "left" | "kicked";
export type Membership = { status: MemberStatus; isMember?: boolean; untilDate?: number };
export type SentMessage = { botId: number; chatId: string; text: string; parseMode?: string; at: Date };
export type LoginFault = "bad_hash" | "old_auth_date" | null;

const API_PATH = /^\/bot([^/]+)\/([A-Za-z]+)$/;

/** Telegram's Login Widget hash: HMAC-SHA256 of the data-check string, keyed with SHA-256 of the bot token. */
export function telegramLoginHash(fields: Record<string, string | number | undefined>, botToken: string): string {
  const dataCheck = Object.entries(fields)
    .filter(([key, value]) => key !== "hash" && value !== undefined)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  return createHmac("sha256", createHash("sha256").update(botToken).digest()).update(dataCheck).digest("hex");
}

/** The widget's signed answer for `user` at `authDate` (seconds), as the login page hands it to `return_to`. */
export function signedLogin(user: FakeTelegramUser, botToken: string, authDate: number) {
  const fields = { ...user, auth_date: authDate };
  return { ...fields, hash: telegramLoginHash(fields, botToken) };
}

export class TelegramFakeState {
  bots = new Map<string, FakeBot>();
  chats = new Map<number, FakeChat>();
  users = new Map<number, FakeTelegramUser>();
  /** chat id → user id → membership. */
  memberships = new Map<number, Map<number, Membership>>();
  /** bot id → users who pressed Start; users who blocked the bot. */
  started = new Map<number, Set<number>>();
  blocked = new Map<number, Set<number>>();
  messages: SentMessage[] = [];
  /** Every Bot API call answered: the method and the bot, never the token. */
  calls: { botId: number | null; method: string }[] = [];
  rateLimit: { retryAfter: number; times: number } | null = null;
  nextLoginAccount: FakeTelegramUser | null = null;
  loginFault: LoginFault = null;
  /** The clock of auth_date (seconds); tests pin it. */
  now: () => number = () => Math.floor(Date.now() / 1000);

  addBot(bot: FakeBot) {
    this.bots.set(bot.token, bot);
    return bot;
  }
  addUsers(...users: FakeTelegramUser[]) {
    for (const user of users) this.users.set(user.id, user);
  }
  addChat(chat: FakeChat) {
    this.chats.set(chat.id, { bots: {}, ...chat });
    return chat;
  }
  /** Puts a bot in a chat (as an administrator or not), or takes it out (`null`). */
  setBotInChat(chatId: number, botId: number, place: { admin: boolean; rights?: AdminRights } | null) {
    const chat = this.chats.get(chatId);
    if (!chat) throw new Error(`no chat ${chatId}`);
    chat.bots ??= {};
    if (place) chat.bots[botId] = place;
    else delete chat.bots[botId];
  }
  setMembership(chatId: number, userId: number, membership: Membership) {
    if (!this.memberships.has(chatId)) this.memberships.set(chatId, new Map());
    this.memberships.get(chatId)!.set(userId, membership);
  }
  startBot(botId: number, userId: number) {
    if (!this.started.has(botId)) this.started.set(botId, new Set());
    this.started.get(botId)!.add(userId);
    this.blocked.get(botId)?.delete(userId);
  }
  blockBot(botId: number, userId: number) {
    if (!this.blocked.has(botId)) this.blocked.set(botId, new Set());
    this.blocked.get(botId)!.add(userId);
  }
  /** The next `times` Bot API calls answer 429 with `retry_after`. */
  rateLimitNext(retryAfter: number, times = 1) {
    this.rateLimit = { retryAfter, times };
  }
  nextLogin(account: FakeTelegramUser) {
    this.addUsers(account);
    this.nextLoginAccount = account;
  }
  setLoginFault(fault: LoginFault) {
    this.loginFault = fault;
  }
  /** Forgets everything but the bots (the app's configuration names them) and the clock. */
  reset() {
    const fresh = new TelegramFakeState();
    Object.assign(this, { ...fresh, bots: this.bots, now: this.now });
  }

  findChat(chatId: string): FakeChat | undefined {
    if (chatId.startsWith("@")) return [...this.chats.values()].find((c) => c.username?.toLowerCase() === chatId.slice(1).toLowerCase());
    return this.chats.get(Number(chatId));
  }
}

type Reply = { status: number; body: unknown };
const ok = (result: unknown): Reply => ({ status: 200, body: { ok: true, result } });
const refuse = (code: number, description: string, parameters?: Record<string, unknown>): Reply => ({
  status: code,
  body: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) },
});

const botUser = (bot: FakeBot) => ({ id: bot.id, is_bot: true, first_name: bot.firstName ?? bot.username, username: bot.username });
const chatOf = (chat: FakeChat) => ({ id: chat.id, type: chat.type, title: chat.title, ...(chat.username ? { username: chat.username } : {}) });

const ADMIN_DEFAULTS: Required<AdminRights> = {
  can_invite_users: true,
  can_restrict_members: true,
  can_manage_chat: true,
  can_delete_messages: true,
  can_promote_members: false,
};

function adminMember(user: unknown, rights: AdminRights = {}) {
  return {
    status: "administrator",
    user,
    can_be_edited: false,
    is_anonymous: false,
    can_manage_video_chats: true,
    can_change_info: true,
    can_post_stories: false,
    can_edit_stories: false,
    can_delete_stories: false,
    ...ADMIN_DEFAULTS,
    ...rights,
  };
}

/** A ChatMember object for a user's membership, as getChatMember answers it. */
function chatMember(user: FakeTelegramUser, membership: Membership) {
  const tgUser = { id: user.id, is_bot: false, first_name: user.first_name, ...(user.username ? { username: user.username } : {}) };
  switch (membership.status) {
    case "creator":
      return { status: "creator", user: tgUser, is_anonymous: false };
    case "administrator":
      return adminMember(tgUser);
    case "member":
      return { status: "member", user: tgUser };
    case "restricted":
      return { status: "restricted", user: tgUser, is_member: membership.isMember ?? true, can_send_messages: false, until_date: membership.untilDate ?? 0 };
    case "left":
      return { status: "left", user: tgUser };
    case "kicked":
      return { status: "kicked", user: tgUser, until_date: membership.untilDate ?? 0 };
  }
}

/** One Bot API method for one bot, with its parameters as strings (Telegram reads query, JSON and form alike). */
export function answerBotApi(state: TelegramFakeState, token: string, method: string, params: Record<string, string>): Reply {
  const bot = state.bots.get(token);
  state.calls.push({ botId: bot?.id ?? null, method });
  if (!bot) return refuse(401, "Unauthorized");
  if (state.rateLimit && state.rateLimit.times > 0) {
    const { retryAfter } = state.rateLimit;
    state.rateLimit.times -= 1;
    if (state.rateLimit.times === 0) state.rateLimit = null;
    return refuse(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
  }
  const chatParam = params.chat_id;
  const chat = chatParam ? state.findChat(chatParam) : undefined;
  const place = chat?.bots?.[bot.id];
  switch (method) {
    case "getMe":
      return ok({ ...botUser(bot), can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
    case "getChat":
      // A public chat (by @name) can be read by any bot; a private one only by a bot in it.
      if (!chat || (!place && !(chatParam?.startsWith("@") && chat.username))) return refuse(400, "Bad Request: chat not found");
      return ok({ ...chatOf(chat), accent_color_id: 0, max_reaction_count: 11 });
    case "getChatAdministrators": {
      if (!chat || !place) return refuse(400, "Bad Request: chat not found");
      const admins = Object.entries(chat.bots ?? {})
        .filter(([, p]) => p.admin)
        .map(([id, p]) => {
          const other = [...state.bots.values()].find((b) => b.id === Number(id));
          return adminMember(other ? botUser(other) : { id: Number(id), is_bot: true, first_name: "bot" }, p.rights);
        });
      for (const [userId, m] of state.memberships.get(chat.id) ?? []) {
        const user = state.users.get(userId);
        if (user && (m.status === "creator" || m.status === "administrator")) admins.push(chatMember(user, m) as ReturnType<typeof adminMember>);
      }
      return ok(admins);
    }
    case "getChatMember": {
      if (!chat || !place) return refuse(400, "Bad Request: chat not found");
      const userId = Number(params.user_id);
      if (!Number.isSafeInteger(userId)) return refuse(400, "Bad Request: invalid user_id specified");
      if (userId === bot.id) return ok(place.admin ? adminMember(botUser(bot), place.rights) : { status: "member", user: botUser(bot) });
      // Only an administrator sees a channel's subscribers.
      if (chat.type === "channel" && !place.admin) return refuse(400, "Bad Request: member list is inaccessible");
      const otherBot = [...state.bots.values()].find((b) => b.id === userId);
      if (otherBot) {
        const other = chat.bots?.[userId];
        return ok(
          other
            ? other.admin
              ? adminMember(botUser(otherBot), other.rights)
              : { status: "member", user: botUser(otherBot) }
            : { status: "left", user: botUser(otherBot) },
        );
      }
      const user = state.users.get(userId);
      if (!user) return refuse(400, "Bad Request: user not found");
      return ok(chatMember(user, state.memberships.get(chat.id)?.get(userId) ?? { status: "left" }));
    }
    case "sendMessage": {
      const to = params.chat_id ?? "";
      const text = params.text ?? "";
      if (!text) return refuse(400, "Bad Request: message text is empty");
      if (chat) {
        if (!place) return refuse(403, "Forbidden: bot is not a member of the group chat");
      } else {
        const userId = Number(to);
        if (!state.users.has(userId)) return refuse(400, "Bad Request: chat not found");
        if (state.blocked.get(bot.id)?.has(userId)) return refuse(403, "Forbidden: bot was blocked by the user");
        if (!state.started.get(bot.id)?.has(userId)) return refuse(403, "Forbidden: bot can't initiate conversation with a user");
      }
      const message = { botId: bot.id, chatId: to, text, at: new Date(), ...(params.parse_mode ? { parseMode: params.parse_mode } : {}) };
      state.messages.push(message);
      return ok({ message_id: state.messages.length, date: state.now(), chat: chat ? chatOf(chat) : { id: Number(to), type: "private" }, text });
    }
    default:
      return refuse(404, "Not Found");
  }
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The login page and its redirect: what oauth.telegram.org does for the Login Widget's popup or redirect flow. */
function answerLogin(state: TelegramFakeState, url: URL, res: ServerResponse) {
  const botId = Number(url.searchParams.get("bot_id"));
  const returnTo = url.searchParams.get("return_to") ?? "";
  const bot = [...state.bots.values()].find((b) => b.id === botId);
  if (!bot || !/^https?:\/\//.test(returnTo)) {
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    res.end(bot ? "Bad Request: return_to is required" : "Bot domain invalid");
    return;
  }
  const account = state.nextLoginAccount ?? [...state.users.values()][0] ?? { id: 700_000_001, first_name: "Tess", username: "tess_tg" };
  if (url.pathname === "/auth") {
    const confirm = `/auth/login?${url.searchParams.toString()}`;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html><head><title>Log in to ${escapeHtml(url.searchParams.get("origin") ?? "")}</title></head><body>` +
        `<h1>Telegram (fake)</h1><p>@${escapeHtml(bot.username)} asks to log you in.</p>` +
        `<a id="accept" href="${escapeHtml(confirm)}">Log in as ${escapeHtml(account.first_name)}${account.username ? ` (@${escapeHtml(account.username)})` : ""}</a>` +
        `</body></html>`,
    );
    return;
  }
  const authDate = state.loginFault === "old_auth_date" ? state.now() - 2 * 86_400 : state.now();
  const signed = signedLogin(account, bot.token, authDate);
  if (state.loginFault === "bad_hash") signed.hash = signed.hash.replace(/^./, (c) => (c === "0" ? "1" : "0"));
  state.nextLoginAccount = null;
  const result = Buffer.from(JSON.stringify(signed)).toString("base64url");
  res.writeHead(302, { location: `${returnTo.split("#")[0]}#tgAuthResult=${result}` });
  res.end();
}

async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, string>> {
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return params;
  const type = req.headers["content-type"] ?? "";
  if (type.includes("application/json")) {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const [key, value] of Object.entries(body)) params[key] = typeof value === "string" ? value : JSON.stringify(value);
  } else {
    Object.assign(params, Object.fromEntries(new URLSearchParams(text)));
  }
  return params;
}

/** The control API's commands: the state's methods, arguments as JSON arrays. */
const COMMANDS = {
  addBot: (s: TelegramFakeState, bot: FakeBot) => s.addBot(bot),
  addUsers: (s: TelegramFakeState, ...users: FakeTelegramUser[]) => s.addUsers(...users),
  addChat: (s: TelegramFakeState, chat: FakeChat) => s.addChat(chat),
  setBotInChat: (s: TelegramFakeState, chatId: number, botId: number, place: { admin: boolean; rights?: AdminRights } | null) =>
    s.setBotInChat(chatId, botId, place),
  setMembership: (s: TelegramFakeState, chatId: number, userId: number, membership: Membership) => s.setMembership(chatId, userId, membership),
  startBot: (s: TelegramFakeState, botId: number, userId: number) => s.startBot(botId, userId),
  blockBot: (s: TelegramFakeState, botId: number, userId: number) => s.blockBot(botId, userId),
  rateLimitNext: (s: TelegramFakeState, retryAfter: number, times?: number) => s.rateLimitNext(retryAfter, times),
  nextLogin: (s: TelegramFakeState, account: FakeTelegramUser) => s.nextLogin(account),
  setLoginFault: (s: TelegramFakeState, fault: LoginFault) => s.setLoginFault(fault),
  messages: (s: TelegramFakeState) => s.messages,
  reset: (s: TelegramFakeState) => s.reset(),
} as const;
export type TelegramControlCommand = keyof typeof COMMANDS;

export type TelegramFake = { origin: string; state: TelegramFakeState; server: Server; stop: () => Promise<void> };

/** Starts the fake on 127.0.0.1 (`port` 0: any free port), with `bots` known. */
export async function startTelegramFake({ port = 0, bots = [] }: { port?: number; bots?: FakeBot[] } = {}): Promise<TelegramFake> {
  const state = new TelegramFakeState();
  for (const bot of bots) state.addBot(bot);
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const api = API_PATH.exec(url.pathname);
    if (api) {
      const reply = answerBotApi(state, decodeURIComponent(api[1]!), api[2]!, await readParams(req, url));
      res.writeHead(reply.status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(reply.body));
      return;
    }
    if (url.pathname === "/auth" || url.pathname === "/auth/login") return answerLogin(state, url, res);
    if (url.pathname === "/health") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "ok" }));
      return;
    }
    if (url.pathname.startsWith("/__control/") && req.method === "POST") {
      const name = url.pathname.slice("/__control/".length);
      const command = (COMMANDS as Record<string, (s: TelegramFakeState, ...args: unknown[]) => unknown>)[name];
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const args: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "[]");
      if (!command || !Array.isArray(args)) {
        res.writeHead(command ? 400 : 404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: command ? "arguments must be a JSON array" : `unknown command ${name}` }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ result: command(state, ...args) ?? null }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: false, error_code: 404, description: "Not Found" }));
  }
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    state,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
