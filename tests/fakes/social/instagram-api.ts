/**
 * Instagram API with Instagram Login (graph.instagram.com, with or without a `/v21.0` prefix). The
 * token comes as `Authorization: Bearer` or the `access_token` parameter; errors are Graph's
 * `{error:{message,type:"OAuthException",code}}`, mostly with HTTP 400.
 *
 *   GET /me?fields=…                                    instagram_business_basic
 *   GET /me/media?fields=…&limit=…                       instagram_business_basic, newest first
 *   GET /access_token?grant_type=ig_exchange_token&client_secret=…&access_token=<short-lived>
 *   GET /refresh_access_token?grant_type=ig_refresh_token&access_token=<long-lived>
 *                                                       both → {access_token, token_type:"bearer", expires_in}
 */
import { json, listOf, logId, type Answer, type ApiRequest } from "./http.ts";
import { missingScope, unauthorized } from "./errors.ts";
import type { FakeAccount, FakeGrant, FakeState, InstagramMedia } from "./state.ts";

const READ_SCOPES = ["instagram_business_basic", "instagram_basic"];
const LONG_LIVED_SECONDS = 60 * 24 * 3600;

const graphError = (status: number, code: number, message: string, type = "OAuthException") =>
  json(status, { error: { message, type, code, fbtrace_id: `A${logId()}` } });

export function createInstagramApi({ clientSecret }: { clientSecret: string }) {
  return function instagramApi(request: ApiRequest): Answer {
    const { url, method, state, token } = request;
    const path = url.pathname.replace(/^\/v\d+\.\d+/, "").replace(/\/$/, "");
    if (method === "GET" && (path === "/access_token" || path === "/refresh_access_token")) return exchange(path, url, state, clientSecret);
    if (method !== "GET" || (path !== "/me" && path !== "/me/media")) {
      return graphError(
        400,
        100,
        `Unsupported get request. Object with ID '${path.slice(1)}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        "IGApiException",
      );
    }
    const auth = state.grantOf("instagram", token);
    if (!auth.ok) return unauthorized("instagram", auth.why);
    if (!READ_SCOPES.some((s) => auth.grant.scopes.includes(s))) return missingScope("instagram", READ_SCOPES);
    const fields = listOf(url.searchParams.get("fields"));
    return path === "/me" ? me(auth.grant.account, fields) : mediaList(url, fields, state.instagram.media.get(auth.grant.account.id) ?? []);
  };
}

function me(account: FakeAccount, fields: string[]): Answer {
  const all: Record<string, unknown> = {
    user_id: account.id,
    username: account.handle,
    name: account.name,
    profile_picture_url: account.avatarUrl,
    account_type: account.accountType ?? "BUSINESS",
    followers_count: account.followers ?? 0,
    follows_count: 0,
    media_count: 0,
  };
  return json(200, { ...Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])), id: account.id });
}

function mediaList(url: URL, fields: string[], media: InstagramMedia[]): Answer {
  const limit = Number(url.searchParams.get("limit") ?? 25);
  if (!Number.isInteger(limit) || limit < 1) return graphError(400, 100, "(#100) The parameter limit must be a positive integer.", "IGApiException");
  const sorted = [...media].sort((a, b) => Date.parse(toIso(b.timestamp)) - Date.parse(toIso(a.timestamp)));
  const page = sorted.slice(0, limit);
  const wanted = fields.length > 0 ? fields : ["id"];
  const data = page.map((m) => ({
    ...Object.fromEntries(wanted.filter((f) => f in m).map((f) => [f, m[f as keyof InstagramMedia]])),
    id: m.id,
  }));
  const cursor = (id: string | undefined) => Buffer.from(id ?? "").toString("base64url");
  return json(200, {
    data,
    paging: {
      cursors: { before: cursor(page[0]?.id), after: cursor(page.at(-1)?.id) },
      ...(sorted.length > limit ? { next: `${url.origin}${url.pathname}?limit=${limit}&after=${cursor(page.at(-1)?.id)}` } : {}),
    },
  });
}

/** Graph writes `2024-05-01T10:00:00+0000`. */
const toIso = (value: string) => value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2");

function exchange(path: string, url: URL, state: FakeState, clientSecret: string): Answer {
  const query = url.searchParams;
  const exchanging = path === "/access_token";
  const record = { grantType: query.get("grant_type") ?? "", basicAuth: false, clientId: null, clientKey: false, codeVerifier: false, redirectUri: null };
  const answer = ((): Answer => {
    if (query.get("grant_type") !== (exchanging ? "ig_exchange_token" : "ig_refresh_token")) {
      return graphError(400, 100, "Unsupported grant_type", "IGApiException");
    }
    if (exchanging && query.get("client_secret") !== clientSecret) return graphError(400, 101, "Error validating client secret.");
    const auth = state.grantOf("instagram", query.get("access_token"));
    if (!auth.ok) return unauthorized("instagram", auth.why);
    const grant: FakeGrant = { account: auth.grant.account, scopes: auth.grant.scopes };
    const accessToken = state.issueAccess("instagram", grant, LONG_LIVED_SECONDS);
    return json(200, { access_token: accessToken, token_type: "bearer", expires_in: LONG_LIVED_SECONDS });
  })();
  state.tokenRequests.instagram.push({ ...record, clientSecretInBody: query.has("client_secret"), status: answer.status });
  return answer;
}
