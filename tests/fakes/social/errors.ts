/**
 * The providers' error answers, as their APIs write them: status, body and headers. Used by the
 * routers (a refused token, a missing scope) and by injected faults (`failNext`).
 */
import type { RESTError, RESTRateLimit } from "discord-api-types/v10";
import type { FakeProvider } from "./endpoints.ts";
import { json, logId, type Answer } from "./http.ts";
import type { FakeFault } from "./state.ts";

const X_WINDOW_SECONDS = 15 * 60;

/** X's `x-rate-limit-*` headers, sent with every X answer. */
export function xRateHeaders(now: number, { remaining = 14, resetAt }: { remaining?: number; resetAt?: Date } = {}) {
  const reset = resetAt ? Math.floor(resetAt.getTime() / 1000) : Math.floor(now / 1000) + X_WINDOW_SECONDS;
  return { "x-rate-limit-limit": "15", "x-rate-limit-remaining": String(remaining), "x-rate-limit-reset": String(reset) };
}

const xProblem = (status: number, title: string, detail = title, type = "about:blank") => json(status, { title, detail, type, status });

const googleError = (
  status: number,
  message: string,
  errors: { message: string; domain: string; reason: string }[],
  code: string,
  headers?: Record<string, string>,
) => json(status, { error: { code: status, message, errors, status: code } }, headers);

const tiktokError = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  json(status, { data: {}, error: { code, message, log_id: logId() } }, headers);

const graphError = (status: number, code: number, message: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  json(status, { error: { message, type: "OAuthException", code, ...extra, fbtrace_id: `A${logId()}` } }, headers);

/** Discord's JSON error: `{code, message}` (code 0 for the HTTP-level ones, "401: Unauthorized"). */
export const discordError = (status: number, code: number, message: string, headers?: Record<string, string>): Answer =>
  json(status, { message, code } satisfies RESTError, headers);

/** Discord's `X-RateLimit-*` headers for a bucket, sent with every answer (`remaining` 0 and `resetAfter` the wait on a 429). */
export function discordRateHeaders(now: number, { remaining = 4, resetAfter = 1 }: { remaining?: number; resetAfter?: number } = {}) {
  return {
    "x-ratelimit-limit": "5",
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": ((now + resetAfter * 1000) / 1000).toFixed(3),
    "x-ratelimit-reset-after": resetAfter.toFixed(3),
    "x-ratelimit-bucket": "f0a1b2c3d4e5f60718293a4b5c6d7e8f",
  };
}

/** Discord's 429: `retry_after` (seconds, fractional) in the body, `Retry-After` (whole seconds) and the bucket's headers. */
export function discordRateLimited(retryAfterSeconds: number, now: number): Answer {
  const body: RESTRateLimit = { message: "You are being rate limited.", retry_after: retryAfterSeconds, global: false };
  return json(429, body, {
    ...discordRateHeaders(now, { remaining: 0, resetAfter: retryAfterSeconds }),
    "retry-after": String(Math.ceil(retryAfterSeconds)),
    "x-ratelimit-scope": "user",
  });
}

/** A token refused: unknown, expired or revoked. */
export function unauthorized(provider: FakeProvider, why: "missing" | "invalid" | "expired" = "invalid"): Answer {
  switch (provider) {
    case "x":
      return xProblem(401, "Unauthorized");
    case "youtube":
      return googleError(
        401,
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        [{ message: "Invalid Credentials", domain: "global", reason: "authError" }],
        "UNAUTHENTICATED",
        { "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
      );
    case "tiktok":
      return tiktokError(401, "access_token_invalid", "The access token is invalid or not found in the request.");
    case "instagram":
      if (why === "missing") return graphError(400, 2500, "An active access token must be used to query information about the current user.");
      if (why === "expired") return graphError(400, 190, "Error validating access token: Session has expired.", { error_subcode: 463 });
      return graphError(400, 190, "Invalid OAuth access token - Cannot parse access token");
    case "discord":
      return discordError(401, 0, "401: Unauthorized");
  }
}

/** The token lacks a scope the endpoint needs. */
export function missingScope(provider: FakeProvider, scopes: readonly string[]): Answer {
  switch (provider) {
    case "x":
      return xProblem(403, "Forbidden");
    case "youtube":
      return googleError(
        403,
        "Request had insufficient authentication scopes.",
        [{ message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" }],
        "PERMISSION_DENIED",
        {
          "www-authenticate": `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${scopes.join(" ")}"`,
        },
      );
    case "tiktok":
      return tiktokError(401, "scope_not_authorized", "The user did not authorize the scope required for completing this request.");
    case "instagram":
      return graphError(403, 10, "(#10) Application does not have permission for this action");
    case "discord":
      return discordError(403, 50001, "Missing Access");
  }
}

/** X refuses an app-only token on endpoints that speak for a member (`/2/users/me`). */
export const xUnsupportedAuthentication = () =>
  xProblem(
    403,
    "Unsupported Authentication",
    "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
    "https://api.twitter.com/2/problems/unsupported-authentication",
  );

const INSTAGRAM_LIMITS = {
  4: "(#4) Application request limit reached",
  17: "(#17) User request limit reached",
  32: "(#32) Page request limit reached",
  613: "(#613) Calls within one hour exceed the rate limit",
} as const;

/** An injected fault, in the provider's words. */
export function faultAnswer(provider: FakeProvider, fault: FakeFault, now: number): Answer {
  switch (fault.kind) {
    case "unauthorized":
      return unauthorized(provider);
    case "missing_scope":
      return missingScope(provider, []);
    case "malformed":
      return { status: 200, text: '{"data": [{"id": "1", "te' };
    case "server_error":
      return serverError(provider, fault.status ?? 503);
    case "rate_limited":
      return rateLimited(provider, fault, now);
  }
}

function rateLimited(provider: FakeProvider, fault: Extract<FakeFault, { kind: "rate_limited" }>, now: number): Answer {
  const retryAfter: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) };
  switch (provider) {
    case "x":
      return { ...xProblem(429, "Too Many Requests"), headers: xRateHeaders(now, { remaining: 0, ...(fault.resetAt ? { resetAt: fault.resetAt } : {}) }) };
    case "youtube": {
      const reason = fault.youtubeReason ?? "quotaExceeded";
      if (reason === "quotaExceeded") {
        return googleError(
          403,
          'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
          [{ message: "The request cannot be completed because you have exceeded your quota.", domain: "youtube.quota", reason }],
          "PERMISSION_DENIED",
        );
      }
      return googleError(403, "Rate Limit Exceeded", [{ message: "Rate Limit Exceeded", domain: "usageLimits", reason }], "PERMISSION_DENIED", retryAfter);
    }
    case "tiktok":
      return tiktokError(429, "rate_limit_exceeded", "The API rate limit was exceeded. Please try again later.", retryAfter);
    case "instagram": {
      const code = fault.instagramCode ?? 17;
      const minutes = fault.retryAfterSeconds === undefined ? 0 : Math.ceil(fault.retryAfterSeconds / 60);
      const usage = {
        "x-business-use-case-usage": JSON.stringify({
          "0": [{ type: "instagram", call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: minutes }],
        }),
      };
      return graphError(400, code, INSTAGRAM_LIMITS[code], { is_transient: true }, usage);
    }
    case "discord":
      return discordRateLimited(fault.retryAfterSeconds ?? 1, now);
  }
}

export function serverError(provider: FakeProvider, status: number): Answer {
  const unavailable = status === 503;
  switch (provider) {
    case "x":
      return xProblem(status, unavailable ? "Service Unavailable" : "Internal Server Error");
    case "youtube":
      return googleError(
        status,
        unavailable ? "The service is currently unavailable." : "Internal error encountered.",
        [{ message: unavailable ? "The service is currently unavailable." : "Internal error encountered.", domain: "global", reason: "backendError" }],
        unavailable ? "UNAVAILABLE" : "INTERNAL",
      );
    case "tiktok":
      return tiktokError(status, "internal_error", "Something went wrong. Please try again later.");
    case "instagram":
      return graphError(status, unavailable ? 2 : 1, unavailable ? "Service temporarily unavailable" : "An unknown error has occurred.", {
        is_transient: true,
      });
    case "discord":
      return discordError(status, 0, unavailable ? "503: Service Unavailable" : "500: Internal Server Error");
  }
}
