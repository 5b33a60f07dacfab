/**
 * Local stand-ins for X, YouTube (Google), TikTok, Instagram and Discord: each an OAuth 2.0 server (oauth.ts)
 * and the REST endpoints Questline reads, with the real paths, JSON shapes, error bodies and
 * rate-limit headers, over real HTTP on 127.0.0.1. One server per provider, as each provider's
 * paths do not collide with each other:
 *
 *   const fakes = await startSocialFakes();               // random ports
 *   process.env = { ...process.env, ...fakes.env };       // X_CLIENT_ID, X_TOKEN_URL, … X_BEARER_TOKEN
 *   fakes.nextAccount("x", { id: "42", handle: "ada", name: "Ada", avatarUrl: "…" });  // who the next login is
 *   const { accessToken } = fakes.issueToken("x", account);                            // or skip the browser
 *   fakes.x.setFollowing("42", ["1001", "1002"]);
 *   fakes.failNext("x", { kind: "rate_limited", resetAt }, { path: "/2/users/42/following" });
 *   fakes.revoke("x", "42");                              // its tokens answer 401, refresh invalid_grant
 *   fakes.discord.addGuild({ id, name, roles });          // Discord's guilds, bots, members: discord-api.ts
 *   await fakes.stop();
 *
 * `node scripts/social-fakes.ts` runs them on fixed ports for `npm run dev`.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { FakeProvider } from "./endpoints.ts";
import { FAKE_CLIENTS, FAKE_X_BEARER_TOKEN, fakesEnv, type OAuthClient } from "./endpoints.ts";
import { faultAnswer } from "./errors.ts";
import { discordApi } from "./discord-api.ts";
import type { DiscordBotSpec, DiscordGuildSpec, DiscordMemberSpec, DiscordRoleRequest, DiscordRoleSpec } from "./discord-state.ts";
import { bearerToken, botToken, json, readBody, send, type ApiRouter } from "./http.ts";
import { createInstagramApi } from "./instagram-api.ts";
import { createOAuthEndpoints } from "./oauth.ts";
import {
  FakeState,
  FULL_SCOPES,
  PROVIDERS,
  type ApiRequestRecord,
  type FakeAccount,
  type FakeFault,
  type InstagramMedia,
  type TiktokVideo,
  type TokenRequestRecord,
  type XPost,
  type XUser,
  type YoutubeSubscription,
} from "./state.ts";
import { tiktokApi } from "./tiktok-api.ts";
import { xApi } from "./x-api.ts";
import { youtubeApi } from "./youtube-api.ts";

export type { ApiRequestRecord, FakeAccount, FakeFault, InstagramMedia, TiktokVideo, TokenRequestRecord, XPost, XUser, YoutubeSubscription };
export type { DiscordBotSpec, DiscordGuildSpec, DiscordMemberSpec, DiscordRoleRequest, DiscordRoleSpec };

const HOST = "127.0.0.1";

export { FAKE_CLIENTS, FAKE_X_BEARER_TOKEN };

export type SocialFakes = {
  /** `P_CLIENT_ID`, `P_CLIENT_SECRET`, `P_AUTHORIZE_URL`, `P_TOKEN_URL`, `P_API_URL` for each provider, and `X_BEARER_TOKEN`. */
  env: Record<string, string>;
  /** Each fake's origin, `http://127.0.0.1:<port>`. */
  origins: Record<FakeProvider, string>;
  clients: Record<FakeProvider, OAuthClient>;
  /** Who the next authorization (browser redirect through /authorize) logs in as; `scopes`: what they grant (default: what was asked). */
  nextAccount(provider: FakeProvider, account: FakeAccount, options?: { scopes?: string[] }): void;
  /** A token pair for `account`, without the browser (`scope`: default every scope the fake checks). */
  issueToken(
    provider: FakeProvider,
    account: FakeAccount,
    options?: { scope?: string | readonly string[]; expiresInSeconds?: number },
  ): { accessToken: string; refreshToken: string };
  /** The account's tokens stop working: API calls 401 (Instagram: error 190), refresh `invalid_grant`. */
  revoke(provider: FakeProvider, accountId: string): void;
  /**
   * The next `times` (default 1) API answers of the provider, or of paths starting with `path`, are
   * this failure. The token endpoint fails only when named by `path` (e.g. X_TOKEN_URL's path):
   * `unauthorized` is then `invalid_grant`, `missing_scope` `invalid_scope`.
   */
  failNext(provider: FakeProvider, fault: FakeFault, options?: { times?: number; path?: string }): void;
  x: {
    /** Users for /2/users/by/username and the lists (accounts that logged in are known already). */
    addUsers(...users: XUser[]): void;
    /** Whom `accountId` follows, most recent first. */
    setFollowing(accountId: string, targetIds: string[]): void;
    /** The posts `accountId` liked, most recent first. */
    setLikes(accountId: string, postIds: string[]): void;
    /** Who reposted `postId`, most recent first. */
    setReposts(postId: string, userIds: string[]): void;
    /** Posts, served by /2/tweets/:id and their author's /2/users/:id/tweets. */
    addPosts(...posts: XPost[]): void;
  };
  youtube: { setSubscriptions(channelId: string, subscriptions: YoutubeSubscription[]): void };
  tiktok: { setVideos(openId: string, videos: TiktokVideo[]): void };
  instagram: { setMedia(userId: string, media: InstagramMedia[]): void };
  discord: {
    /** A server with its roles (`permissions` as Discord writes them: a decimal bit set). */
    addGuild(guild: DiscordGuildSpec): void;
    /** A bot token the fake knows (`Authorization: Bot <token>`); it acts in a guild once it joined it. */
    addBot(bot: DiscordBotSpec): void;
    /** The bot joins the guild holding these roles (its permissions and its highest role come from them). */
    joinBot(guildId: string, botUserId: string, roleIds: string[]): void;
    /** A user is a member of the guild with exactly these roles. */
    setMember(guildId: string, discordUserId: string, member: DiscordMemberSpec): void;
    /** The user left the guild (or was kicked). */
    removeMember(guildId: string, discordUserId: string): void;
    /** The member's roles now; null when not a member. */
    memberRoles(guildId: string, discordUserId: string): string[] | null;
    /** The next `count` Discord API requests answer 429 with this `retry_after`. */
    rateLimitNext(count: number, retryAfterSeconds: number): void;
    /** Every PUT and DELETE of a member's role, as answered. */
    roleRequests: DiscordRoleRequest[];
  };
  /** Every token endpoint request, as answered (Instagram's exchange and refresh included). */
  tokenRequests: Record<FakeProvider, TokenRequestRecord[]>;
  /** Every API request, as answered. */
  apiRequests: Record<FakeProvider, ApiRequestRecord[]>;
  /** Forgets accounts, tokens, data, faults and records; the servers keep running. */
  reset(): void;
  stop(): Promise<void>;
};

export type SocialFakesOptions = {
  /** Fixed ports (the dev script); random ones by default. */
  ports?: Partial<Record<FakeProvider, number>>;
  /** The fakes' clock, for token expiry (default Date.now). */
  now?: () => number;
  /** Instagram's token answer: `{access_token, user_id, permissions}` (default) or wrapped in `{data:[…]}` as newer docs show. */
  instagramTokenShape?: "flat" | "wrapped";
};

export async function startSocialFakes(options: SocialFakesOptions = {}): Promise<SocialFakes> {
  const state = new FakeState({ ...(options.now ? { now: options.now } : {}), xAppToken: FAKE_X_BEARER_TOKEN });
  const routers: Record<FakeProvider, ApiRouter> = {
    x: xApi,
    youtube: youtubeApi,
    tiktok: tiktokApi,
    instagram: createInstagramApi(FAKE_CLIENTS.instagram),
    discord: discordApi,
  };
  const servers: Server[] = [];
  const origins = {} as Record<FakeProvider, string>;
  try {
    for (const provider of PROVIDERS) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.ports?.[provider] ?? 0, HOST, () => resolve());
      });
      const origin = `http://${HOST}:${(server.address() as { port: number }).port}`;
      origins[provider] = origin;
      const oauth = await createOAuthEndpoints({
        provider,
        state,
        origin,
        client: FAKE_CLIENTS[provider],
        instagramTokenShape: options.instagramTokenShape ?? "flat",
      });
      server.on("request", (req, res) => {
        if (oauth(req, res)) return;
        serveApi(provider, state, routers[provider], req, origin).then(
          (answer) => send(res, answer),
          (error: unknown) => send(res, json(500, { error: String(error) })),
        );
      });
    }
  } catch (error) {
    await Promise.all(servers.map(close));
    throw error;
  }

  const env = fakesEnv(origins);

  return {
    env,
    origins,
    clients: FAKE_CLIENTS,
    nextAccount(provider, account, { scopes } = {}) {
      state.remember(provider, account);
      state.pendingLogins[provider].push({ account, ...(scopes ? { scopes } : {}) });
    },
    issueToken(provider, account, { scope, expiresInSeconds = 3600 } = {}) {
      state.remember(provider, account);
      const scopes = scope === undefined ? FULL_SCOPES[provider] : typeof scope === "string" ? scope.split(/[\s,]+/).filter(Boolean) : [...scope];
      const grant = { account, scopes };
      return { accessToken: state.issueAccess(provider, grant, expiresInSeconds), refreshToken: state.issueRefresh(provider, grant) };
    },
    revoke: (provider, accountId) => state.revoke(provider, accountId),
    failNext: (provider, fault, failOptions) => state.failNext(provider, fault, failOptions),
    x: {
      addUsers: (...users) => users.forEach((u) => state.x.users.set(u.id, u)),
      setFollowing: (accountId, targetIds) => void state.x.following.set(accountId, targetIds),
      setLikes: (accountId, postIds) => void state.x.likes.set(accountId, postIds),
      setReposts: (postId, userIds) => void state.x.reposts.set(postId, userIds),
      addPosts: (...posts) => posts.forEach((p) => state.x.posts.set(p.id, p)),
    },
    youtube: { setSubscriptions: (channelId, subscriptions) => void state.youtube.subscriptions.set(channelId, subscriptions) },
    tiktok: { setVideos: (openId, videos) => void state.tiktok.videos.set(openId, videos) },
    instagram: { setMedia: (userId, media) => void state.instagram.media.set(userId, media) },
    discord: {
      addGuild: (guild) => state.discord.addGuild(guild),
      addBot: (bot) => state.discord.addBot(bot),
      joinBot: (guildId, botUserId, roleIds) => state.discord.joinBot(guildId, botUserId, roleIds),
      setMember: (guildId, userId, member) => state.discord.setMember(guildId, userId, member),
      removeMember: (guildId, userId) => state.discord.removeMember(guildId, userId),
      memberRoles: (guildId, userId) => state.discord.memberRoles(guildId, userId),
      rateLimitNext: (count, retryAfterSeconds) => state.discord.rateLimitNext(count, retryAfterSeconds),
      roleRequests: state.discord.roleRequests,
    },
    tokenRequests: state.tokenRequests,
    apiRequests: state.apiRequests,
    reset: () => state.reset(),
    stop: () => Promise.all(servers.map(close)).then(() => undefined),
  };
}

/** Records the request, answers an injected fault if one is due, else the provider's router. */
async function serveApi(provider: FakeProvider, state: FakeState, router: ApiRouter, req: IncomingMessage, origin: string) {
  const url = new URL(req.url ?? "/", origin);
  const raw = req.method === "POST" || req.method === "PUT" ? await readBody(req) : "";
  const body = parseJson(raw);
  const bearer = bearerToken(req);
  const bot = provider === "discord" ? botToken(req) : null;
  const queryToken = provider === "instagram" ? url.searchParams.get("access_token") : null;
  const query = Object.fromEntries([...url.searchParams].filter(([name]) => name !== "access_token" && name !== "client_secret"));
  const record: ApiRequestRecord = {
    method: req.method ?? "GET",
    path: url.pathname,
    query,
    authorization: bearer ? "bearer" : bot ? "bot" : queryToken ? "query" : "none",
    body,
    status: 0,
  };
  state.apiRequests[provider].push(record);
  const fault = state.takeFault(provider, url.pathname);
  const answer = fault
    ? faultAnswer(provider, fault, state.now())
    : router({ provider, method: req.method ?? "GET", url, body, token: bearer ?? queryToken, botToken: bot, headers: req.headers, state });
  record.status = answer.status;
  return answer;
}

/** A JSON body parsed; anything else as it came (none: undefined). */
function parseJson(raw: string): unknown {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function close(server: Server) {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
