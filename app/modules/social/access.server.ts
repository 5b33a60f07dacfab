import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { account } from "#db/schema/auth";
import { socialAccount } from "#db/schema/social";
import type { Db } from "~/lib/db.server";
import type { ProviderCall } from "./checks/outcome";
import { PROVIDER_LABELS, type SocialProvider } from "./providers";
import { oauthConfigOf, type ProviderConfig, type SocialConfig } from "./social-config.server";
import { decryptToken, encryptToken } from "~/lib/secret-box.server";
import { refreshInstagramToken } from "./checks/instagram.server";

/** Why a member's social account cannot be used right now, in words that say what to do next. */
export type AccessRefusal = { ok: false; reason: "not_set_up" | "not_connected" | "needs_reconnect" | "missing_scope" | "unavailable"; message: string };

/** A working token for one member's account on one provider, ready for a check. */
export type SocialAccess = { ok: true; call: ProviderCall; accountId: string; handle: string; scopes: string[]; method: "oauth" | "code" } | AccessRefusal;

/** A token is refreshed when it would expire within this margin (Instagram's long-lived tokens: within a week). */
const REFRESH_MARGIN_MS = 60_000;
const INSTAGRAM_REFRESH_MARGIN_MS = 7 * 24 * 3600_000;

const where = (provider: SocialProvider) => `Settings › Connections › ${PROVIDER_LABELS[provider]}`;

export const accessRefusals = {
  notSetUp: (provider: SocialProvider): AccessRefusal => ({
    ok: false,
    reason: "not_set_up",
    message: `${PROVIDER_LABELS[provider]} is not set up on this server.`,
  }),
  notConnected: (provider: SocialProvider): AccessRefusal => ({
    ok: false,
    reason: "not_connected",
    message: `Connect your ${PROVIDER_LABELS[provider]} account first (${where(provider)}).`,
  }),
  needsReconnect: (provider: SocialProvider): AccessRefusal => ({
    ok: false,
    reason: "needs_reconnect",
    message: `${PROVIDER_LABELS[provider]} no longer accepts your connection. Reconnect it in ${where(provider)}, then try again.`,
  }),
  missingScope: (provider: SocialProvider, scope: string): AccessRefusal => ({
    ok: false,
    reason: "missing_scope",
    message: `Your ${PROVIDER_LABELS[provider]} connection does not allow this check (${scope}). Reconnect it in ${where(provider)} and allow every permission asked.`,
  }),
  unavailable: (provider: SocialProvider): AccessRefusal => ({
    ok: false,
    reason: "unavailable",
    message: `${PROVIDER_LABELS[provider]} could not be reached. Nothing changed: try again in a minute.`,
  }),
};

/** Granted scopes, as the provider listed them (space- or comma-separated). */
export const scopesOf = (scope: string | null) => (scope ?? "").split(/[\s,]+/).filter(Boolean);

/**
 * A working access token for the member's account on `provider`, refreshed first when it is about
 * to expire. A refresh the provider refuses marks the account "needs reconnecting". An account
 * proven by a posted code has no token of its own: X checks use the app's token when configured.
 */
export async function socialAccess({
  db,
  social,
  userId,
  provider,
  needs = [],
  now = new Date(),
  fetchFn = fetch,
}: {
  db: Db;
  social: SocialConfig;
  userId: string;
  provider: SocialProvider;
  /** Scopes the check needs. */
  needs?: readonly string[];
  now?: Date;
  fetchFn?: typeof fetch;
}): Promise<SocialAccess> {
  const config = oauthConfigOf(social, provider);
  if (!config) return accessRefusals.notSetUp(provider);
  const [row] = await db
    .select({ account, profile: socialAccount })
    .from(account)
    .leftJoin(socialAccount, and(eq(socialAccount.provider, account.providerId), eq(socialAccount.accountId, account.accountId)))
    .where(and(eq(account.userId, userId), eq(account.providerId, provider)));
  if (!row) return accessRefusals.notConnected(provider);
  const handle = row.profile?.handle ?? "";
  const base = { accountId: row.account.accountId, handle, fetch: fetchFn, now };

  if (row.profile?.method === "code") {
    if (provider !== "x" || !social.xBearerToken) return accessRefusals.notConnected(provider);
    return {
      ok: true,
      method: "code",
      scopes: [],
      accountId: base.accountId,
      handle,
      call: { provider, apiUrl: config.apiUrl, accessToken: social.xBearerToken, fetch: fetchFn, now },
    };
  }
  if (row.profile?.status === "needs_reconnect") return accessRefusals.needsReconnect(provider);
  const scopes = scopesOf(row.account.scope);
  const missing = needs.find((scope) => !scopes.includes(scope));
  if (missing) return accessRefusals.missingScope(provider, missing);

  let token = row.account.accessToken ? decryptToken(social.tokenKey, row.account.accessToken) : null;
  const margin = provider === "instagram" ? INSTAGRAM_REFRESH_MARGIN_MS : REFRESH_MARGIN_MS;
  const expiring = row.account.accessTokenExpiresAt && row.account.accessTokenExpiresAt.getTime() - now.getTime() < margin;
  if (!token || expiring) {
    const refreshed = await refreshAccount({ db, social, config, provider, accountRowId: row.account.id, now, fetchFn });
    if (!refreshed.ok) return refreshed;
    token = refreshed.accessToken;
  }
  return {
    ok: true,
    method: "oauth",
    scopes,
    accountId: base.accountId,
    handle,
    call: { provider, apiUrl: config.apiUrl, accessToken: token, fetch: fetchFn, now },
  };
}

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().positive().optional(),
  refresh_expires_in: z.coerce.number().positive().optional(),
  scope: z.string().optional(),
});

type Renewed = { accessToken: string; refreshToken?: string; expiresAt: Date | null; refreshExpiresAt?: Date; scope?: string };
/** A renewal's outcome: new tokens, refused by the provider (the member must reconnect), or not reached. */
type Renewal = { kind: "renewed"; tokens: Renewed } | { kind: "refused" } | { kind: "unavailable" };

/**
 * Refreshes one account's tokens. X's refresh tokens are single-use, so two refreshes may race:
 * the new tokens are written only over the refresh token they replace, and a loser (or a refusal
 * that raced a winner) takes the winner's token instead of marking the account broken.
 */
async function refreshAccount({
  db,
  social,
  config,
  provider,
  accountRowId,
  now,
  fetchFn,
}: {
  db: Db;
  social: SocialConfig;
  config: ProviderConfig;
  provider: SocialProvider;
  accountRowId: string;
  now: Date;
  fetchFn: typeof fetch;
}): Promise<{ ok: true; accessToken: string } | AccessRefusal> {
  const [current] = await db.select().from(account).where(eq(account.id, accountRowId));
  if (!current) return accessRefusals.notConnected(provider);
  // Instagram renews the long-lived access token itself; the others trade their refresh token.
  const replaced =
    provider === "instagram" ? { column: account.accessToken, value: current.accessToken } : { column: account.refreshToken, value: current.refreshToken };
  const plain = replaced.value ? decryptToken(social.tokenKey, replaced.value) : null;
  if (!plain) {
    await markNeedsReconnect({ db, provider, accountId: current.accountId, reason: "The connection has no token that can be renewed.", now });
    return accessRefusals.needsReconnect(provider);
  }
  /** The token another refresh stored meanwhile, if one did: the one the provider now honours. */
  const winnersToken = async () => {
    const [after] = await db.select({ accessToken: account.accessToken, replaced: replaced.column }).from(account).where(eq(account.id, accountRowId));
    return after && after.replaced !== replaced.value && after.accessToken ? decryptToken(social.tokenKey, after.accessToken) : null;
  };

  const renewal = await renew(provider, config, plain, fetchFn, now);
  if (renewal.kind !== "renewed") {
    const won = await winnersToken();
    if (won) return { ok: true, accessToken: won };
    if (renewal.kind === "unavailable") return accessRefusals.unavailable(provider);
    await markNeedsReconnect({ db, provider, accountId: current.accountId, reason: `${PROVIDER_LABELS[provider]} refused to renew the connection.`, now });
    return accessRefusals.needsReconnect(provider);
  }

  const { tokens } = renewal;
  const updated = await db
    .update(account)
    .set({
      accessToken: encryptToken(social.tokenKey, tokens.accessToken),
      ...(tokens.refreshToken ? { refreshToken: encryptToken(social.tokenKey, tokens.refreshToken) } : {}),
      accessTokenExpiresAt: tokens.expiresAt,
      ...(tokens.refreshExpiresAt ? { refreshTokenExpiresAt: tokens.refreshExpiresAt } : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      updatedAt: now,
    })
    .where(and(eq(account.id, accountRowId), eq(replaced.column, replaced.value!)))
    .returning({ id: account.id });
  if (updated.length === 0) {
    const won = await winnersToken();
    return won ? { ok: true, accessToken: won } : accessRefusals.needsReconnect(provider);
  }
  await recordTokenWorked({ db, provider, accountId: current.accountId, now });
  return { ok: true, accessToken: tokens.accessToken };
}

/** Asks the provider for new tokens, the way each expects (Instagram through its own client, checks/instagram.server.ts). */
async function renew(provider: SocialProvider, config: ProviderConfig, secret: string, fetchFn: typeof fetch, now: Date): Promise<Renewal> {
  if (provider === "instagram") {
    const answer = await refreshInstagramToken({ apiUrl: config.apiUrl, accessToken: secret, fetch: fetchFn, now });
    if (answer.kind === "token") return { kind: "renewed", tokens: { accessToken: answer.accessToken, expiresAt: answer.expiresAt } };
    return answer.kind === "needs_reconnect" || answer.kind === "missing_scope" ? { kind: "refused" } : { kind: "unavailable" };
  }
  const fields: Record<string, string> = { grant_type: "refresh_token", refresh_token: secret };
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (provider === "x") {
    // X authenticates its confidential clients with HTTP Basic.
    fields.client_id = config.clientId;
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString("base64")}`;
  } else {
    // TikTok names the client `client_key`.
    fields[provider === "tiktok" ? "client_key" : "client_id"] = config.clientId;
    fields.client_secret = config.clientSecret;
  }
  let response: Response;
  try {
    response = await fetchFn(config.tokenUrl, { method: "POST", headers, body: new URLSearchParams(fields).toString(), signal: AbortSignal.timeout(10_000) });
  } catch {
    return { kind: "unavailable" };
  }
  if (response.status >= 500 || response.status === 429) return { kind: "unavailable" };
  if (!response.ok) return { kind: "refused" };
  const parsed = tokenAnswer.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return { kind: "unavailable" };
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const t = parsed.data;
  return {
    kind: "renewed",
    tokens: {
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      expiresAt: t.expires_in ? at(t.expires_in) : null,
      refreshExpiresAt: t.refresh_expires_in ? at(t.refresh_expires_in) : undefined,
      scope: t.scope,
    },
  };
}

/** The provider refused the account's token: the member must connect again (shown on the connection's page and on tasks). */
export async function markNeedsReconnect({
  db,
  provider,
  accountId,
  reason,
  now = new Date(),
}: {
  db: Db;
  provider: SocialProvider;
  accountId: string;
  reason: string;
  now?: Date;
}) {
  await db
    .update(socialAccount)
    .set({ status: "needs_reconnect", statusReason: reason, updatedAt: now })
    .where(and(eq(socialAccount.provider, provider), eq(socialAccount.accountId, accountId)));
}

/** The token just worked (a refresh or an API answer). */
export async function recordTokenWorked({ db, provider, accountId, now = new Date() }: { db: Db; provider: SocialProvider; accountId: string; now?: Date }) {
  await db
    .update(socialAccount)
    .set({ checkedAt: now, updatedAt: now })
    .where(and(eq(socialAccount.provider, provider), eq(socialAccount.accountId, accountId)));
}
