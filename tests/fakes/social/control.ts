/**
 * A small HTTP API that drives running social fakes from another process (the Playwright tests
 * drive the fakes that playwright.config.ts starts through tests/fakes/social/serve.ts). Listens
 * on 127.0.0.1 only:
 *
 *   GET  /health                        200 {status:"ok"}
 *   POST /__control/<command>           body: the command's arguments as a JSON array; 200 {result}
 *        nextAccount, issueToken, revoke, failNext, reset, x.addUsers, x.setFollowing, x.setLikes,
 *        x.setReposts, x.addPosts, youtube.setSubscriptions, tiktok.setVideos, instagram.setMedia,
 *        discord.addGuild, discord.addBot, discord.joinBot, discord.setMember, discord.removeMember,
 *        discord.memberRoles, discord.rateLimitNext
 *        (the methods of `SocialFakes`, with the same arguments; a fault's `resetAt` as ISO text)
 *   GET  /__control/requests            {apiRequests, tokenRequests}: every request the fakes answered
 *
 *   Discord's state, as resources (bodies are JSON objects):
 *   POST   /discord/guilds                {id, name, roles:[{id, name, position, permissions}], ownerId?}
 *   POST   /discord/bots                  {token, userId, username, guildId?, roleIds?}: known, and joined to guildId
 *   POST   /discord/members               {guildId, userId, roles, joinedAt?}
 *   DELETE /discord/members/:guild/:user  the user left the guild
 *   GET    /discord/members/:guild/:user  {roles: string[] | null}
 *   POST   /discord/rate-limit            {count, retryAfterSeconds}
 *   GET    /discord/role-requests         every PUT and DELETE of a member's role, as answered
 *
 * A command that is not known answers 404; arguments that are not a JSON array, or a provider that
 * is not one the fakes serve, 400; a Discord resource with a field missing or mistyped, 400.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { FakeProvider } from "./endpoints.ts";
import { readBody } from "./http.ts";
import type { FakeFault, SocialFakes } from "./social-fakes.ts";
import { PROVIDERS } from "./state.ts";

export const CONTROL_PREFIX = "/__control/";

/** The commands, by name: the fakes' methods with their arguments as they travel in JSON. */
export type ControlCommands = {
  nextAccount: Parameters<SocialFakes["nextAccount"]>;
  issueToken: Parameters<SocialFakes["issueToken"]>;
  revoke: Parameters<SocialFakes["revoke"]>;
  failNext: [provider: FakeProvider, fault: JsonFault, options?: { times?: number; path?: string }];
  reset: [];
  "x.addUsers": Parameters<SocialFakes["x"]["addUsers"]>;
  "x.setFollowing": Parameters<SocialFakes["x"]["setFollowing"]>;
  "x.setLikes": Parameters<SocialFakes["x"]["setLikes"]>;
  "x.setReposts": Parameters<SocialFakes["x"]["setReposts"]>;
  "x.addPosts": Parameters<SocialFakes["x"]["addPosts"]>;
  "youtube.setSubscriptions": Parameters<SocialFakes["youtube"]["setSubscriptions"]>;
  "tiktok.setVideos": Parameters<SocialFakes["tiktok"]["setVideos"]>;
  "instagram.setMedia": Parameters<SocialFakes["instagram"]["setMedia"]>;
  "discord.addGuild": Parameters<SocialFakes["discord"]["addGuild"]>;
  "discord.addBot": Parameters<SocialFakes["discord"]["addBot"]>;
  "discord.joinBot": Parameters<SocialFakes["discord"]["joinBot"]>;
  "discord.setMember": Parameters<SocialFakes["discord"]["setMember"]>;
  "discord.removeMember": Parameters<SocialFakes["discord"]["removeMember"]>;
  "discord.memberRoles": Parameters<SocialFakes["discord"]["memberRoles"]>;
  "discord.rateLimitNext": Parameters<SocialFakes["discord"]["rateLimitNext"]>;
};
export type ControlCommand = keyof ControlCommands;

/** A fault as JSON carries it: a rate limit's reset moment as ISO text. */
export type JsonFault = Exclude<FakeFault, { kind: "rate_limited" }> | (Omit<Extract<FakeFault, { kind: "rate_limited" }>, "resetAt"> & { resetAt?: string });

class BadRequest extends Error {}

const provider = (value: unknown): FakeProvider => {
  if (!(PROVIDERS as readonly unknown[]).includes(value)) throw new BadRequest(`unknown provider ${JSON.stringify(value)}`);
  return value as FakeProvider;
};

/** Each command applied to the fakes; what it returns is sent back as `result`. */
function commands(fakes: SocialFakes): { [C in ControlCommand]: (...args: ControlCommands[C]) => unknown } {
  return {
    nextAccount: (p, account, options) => fakes.nextAccount(provider(p), account, options),
    issueToken: (p, account, options) => fakes.issueToken(provider(p), account, options),
    revoke: (p, accountId) => fakes.revoke(provider(p), accountId),
    failNext: (p, fault, options) =>
      fakes.failNext(provider(p), fault.kind === "rate_limited" ? { ...fault, resetAt: fault.resetAt ? new Date(fault.resetAt) : undefined } : fault, options),
    reset: () => fakes.reset(),
    "x.addUsers": (...users) => fakes.x.addUsers(...users),
    "x.setFollowing": (accountId, targetIds) => fakes.x.setFollowing(accountId, targetIds),
    "x.setLikes": (accountId, postIds) => fakes.x.setLikes(accountId, postIds),
    "x.setReposts": (postId, userIds) => fakes.x.setReposts(postId, userIds),
    "x.addPosts": (...posts) => fakes.x.addPosts(...posts),
    "youtube.setSubscriptions": (channelId, subscriptions) => fakes.youtube.setSubscriptions(channelId, subscriptions),
    "tiktok.setVideos": (openId, videos) => fakes.tiktok.setVideos(openId, videos),
    "instagram.setMedia": (userId, media) => fakes.instagram.setMedia(userId, media),
    "discord.addGuild": (guild) => fakes.discord.addGuild(guild),
    "discord.addBot": (bot) => fakes.discord.addBot(bot),
    "discord.joinBot": (guildId, botUserId, roleIds) => fakes.discord.joinBot(guildId, botUserId, roleIds),
    "discord.setMember": (guildId, userId, member) => fakes.discord.setMember(guildId, userId, member),
    "discord.removeMember": (guildId, userId) => fakes.discord.removeMember(guildId, userId),
    "discord.memberRoles": (guildId, userId) => fakes.discord.memberRoles(guildId, userId),
    "discord.rateLimitNext": (count, retryAfterSeconds) => fakes.discord.rateLimitNext(count, retryAfterSeconds),
  };
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body ?? null));
}

/** Answers the control API's requests for `fakes`. */
export function controlHandler(fakes: SocialFakes) {
  const table = commands(fakes) as Record<string, (...args: unknown[]) => unknown>;
  return async (req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = new URL(req.url ?? "/", "http://127.0.0.1");
    if (pathname === "/health" && req.method === "GET") return reply(res, 200, { status: "ok" });
    if (pathname === `${CONTROL_PREFIX}requests` && req.method === "GET") {
      return reply(res, 200, { apiRequests: fakes.apiRequests, tokenRequests: fakes.tokenRequests });
    }
    if (pathname.startsWith("/discord/")) {
      try {
        const answer = await discordResource(fakes, req.method ?? "GET", pathname, req);
        return reply(res, answer.status, answer.body);
      } catch (error) {
        const bad = error instanceof BadRequest || error instanceof SyntaxError;
        return reply(res, bad ? 400 : 500, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    const name = pathname.startsWith(CONTROL_PREFIX) ? pathname.slice(CONTROL_PREFIX.length) : null;
    const command = name !== null && Object.hasOwn(table, name) ? table[name]! : null;
    if (!command) return reply(res, 404, { error: `no such command: ${pathname}` });
    if (req.method !== "POST") return reply(res, 405, { error: "POST a JSON array of arguments" });
    try {
      const raw = await readBody(req);
      const args: unknown = raw.trim() ? JSON.parse(raw) : [];
      if (!Array.isArray(args)) throw new BadRequest("the body is the command's arguments, as a JSON array");
      return reply(res, 200, { result: command(...args) ?? null });
    } catch (error) {
      const bad = error instanceof BadRequest || error instanceof SyntaxError;
      return reply(res, bad ? 400 : 500, { error: error instanceof Error ? error.message : String(error) });
    }
  };
}

const text = (value: unknown, name: string): string => {
  if (typeof value !== "string" || value === "") throw new BadRequest(`${name} must be a non-empty string`);
  return value;
};
const texts = (value: unknown, name: string): string[] => {
  if (!Array.isArray(value)) throw new BadRequest(`${name} must be an array of strings`);
  return value.map((v, i) => text(v, `${name}[${i}]`));
};

async function objectBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  const body: unknown = raw.trim() ? JSON.parse(raw) : {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadRequest("the body is a JSON object");
  return body as Record<string, unknown>;
}

/** Discord's state as resources (see the header). */
async function discordResource(fakes: SocialFakes, method: string, pathname: string, req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const d = fakes.discord;
  const member = /^\/discord\/members\/(\d+)\/(\d+)$/.exec(pathname);
  if (member && method === "GET") return { status: 200, body: { roles: d.memberRoles(member[1]!, member[2]!) } };
  if (member && method === "DELETE") {
    d.removeMember(member[1]!, member[2]!);
    return { status: 200, body: { removed: true } };
  }
  if (pathname === "/discord/role-requests" && method === "GET") return { status: 200, body: d.roleRequests };
  if (method !== "POST") return { status: 404, body: { error: `no such resource: ${method} ${pathname}` } };
  const body = await objectBody(req);
  switch (pathname) {
    case "/discord/guilds": {
      if (!Array.isArray(body.roles)) throw new BadRequest("roles must be an array");
      const roles = (body.roles as Record<string, unknown>[]).map((r, i) => ({
        id: text(r.id, `roles[${i}].id`),
        name: text(r.name, `roles[${i}].name`),
        position: Number(r.position),
        permissions: String(r.permissions ?? "0"),
      }));
      d.addGuild({ id: text(body.id, "id"), name: text(body.name, "name"), roles, ...(body.ownerId ? { ownerId: text(body.ownerId, "ownerId") } : {}) });
      return { status: 201, body: { id: body.id } };
    }
    case "/discord/bots": {
      const bot = { token: text(body.token, "token"), userId: text(body.userId, "userId"), username: text(body.username, "username") };
      d.addBot(bot);
      if (body.guildId !== undefined) d.joinBot(text(body.guildId, "guildId"), bot.userId, texts(body.roleIds ?? [], "roleIds"));
      return { status: 201, body: { userId: bot.userId } };
    }
    case "/discord/members":
      d.setMember(text(body.guildId, "guildId"), text(body.userId, "userId"), {
        roles: texts(body.roles ?? [], "roles"),
        ...(body.joinedAt ? { joinedAt: text(body.joinedAt, "joinedAt") } : {}),
      });
      return { status: 201, body: { roles: d.memberRoles(text(body.guildId, "guildId"), text(body.userId, "userId")) } };
    case "/discord/rate-limit": {
      const count = Number(body.count ?? 1);
      const seconds = Number(body.retryAfterSeconds);
      if (!Number.isInteger(count) || count < 1 || !Number.isFinite(seconds) || seconds < 0)
        throw new BadRequest("count (a whole number) and retryAfterSeconds");
      d.rateLimitNext(count, seconds);
      return { status: 201, body: { count } };
    }
    default:
      return { status: 404, body: { error: `no such resource: ${method} ${pathname}` } };
  }
}

/** Serves the control API for `fakes` on 127.0.0.1:`port`. */
export async function startSocialControl(fakes: SocialFakes, { port }: { port: number }): Promise<Server> {
  const handle = controlHandler(fakes);
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}
