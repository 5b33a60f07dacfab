/**
 * Each provider's OAuth 2.0 authorize and token endpoints, served by oauth2-mock-server (its
 * /authorize redirects straight back with a code: there is no login page) and reshaped through its
 * events into the provider's own protocol:
 *
 *   X          /i/oauth2/authorize, POST /2/oauth2/token: client auth HTTP Basic, PKCE S256 required,
 *              refresh tokens (with offline.access) rotate on use
 *   YouTube    /o/oauth2/v2/auth, POST /token: client_secret_post or Basic, PKCE optional
 *   TikTok     /v2/auth/authorize/ (`client_key`), POST /v2/oauth/token/ (client_key, client_secret
 *              in the form): answers with `open_id`, `refresh_expires_in`, comma-separated scopes
 *   Instagram  /oauth/authorize, POST /oauth/access_token: a one-hour token as {access_token, user_id,
 *              permissions} (or wrapped in {data:[…]}), no refresh grant (see instagram-api.ts)
 *   Discord    /oauth2/authorize, POST /api/oauth2/token: client auth in the form or Basic, PKCE S256
 *              required, a week-long token, refresh tokens rotate on use
 *
 * The library checks a PKCE verifier against its challenge itself; everything else (the client's
 * credentials, the code's owner and redirect_uri, refresh tokens, revocation) is checked here, in
 * its events, against the shared state. The library answers its own refusals (a verifier that does
 * not match) as problem+json: `reshapeLibraryErrors` rewrites those into the provider's error body.
 *
 * The library's `OAuth2Service` runs inside our own node:http server (one per provider, shared with
 * that provider's REST endpoints) rather than its `OAuth2Server`: its router matches exact paths
 * only, and the APIs need parameters in theirs (/2/users/:id/following). Instagram's long-lived
 * token exchange and refresh are plain GETs on its API host, not OAuth grants: instagram-api.ts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  Events,
  OAuth2Issuer,
  OAuth2Service,
  type MutableRedirectUri,
  type MutableResponse,
  type MutableToken,
  type TokenRequestIncomingMessage,
} from "oauth2-mock-server";
import type { FakeProvider } from "./endpoints.ts";
import { OAUTH_PATHS, type OAuthClient } from "./endpoints.ts";
import { faultAnswer } from "./errors.ts";
import { basicCredentials, json, listOf, logId, readBody, send } from "./http.ts";
import type { FakeFault, FakeGrant, FakeState } from "./state.ts";

export { OAUTH_PATHS, type OAuthClient } from "./endpoints.ts";

/** How long the providers' access tokens live, in seconds. */
const ACCESS_SECONDS: Record<FakeProvider, number> = { x: 7200, youtube: 3599, tiktok: 86_400, instagram: 3600, discord: 604_800 };
const TIKTOK_REFRESH_SECONDS = 31_536_000;

type CodeRecord = { grant: FakeGrant; redirectUri: string; pkce: boolean };
type TokenError = { status: number; error: string; description: string };
type Resolution = { ok: true; grant: FakeGrant; refreshToken: string | null } | ({ ok: false } & TokenError);

const normalize = (path: string) => (path.length > 1 ? path.replace(/\/$/, "") : path);

/** Serves the provider's authorize and token paths; answers false for any other path. */
export async function createOAuthEndpoints({
  provider,
  state,
  origin,
  client,
  instagramTokenShape = "flat",
}: {
  provider: FakeProvider;
  state: FakeState;
  origin: string;
  client: OAuthClient;
  instagramTokenShape?: "flat" | "wrapped";
}): Promise<(req: IncomingMessage, res: ServerResponse) => boolean> {
  const issuer = new OAuth2Issuer();
  issuer.url = origin;
  await issuer.keys.generate("RS256");
  const service = new OAuth2Service(issuer, OAUTH_PATHS[provider]);
  const codes = new Map<string, CodeRecord>();
  const resolutions = new WeakMap<IncomingMessage, Resolution>();

  service.on(Events.BeforeAuthorizeRedirect, (redirect: MutableRedirectUri, req: IncomingMessage) => {
    const code = redirect.url.searchParams.get("code");
    if (!code) return;
    const query = new URL(req.url ?? "/", origin).searchParams;
    const login = state.takeLogin(provider);
    const scopes = login.scopes ?? listOf(query.get("scope"));
    codes.set(code, { grant: { account: login.account, scopes }, redirectUri: query.get("redirect_uri") ?? "", pkce: query.has("code_challenge") });
    // What each provider adds to the callback.
    if (provider === "youtube") redirect.url.searchParams.set("scope", scopes.join(" "));
    if (provider === "tiktok") redirect.url.searchParams.set("scopes", scopes.join(","));
    if (provider === "instagram") redirect.url.hash = "_";
  });

  /** Checks the client, the code or refresh token; once per request (both events ask). */
  const resolve = (req: TokenRequestIncomingMessage): Resolution => {
    const known = resolutions.get(req);
    if (known) return known;
    const resolution = resolveToken(req);
    resolutions.set(req, resolution);
    return resolution;
  };

  const resolveToken = (req: TokenRequestIncomingMessage): Resolution => {
    const body = req.body as unknown as Record<string, unknown>;
    const field = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : null);
    const refused = (status: number, error: string, description: string): Resolution => ({ ok: false, status, error, description });

    const clientError = checkClient(provider, client, basicCredentials(req), field);
    if (clientError) return { ok: false, ...clientError };

    if (body.grant_type === "authorization_code") {
      const record = codes.get(field("code") ?? "");
      if (!record) return refused(400, "invalid_grant", "Value passed for the authorization code was invalid.");
      codes.delete(field("code")!);
      if (record.redirectUri !== field("redirect_uri")) return refused(400, "invalid_grant", "redirect_uri does not match the authorization request.");
      if (record.pkce && !field("code_verifier")) return refused(400, "invalid_request", "Missing required parameter: code_verifier.");
      return { ok: true, grant: record.grant, refreshToken: null };
    }
    if (body.grant_type === "refresh_token" && provider !== "instagram") {
      const token = field("refresh_token") ?? "";
      const grant = state.refreshTokens[provider].get(token);
      if (!grant) return refused(400, "invalid_grant", "Token has been expired or revoked.");
      return { ok: true, grant, refreshToken: token };
    }
    return refused(400, "unsupported_grant_type", `Grant type ${String(body.grant_type)} is not supported.`);
  };

  service.on(Events.BeforeTokenSigning, (token: MutableToken, req: TokenRequestIncomingMessage) => {
    const resolution = resolve(req);
    if (!resolution.ok) return;
    token.payload.sub = resolution.grant.account.id;
    token.payload.scope = resolution.grant.scopes.join(" ");
    delete token.payload.amr;
  });

  service.on(Events.BeforeResponse, (response: MutableResponse, req: TokenRequestIncomingMessage) => {
    const resolution = resolve(req);
    if (!resolution.ok) {
      response.statusCode = resolution.status;
      response.body = tokenError(provider, resolution.error, resolution.description);
      return;
    }
    const { grant } = resolution;
    const accessToken = String((response.body as { access_token?: unknown }).access_token);
    state.issueAccess(provider, grant, ACCESS_SECONDS[provider], accessToken);
    response.body = tokenAnswer(provider, state, grant, accessToken, resolution.refreshToken, instagramTokenShape);
  });

  const paths = OAUTH_PATHS[provider];
  return (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const path = normalize(url.pathname);
    if (req.method === "GET" && path === normalize(paths.authorize)) {
      const refusal = authorizeRefusal(provider, client, url.searchParams);
      if (refusal) {
        res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
        res.end(refusal);
        return true;
      }
    } else if (req.method === "POST" && path === normalize(paths.token)) {
      const fault = state.takeFault(provider, path, { named: true });
      if (fault) {
        void answerFault(provider, state, fault, req, res);
        return true;
      }
      reshapeLibraryErrors(provider, state, req, res);
    } else {
      return false;
    }
    service.requestHandler(req, res);
    return true;
  };
}

/** What the provider's consent page would refuse to show (it has no way to redirect back with an error). */
function authorizeRefusal(provider: FakeProvider, client: OAuthClient, query: URLSearchParams): string | null {
  const clientId = query.get(provider === "tiktok" ? "client_key" : "client_id");
  if (clientId !== client.clientId) return `Unknown ${provider === "tiktok" ? "client_key" : "client_id"}.`;
  if (!query.get("redirect_uri")) return "Missing redirect_uri.";
  if (query.get("response_type") !== "code") return "response_type must be code.";
  if ((provider === "x" || provider === "discord") && (query.get("code_challenge_method") !== "S256" || !query.get("code_challenge")))
    return `${provider === "x" ? "X" : "Discord"} requires PKCE with code_challenge_method=S256.`;
  return null;
}

function checkClient(
  provider: FakeProvider,
  client: OAuthClient,
  basic: { id: string; secret: string } | null,
  field: (name: string) => string | null,
): TokenError | null {
  const matches = (id: string | null, secret: string | null) => id === client.clientId && secret === client.clientSecret;
  switch (provider) {
    case "x":
      if (!basic) return { status: 401, error: "unauthorized_client", description: "Missing valid authorization header" };
      return matches(basic.id, basic.secret) ? null : { status: 401, error: "invalid_client", description: "Client authentication failed." };
    case "youtube":
    case "discord":
      return matches(basic?.id ?? field("client_id"), basic?.secret ?? field("client_secret"))
        ? null
        : { status: 401, error: "invalid_client", description: "Unauthorized" };
    case "tiktok":
      return matches(field("client_key"), field("client_secret"))
        ? null
        : { status: 401, error: "invalid_client", description: "Client key or secret is incorrect." };
    case "instagram":
      return matches(field("client_id"), field("client_secret")) ? null : { status: 400, error: "invalid_client", description: "Invalid platform app" };
  }
}

function tokenError(provider: FakeProvider, error: string, description: string): Record<string, unknown> {
  if (provider === "instagram") return { error_type: "OAuthException", code: 400, error_message: description };
  if (provider === "tiktok") return { error, error_description: description, log_id: logId() };
  return { error, error_description: description };
}

/** The token endpoint's success answer, in the provider's shape. */
function tokenAnswer(
  provider: FakeProvider,
  state: FakeState,
  grant: FakeGrant,
  accessToken: string,
  usedRefreshToken: string | null,
  instagramTokenShape: "flat" | "wrapped",
): Record<string, unknown> {
  const { account, scopes } = grant;
  switch (provider) {
    case "x": {
      // X rotates refresh tokens: the one used is spent.
      if (usedRefreshToken) state.refreshTokens.x.delete(usedRefreshToken);
      const refresh = scopes.includes("offline.access") ? { refresh_token: state.issueRefresh("x", grant) } : {};
      return { token_type: "bearer", expires_in: ACCESS_SECONDS.x, access_token: accessToken, scope: scopes.join(" "), ...refresh };
    }
    case "youtube": {
      // Google sends a refresh token with the first exchange only; refreshing keeps it.
      const refresh = usedRefreshToken ? {} : { refresh_token: state.issueRefresh("youtube", grant) };
      return { access_token: accessToken, expires_in: ACCESS_SECONDS.youtube, scope: scopes.join(" "), token_type: "Bearer", ...refresh };
    }
    case "tiktok":
      return {
        access_token: accessToken,
        expires_in: ACCESS_SECONDS.tiktok,
        open_id: account.id,
        refresh_token: usedRefreshToken ?? state.issueRefresh("tiktok", grant),
        refresh_expires_in: TIKTOK_REFRESH_SECONDS,
        scope: scopes.join(","),
        token_type: "Bearer",
      };
    case "instagram": {
      const token = { access_token: accessToken, user_id: account.id, permissions: scopes.join(",") };
      return instagramTokenShape === "wrapped" ? { data: [token] } : token;
    }
    case "discord": {
      // Discord rotates refresh tokens: the one used is spent.
      if (usedRefreshToken) state.refreshTokens.discord.delete(usedRefreshToken);
      const refresh = state.issueRefresh("discord", grant);
      return { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_SECONDS.discord, refresh_token: refresh, scope: scopes.join(" ") };
    }
  }
}

function recordTokenRequest(provider: FakeProvider, state: FakeState, req: IncomingMessage, body: Record<string, unknown>, status: number) {
  const basic = basicCredentials(req);
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : null);
  state.tokenRequests[provider].push({
    grantType: text("grant_type") ?? "",
    basicAuth: basic !== null,
    clientId: basic?.id ?? text("client_id") ?? text("client_key"),
    clientKey: text("client_key") !== null,
    clientSecretInBody: text("client_secret") !== null,
    codeVerifier: text("code_verifier") !== null,
    redirectUri: text("redirect_uri"),
    status,
  });
}

/** An injected fault at the token endpoint: a refused grant or scope in OAuth's words, the rest as the API would. */
async function answerFault(provider: FakeProvider, state: FakeState, fault: FakeFault, req: IncomingMessage, res: ServerResponse) {
  const body = Object.fromEntries(new URLSearchParams(await readBody(req)));
  const answer =
    fault.kind === "unauthorized"
      ? json(400, tokenError(provider, "invalid_grant", "Token has been expired or revoked."))
      : fault.kind === "missing_scope"
        ? json(400, tokenError(provider, "invalid_scope", "The requested scope is invalid."))
        : faultAnswer(provider, fault, state.now());
  recordTokenRequest(provider, state, req, body, answer.status);
  send(res, answer);
}

/**
 * Records each token request as it is answered, and rewrites the library's own refusals
 * (problem+json, e.g. a PKCE verifier that does not match) into the provider's error body.
 */
function reshapeLibraryErrors(provider: FakeProvider, state: FakeState, req: IncomingMessage, res: ServerResponse) {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    recordTokenRequest(provider, state, req, ((req as { body?: unknown }).body ?? {}) as Record<string, unknown>, res.statusCode);
    if (res.statusCode >= 400 && String(res.getHeader("content-type")).includes("problem+json")) {
      let detail = "Invalid request.";
      try {
        detail = String((JSON.parse(String(chunk)) as { detail?: unknown }).detail ?? detail);
      } catch {
        // keep the generic words
      }
      const content = JSON.stringify(tokenError(provider, "invalid_request", detail));
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.setHeader("content-length", Buffer.byteLength(content));
      return end(content);
    }
    return end(chunk);
  }) as ServerResponse["end"];
}
