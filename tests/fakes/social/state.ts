/**
 * What the social fakes know: accounts, the tokens they issued and whose they are, what each
 * account did (follows, likes, posts, subscriptions; Discord's guilds and members), the failures
 * to answer next, and every request received. One instance is shared by the providers' servers.
 */
import { randomBytes } from "node:crypto";
import { DiscordState } from "./discord-state.ts";
import type { FakeProvider } from "./endpoints.ts";

export const PROVIDERS = ["x", "youtube", "tiktok", "instagram", "discord"] as const satisfies readonly FakeProvider[];

export type FakeAccount = {
  id: string;
  handle: string;
  name: string;
  avatarUrl: string;
  /** Instagram only (default BUSINESS). */
  accountType?: "BUSINESS" | "MEDIA_CREATOR" | "PERSONAL";
  /** When the account was created, as X and YouTube give it (default FAKE_ACCOUNT_CREATED_AT). */
  createdAt?: string;
  /** Followers or subscribers, as X, YouTube, TikTok (with user.info.stats) and Instagram give them (default 0). */
  followers?: number;
};

/** When a fake account was created, unless a test says. */
export const FAKE_ACCOUNT_CREATED_AT = "2020-01-01T00:00:00.000Z";

/** Whose a token is and what it may do. */
export type FakeGrant = { account: FakeAccount; scopes: string[] };

/** A failure a fake answers instead of the real thing, in the provider's own words (see errors.ts). */
export type FakeFault =
  /** The token refused: X/YouTube/TikTok 401, Instagram error 190 (HTTP 400). */
  | { kind: "unauthorized" }
  /** A scope missing: X 403, YouTube 403 insufficientPermissions, TikTok scope_not_authorized, Instagram error 10. */
  | { kind: "missing_scope" }
  | {
      kind: "rate_limited";
      /** X: `x-rate-limit-reset` (default: 15 minutes from now). */
      resetAt?: Date;
      /** YouTube (rateLimitExceeded) and TikTok: `retry-after`; Instagram: `x-business-use-case-usage` estimated_time_to_regain_access (minutes, rounded up). */
      retryAfterSeconds?: number;
      /** YouTube's reason (default quotaExceeded). */
      youtubeReason?: "quotaExceeded" | "rateLimitExceeded" | "userRateLimitExceeded";
      /** Instagram's error code (default 17, the per-user limit). */
      instagramCode?: 4 | 17 | 32 | 613;
    }
  | { kind: "server_error"; status?: 500 | 502 | 503 }
  /** 200 with a body that is not JSON. */
  | { kind: "malformed" };

export type XUser = { id: string; username: string; name: string; profileImageUrl?: string; createdAt?: string; followers?: number };
export type XPost = {
  id: string;
  authorId: string;
  /** Links in it are served as `https://t.co/…`, their targets in `entities.urls`, as X does. */
  text: string;
  /** ISO 8601. */
  createdAt: string;
  reply?: boolean;
  repost?: boolean;
};
export type YoutubeSubscription = { channelId: string; id?: string; publishedAt?: string; title?: string };
export type TiktokVideo = { id: string; video_description: string; create_time: number; share_url: string; title?: string };
export type InstagramMedia = { id: string; caption?: string; timestamp: string; permalink: string; media_type?: "IMAGE" | "VIDEO" | "CAROUSEL_ALBUM" };

export type TokenRequestRecord = {
  grantType: string;
  /** Client credentials in an `Authorization: Basic` header. */
  basicAuth: boolean;
  /** The client id as sent (Basic, `client_id` or TikTok's `client_key`). */
  clientId: string | null;
  clientKey: boolean;
  /** `client_secret` in the form (in the query for Instagram's token exchange). */
  clientSecretInBody: boolean;
  codeVerifier: boolean;
  redirectUri: string | null;
  status: number;
};

export type ApiRequestRecord = {
  method: string;
  path: string;
  query: Record<string, string>;
  /** How the token came: `Authorization: Bearer`, Discord's `Authorization: Bot`, Instagram's `access_token` query parameter, or not at all. */
  authorization: "bearer" | "bot" | "query" | "none";
  body: unknown;
  status: number;
};

/** What each provider's fake checks its endpoints against; `issueToken` grants all of it by default. */
export const FULL_SCOPES: Record<FakeProvider, string[]> = {
  x: ["users.read", "tweet.read", "follows.read", "like.read", "offline.access"],
  youtube: ["https://www.googleapis.com/auth/youtube.readonly"],
  tiktok: ["user.info.basic", "user.info.profile", "video.list"],
  instagram: ["instagram_business_basic"],
  discord: ["identify", "guilds", "guilds.members.read"],
};

/** Who logs in when no test said (`nextAccount`): also the dev script's demo member. */
export const DEFAULT_ACCOUNTS: Record<FakeProvider, FakeAccount> = {
  x: { id: "1790000000000000001", handle: "questline_member", name: "Questline Member", avatarUrl: "https://pbs.twimg.com/profile_images/1/member_normal.png" },
  youtube: { id: "UCmemberAAAAAAAAAAAAAAAA", handle: "questlinemember", name: "Questline Member", avatarUrl: "https://yt3.ggpht.com/member=s88" },
  tiktok: { id: "-000memberOpenId", handle: "questline.member", name: "Questline Member", avatarUrl: "https://p16-sign.tiktokcdn.com/member.jpeg" },
  instagram: {
    id: "17841400000000001",
    handle: "questline.member",
    name: "Questline Member",
    avatarUrl: "https://scontent.cdninstagram.com/member.jpg",
    accountType: "BUSINESS",
  },
  discord: {
    id: "800000000000000001",
    handle: "questline_member",
    name: "Questline Member",
    avatarUrl: "https://cdn.discordapp.com/avatars/800000000000000001/a1b2c3d4.png",
  },
};

type IssuedToken = FakeGrant & { expiresAt: number };
type Fault = { fault: FakeFault; times: number; path?: string };
const perProvider = <T>(make: () => T) => Object.fromEntries(PROVIDERS.map((p) => [p, make()])) as Record<FakeProvider, T>;

export const newToken = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;

export class FakeState {
  now: () => number;
  readonly xAppToken: string;
  readonly accounts = perProvider(() => new Map<string, FakeAccount>());
  readonly accessTokens = perProvider(() => new Map<string, IssuedToken>());
  readonly refreshTokens = perProvider(() => new Map<string, FakeGrant>());
  readonly pendingLogins = perProvider((): { account: FakeAccount; scopes?: string[] }[] => []);
  readonly faults = perProvider((): Fault[] => []);
  readonly tokenRequests = perProvider((): TokenRequestRecord[] => []);
  readonly apiRequests = perProvider((): ApiRequestRecord[] => []);

  readonly x = {
    users: new Map<string, XUser>(),
    following: new Map<string, string[]>(),
    likes: new Map<string, string[]>(),
    reposts: new Map<string, string[]>(),
    posts: new Map<string, XPost>(),
  };
  readonly youtube = { subscriptions: new Map<string, YoutubeSubscription[]>() };
  readonly tiktok = { videos: new Map<string, TiktokVideo[]>() };
  readonly instagram = { media: new Map<string, InstagramMedia[]>() };
  /** Guilds, bots, members and their roles, rate limits, role requests (discord-state.ts). */
  readonly discord = new DiscordState(() => this.now());

  constructor({ now = () => Date.now(), xAppToken = "x-app-bearer-token" }: { now?: () => number; xAppToken?: string } = {}) {
    this.now = now;
    this.xAppToken = xAppToken;
  }

  /** Forgets everything but the servers: accounts, tokens, data, faults and records. */
  reset() {
    for (const p of PROVIDERS) {
      for (const collection of [this.accounts, this.accessTokens, this.refreshTokens]) collection[p].clear();
      for (const list of [this.pendingLogins, this.faults, this.tokenRequests, this.apiRequests]) list[p].length = 0;
    }
    for (const map of [...Object.values(this.x), ...Object.values(this.youtube), ...Object.values(this.tiktok), ...Object.values(this.instagram)]) map.clear();
    this.discord.reset();
  }

  remember(provider: FakeProvider, account: FakeAccount) {
    this.accounts[provider].set(account.id, account);
    if (provider === "x")
      this.x.users.set(account.id, {
        id: account.id,
        username: account.handle,
        name: account.name,
        profileImageUrl: account.avatarUrl,
        createdAt: account.createdAt,
        followers: account.followers,
      });
  }

  /** Who the next authorization logs in as, and the scopes they grant (null: what the app asked for). */
  takeLogin(provider: FakeProvider): { account: FakeAccount; scopes: string[] | null } {
    const next = this.pendingLogins[provider].shift();
    const account = next?.account ?? DEFAULT_ACCOUNTS[provider];
    this.remember(provider, account);
    return { account, scopes: next?.scopes ?? null };
  }

  issueAccess(provider: FakeProvider, grant: FakeGrant, expiresInSeconds: number, token = newToken(`${provider}-at-`)) {
    this.accessTokens[provider].set(token, { ...grant, expiresAt: this.now() + expiresInSeconds * 1000 });
    return token;
  }

  issueRefresh(provider: FakeProvider, grant: FakeGrant) {
    const token = newToken(`${provider}-rt-`);
    this.refreshTokens[provider].set(token, grant);
    return token;
  }

  /** The grant behind an access token, if it is known and not expired. */
  grantOf(provider: FakeProvider, token: string | null): { ok: true; grant: FakeGrant } | { ok: false; why: "missing" | "invalid" | "expired" } {
    if (!token) return { ok: false, why: "missing" };
    const issued = this.accessTokens[provider].get(token);
    if (!issued) return { ok: false, why: "invalid" };
    if (this.now() >= issued.expiresAt) return { ok: false, why: "expired" };
    return { ok: true, grant: issued };
  }

  revoke(provider: FakeProvider, accountId: string) {
    for (const tokens of [this.accessTokens[provider], this.refreshTokens[provider]]) {
      for (const [token, grant] of tokens) if (grant.account.id === accountId) tokens.delete(token);
    }
  }

  failNext(provider: FakeProvider, fault: FakeFault, { times = 1, path }: { times?: number; path?: string } = {}) {
    this.faults[provider].push({ fault, times, ...(path ? { path } : {}) });
  }

  /**
   * The failure this request answers with, if one is queued for its path (a trailing slash aside).
   * OAuth endpoints (`named`) take only faults queued with their path; API endpoints any.
   */
  takeFault(provider: FakeProvider, path: string, { named = false }: { named?: boolean } = {}): FakeFault | null {
    const queue = this.faults[provider];
    const bare = (p: string) => (p.length > 1 ? p.replace(/\/$/, "") : p);
    const at = queue.findIndex((f) => (f.path ? bare(path).startsWith(bare(f.path)) : !named));
    if (at === -1) return null;
    const entry = queue[at]!;
    if (--entry.times <= 0) queue.splice(at, 1);
    return entry.fault;
  }
}
