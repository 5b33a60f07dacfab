import { genericOAuth } from "better-auth/plugins";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "better-auth/plugins/generic-oauth";
import { and, eq, gt, ne } from "drizzle-orm";
import { z } from "zod";
import { account } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { fetchInstagramProfile, exchangeInstagramToken } from "./checks/instagram.server";
import type { ProfileOutcome, ProviderCall } from "./checks/outcome";
import { fetchTiktokProfile } from "./checks/tiktok.server";
import { fetchXProfile } from "./checks/x.server";
import { fetchYoutubeProfile } from "./checks/youtube.server";
import { fetchDiscordProfile } from "./checks/discord.server";
import { OAUTH_PROVIDERS, PROVIDER_SCOPES, RELINK_WAIT_DAYS, isSocialProvider, type OAuthProvider, type SocialProvider } from "./providers";
import type { ProviderConfig, SocialConfig } from "./social-config.server";
import { encryptToken, isEncryptedToken } from "~/lib/secret-box.server";

/** Error codes a refused link comes back to the connection's page with (`?error=`), beside better-auth's own. */
export const LINK_ERRORS = {
  relinkWait: "relink_wait",
  onePerProvider: "one_per_provider",
  instagramPersonal: "instagram_personal",
  profileUnavailable: "profile_unavailable",
  youtubeNoChannel: "youtube_no_channel",
} as const;

const PROFILE_FETCHERS: Record<OAuthProvider, (call: ProviderCall) => Promise<ProfileOutcome>> = {
  x: fetchXProfile,
  youtube: fetchYoutubeProfile,
  tiktok: fetchTiktokProfile,
  instagram: fetchInstagramProfile,
  discord: fetchDiscordProfile,
};

/** What `getUserInfo` hands better-auth: the account's id, and why it cannot link when it cannot. */
type LinkProfile = { id: string; name: string; image: string | null; refusal?: string };

/**
 * Reads the connecting account's public profile with its fresh token and keeps it (handle, name,
 * avatar) on the account's `social_account` row, so the connection's page can show it, with its
 * creation time and followers where the provider gives them (trust signals). The link itself is
 * decided later by better-auth and `validateSocialLink`.
 */
export async function readProfile({
  db,
  provider,
  config,
  accessToken,
  logger,
}: {
  db: Db;
  provider: OAuthProvider;
  config: ProviderConfig;
  accessToken: string;
  logger: Logger;
}): Promise<LinkProfile | null> {
  const answer = await PROFILE_FETCHERS[provider]({ provider, apiUrl: config.apiUrl, accessToken });
  if (answer.kind === "no_channel") return { id: "none", name: "", image: null, refusal: LINK_ERRORS.youtubeNoChannel };
  if (answer.kind !== "profile" && answer.kind !== "personal_account") {
    const detail = answer.kind === "malformed" ? answer.detail : undefined;
    logger.warn({ component: "social", provider, kind: answer.kind, detail }, "could not read the connecting account's profile");
    return null;
  }
  const { profile } = answer;
  const now = new Date();
  const values = {
    handle: profile.handle,
    displayName: profile.displayName,
    avatarUrl: profile.avatarUrl,
    accountCreatedAt: profile.accountCreatedAt ?? null,
    followers: profile.followers ?? null,
    updatedAt: now,
  };
  await db
    .insert(socialAccount)
    .values({ provider, accountId: profile.id, ...values })
    .onConflictDoUpdate({ target: [socialAccount.provider, socialAccount.accountId], set: values });
  return {
    id: profile.id,
    name: profile.displayName || profile.handle,
    image: profile.avatarUrl,
    refusal: answer.kind === "personal_account" ? LINK_ERRORS.instagramPersonal : undefined,
  };
}

const instagramTokenAnswer = z.union([
  z.object({
    access_token: z.string().min(1),
    user_id: z.union([z.string(), z.number()]).optional(),
    permissions: z.union([z.string(), z.array(z.string())]).optional(),
  }),
  z.object({
    data: z
      .array(
        z.object({
          access_token: z.string().min(1),
          user_id: z.union([z.string(), z.number()]).optional(),
          permissions: z.union([z.string(), z.array(z.string())]).optional(),
        }),
      )
      .min(1),
  }),
]);

const tiktokTokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number(),
  refresh_expires_in: z.number().optional(),
  open_id: z.string().min(1),
  scope: z.string().default(""),
  token_type: z.string().default("Bearer"),
});

const form = (body: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
  body: new URLSearchParams(body).toString(),
  signal: AbortSignal.timeout(10_000),
});

/** The four providers' OAuth settings for better-auth's generic OAuth plugin: only the configured ones. */
function providerConfigs({ db, social, logger }: { db: Db; social: SocialConfig; logger: Logger }): GenericOAuthConfig[] {
  const configs: GenericOAuthConfig[] = [];
  const base = (provider: OAuthProvider, config: ProviderConfig) => ({
    providerId: provider,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorizationUrl: config.authorizeUrl,
    tokenUrl: config.tokenUrl,
    scopes: [...PROVIDER_SCOPES[provider]],
    // Connecting links an account to a signed-in member; it never signs anyone up or in.
    disableSignUp: true,
    async getUserInfo(tokens: { accessToken?: string }): Promise<GenericOAuthUserInfo | null> {
      if (!tokens.accessToken) return null;
      const profile = await readProfile({ db, provider, config, accessToken: tokens.accessToken, logger });
      if (!profile) return null;
      return { id: profile.id, name: profile.name, image: profile.image ?? undefined, email: null, emailVerified: false, refusal: profile.refusal ?? null };
    },
  });

  const { x, youtube, tiktok, instagram, discord } = social.providers;
  if (x) configs.push({ ...base("x", x), authentication: "basic", pkce: true });
  if (youtube) configs.push({ ...base("youtube", youtube), pkce: true, accessType: "offline", prompt: "consent" });
  // Discord: the authorization code with PKCE; `prompt=none` would skip the consent a relink needs.
  if (discord) configs.push({ ...base("discord", discord), pkce: true, prompt: "consent" });
  if (tiktok) {
    configs.push({
      ...base("tiktok", tiktok),
      // TikTok names the client `client_key` and separates scopes with commas.
      scopes: [PROVIDER_SCOPES.tiktok.join(",")],
      authorizationUrlParams: { client_key: tiktok.clientId },
      pkce: true,
      async getToken({ code, redirectURI, codeVerifier }) {
        const response = await fetch(
          tiktok.tokenUrl,
          form({
            client_key: tiktok.clientId,
            client_secret: tiktok.clientSecret,
            code,
            grant_type: "authorization_code",
            redirect_uri: redirectURI,
            ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
          }),
        );
        const tokens = tiktokTokenAnswer.parse(await response.json());
        const now = Date.now();
        return {
          tokenType: tokens.token_type,
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          accessTokenExpiresAt: new Date(now + tokens.expires_in * 1000),
          refreshTokenExpiresAt: tokens.refresh_expires_in ? new Date(now + tokens.refresh_expires_in * 1000) : undefined,
          scopes: tokens.scope.split(",").filter(Boolean),
        };
      },
    });
  }
  if (instagram) {
    configs.push({
      ...base("instagram", instagram),
      scopes: [PROVIDER_SCOPES.instagram.join(",")],
      // Instagram's login does not take PKCE; its short-lived token is swapped for a 60-day one at once.
      pkce: false,
      async getToken({ code, redirectURI }) {
        const response = await fetch(
          instagram.tokenUrl,
          form({ client_id: instagram.clientId, client_secret: instagram.clientSecret, grant_type: "authorization_code", redirect_uri: redirectURI, code }),
        );
        const answer = instagramTokenAnswer.parse(await response.json());
        const short = "data" in answer ? answer.data[0]! : answer;
        const long = await exchangeInstagramToken({ apiUrl: instagram.apiUrl, clientSecret: instagram.clientSecret, shortLivedToken: short.access_token });
        if (long.kind !== "token") throw new Error(`Instagram refused the long-lived token (${long.kind})`);
        const permissions = typeof short.permissions === "string" ? short.permissions.split(",") : (short.permissions ?? [...PROVIDER_SCOPES.instagram]);
        return {
          tokenType: "bearer",
          accessToken: long.accessToken,
          accessTokenExpiresAt: long.expiresAt,
          scopes: permissions,
        };
      },
    });
  }
  return configs;
}

export function socialOAuthPlugin(deps: { db: Db; social: SocialConfig; logger: Logger }) {
  return genericOAuth({ config: providerConfigs(deps) });
}

/** better-auth's `account.trustedProviders`: linking a social account needs no matching e-mail (X and TikTok give none). */
export const SOCIAL_TRUSTED_PROVIDERS: string[] = [...OAUTH_PROVIDERS, "telegram"];

/**
 * Called by better-auth before it links a social account to a member (`user.validateUserInfo`).
 * Refuses, with a code the connection's page puts in words: what reading the profile refused (an
 * Instagram personal account, a Google account without a YouTube channel); a second account of the same provider; an account another member
 * unlinked less than 30 days ago. An account linked to another member now is refused by
 * better-auth itself (and by the unique index on `account`).
 */
export async function validateSocialLink({
  db,
  userId,
  providerId,
  profile,
  now = new Date(),
}: {
  db: Db;
  userId: string;
  providerId: string;
  profile: unknown;
  now?: Date;
}) {
  if (!isSocialProvider(providerId)) return null;
  const fields = z.object({ id: z.union([z.string(), z.number()]).optional(), refusal: z.string().nullish() }).safeParse(profile);
  if (fields.success && fields.data.refusal) return { error: fields.data.refusal };
  const accountId = fields.success && fields.data.id !== undefined ? String(fields.data.id) : null;
  if (!accountId) return { error: LINK_ERRORS.profileUnavailable };

  const [other] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, providerId), ne(account.accountId, accountId)));
  if (other) return { error: LINK_ERRORS.onePerProvider };

  if (await waitsToRelink({ db, provider: providerId, accountId, userId, now })) return { error: LINK_ERRORS.relinkWait };
  return null;
}

/** Whether another member let this account go less than 30 days ago, so `userId` may not link it yet (its last holder may). */
export async function waitsToRelink({
  db,
  provider,
  accountId,
  userId,
  now,
}: {
  db: Db;
  provider: SocialProvider;
  accountId: string;
  userId: string;
  now: Date;
}) {
  const waitFrom = new Date(now.getTime() - RELINK_WAIT_DAYS * 86_400_000);
  const [recent] = await db
    .select({ accountId: socialAccount.accountId })
    .from(socialAccount)
    .where(
      and(
        eq(socialAccount.provider, provider),
        eq(socialAccount.accountId, accountId),
        ne(socialAccount.lastUserId, userId),
        gt(socialAccount.unlinkedAt, waitFrom),
      ),
    );
  return Boolean(recent);
}

/** Encrypts a social account's tokens before better-auth writes them (AES-256-GCM, SOCIAL_TOKEN_KEY). */
export function encryptAccountTokens<T extends { accessToken?: string | null; refreshToken?: string | null; idToken?: string | null }>(
  key: Buffer,
  data: T,
): T {
  const seal = (value: string | null | undefined) => (value && !isEncryptedToken(value) ? encryptToken(key, value) : value);
  return { ...data, accessToken: seal(data.accessToken), refreshToken: seal(data.refreshToken), idToken: seal(data.idToken) };
}

/**
 * After a link (new or renewed, through the provider or by a posted code): the account is the
 * member's, its token works, nothing waits.
 */
export async function recordSocialLink({
  db,
  providerId,
  accountId,
  userId,
  method = "oauth",
  handle,
  now = new Date(),
}: {
  db: Db;
  providerId: string;
  accountId: string;
  userId: string;
  method?: "oauth" | "code" | "widget";
  /** Known here only for a code (a connection's profile was kept when it was read). */
  handle?: string;
  now?: Date;
}) {
  if (!isSocialProvider(providerId)) return;
  const values = {
    ...(handle === undefined ? {} : { handle }),
    method,
    status: "active" as const,
    statusReason: null,
    checkedAt: now,
    lastUserId: userId,
    unlinkedAt: null,
    updatedAt: now,
  };
  await db
    .insert(socialAccount)
    .values({ provider: providerId, accountId, ...values })
    .onConflictDoUpdate({ target: [socialAccount.provider, socialAccount.accountId], set: values });
}
