import { z } from "zod";
import type { SocialProvider } from "../providers";
import type { ProviderCall, ProviderFailure } from "./outcome";

/** A provider's success answer, parsed; or why there is none. */
export type ProviderAnswer<T> = { kind: "ok"; data: T } | ProviderFailure;

export type ProviderRequest<S extends z.ZodType> = {
  /** Appended to the call's `apiUrl`: `/2/users/me`, `/channels`, … */
  path: string;
  query?: Record<string, string | number | undefined>;
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** A JSON body (TikTok's list endpoints take their options this way). */
  json?: unknown;
  /** What a success answer must look like. */
  schema: S;
  /** The scope this endpoint needs: named in `missing_scope` (the providers' 403s seldom name it). */
  scope: string;
  /** `bearer` (default): the token in the Authorization header; `bot`: Discord's `Bot <token>`; `none`: the caller put it in the path or `query`. */
  auth?: "bearer" | "bot" | "none";
  /** Extra headers (Discord's `X-Audit-Log-Reason`). */
  headers?: Record<string, string>;
};

const TIMEOUT_MS = 10_000;
/** When a provider limits us without saying until when. */
const RATE_LIMIT_FALLBACK_MS = 60_000;

/**
 * Calls one REST endpoint of a provider and maps its answer to an outcome: the parsed body, or
 * `needs_reconnect`, `missing_scope`, `rate_limited` (until the provider's reset time),
 * `unavailable` (unreachable, timed out, 5xx) or `malformed` (with a `detail` for the caller's log;
 * never a token nor a query string, which may hold one).
 */
export async function providerRequest<S extends z.ZodType>(call: ProviderCall, request: ProviderRequest<S>): Promise<ProviderAnswer<z.output<S>>> {
  const answer = await providerRequestOrRefusal(call, { ...request, refusals: [] });
  if (answer.kind === "refused") throw new Error("unreachable: no refusals were asked for");
  return answer;
}

/** An error answer the caller asked to read itself: Discord's 404 Unknown Member, Telegram's 400 "chat not found". */
export type Refusal = { kind: "refused"; status: number; body: unknown };

/**
 * `providerRequest`, except that an answer with one of `refusals`' statuses comes back as it is
 * (after the provider's own reader had its say on rate limits and refused tokens), for the
 * caller that knows what such an answer means for what it asked.
 */
export async function providerRequestOrRefusal<S extends z.ZodType>(
  call: ProviderCall,
  request: ProviderRequest<S> & { refusals: readonly number[] },
): Promise<ProviderAnswer<z.output<S>> | Refusal> {
  const url = new URL(call.apiUrl + request.path);
  for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { accept: "application/json" };
  const auth = request.auth ?? "bearer";
  if (auth === "bearer") headers.authorization = `Bearer ${call.accessToken}`;
  if (auth === "bot") headers.authorization = `Bot ${call.accessToken}`;
  Object.assign(headers, request.headers);
  if (request.json !== undefined) headers["content-type"] = "application/json";

  let status: number;
  let responseHeaders: Headers;
  let text: string;
  try {
    const response = await (call.fetch ?? fetch)(url, {
      method: request.method ?? "GET",
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    status = response.status;
    responseHeaders = response.headers;
    text = await response.text();
  } catch {
    return { kind: "unavailable" };
  }

  const where = `${call.provider} ${request.method ?? "GET"} ${request.path}`;
  // 204 No Content (Discord's role grants and removals) is read as `null`.
  const body = status === 204 && text === "" ? null : parseJson(text);
  const answer: Answer = { status, headers: responseHeaders, body, now: call.now ?? new Date(), scope: request.scope };
  const failure = FAILURE_READERS[call.provider](answer);
  if (failure) return failure;
  if (request.refusals.includes(status)) return { kind: "refused", status, body };
  const httpFailed = httpFailure(answer, where, text);
  if (httpFailed) return httpFailed;
  if (body === undefined) return { kind: "malformed", detail: `${where}: HTTP ${status} with a body that is not JSON: ${excerpt(text)}` };
  const parsed = request.schema.safeParse(body);
  if (!parsed.success) return { kind: "malformed", detail: `${where}: unexpected answer: ${z.prettifyError(parsed.error)}` };
  return { kind: "ok", data: parsed.data };
}

type Answer = { status: number; headers: Headers; body: unknown; now: Date; scope: string };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const excerpt = (text: string) => JSON.stringify(text.slice(0, 200));

/** The status alone, once the provider's own error body said nothing we know. */
function httpFailure({ status, headers, now, scope }: Answer, where: string, text: string): ProviderFailure | null {
  if (status >= 500) return { kind: "unavailable" };
  if (status === 401) return { kind: "needs_reconnect" };
  if (status === 403) return { kind: "missing_scope", scope };
  if (status === 429) return { kind: "rate_limited", retryAt: retryAtFrom(headers, now) };
  if (status >= 300) return { kind: "malformed", detail: `${where}: HTTP ${status}: ${excerpt(text)}` };
  return null;
}

/**
 * When to try again: X's `x-rate-limit-reset` (epoch seconds), else `retry-after` (seconds or a
 * date), else a minute from now.
 */
export function retryAtFrom(headers: Headers, now: Date): Date {
  const reset = Number(headers.get("x-rate-limit-reset"));
  if (Number.isFinite(reset) && reset > 0) return new Date(reset * 1000);
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return new Date(now.getTime() + Number(retryAfter) * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return new Date(date);
  }
  return new Date(now.getTime() + RATE_LIMIT_FALLBACK_MS);
}

/** The next midnight in California, when YouTube's daily quota starts again. */
export function nextPacificMidnight(now: Date): Date {
  const wallClock = (at: Date) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", {
        timeZone: "America/Los_Angeles",
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      })
        .formatToParts(at)
        .map((p) => [p.type, Number(p.value)]),
    ) as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
    return parts;
  };
  const offsetAt = (at: Date) => {
    const w = wallClock(at);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at.getTime() / 1000) * 1000;
  };
  const today = wallClock(now);
  const midnight = Date.UTC(today.year, today.month - 1, today.day + 1);
  // The offset of the night itself: daylight saving may change between now and then.
  const guess = new Date(midnight - offsetAt(now));
  return new Date(midnight - offsetAt(guess));
}

// ——— What each provider's error bodies say ———

const xProblem = z.object({ type: z.string().optional(), title: z.string().optional(), detail: z.string().optional() }).loose();

/** X (problem+json): 401 refused token, 403 a missing scope, 429 with `x-rate-limit-reset`. */
function xFailure({ status, body }: Answer): ProviderFailure | null {
  if (status !== 403) return null;
  const problem = xProblem.safeParse(body);
  const type = problem.success ? (problem.data.type ?? "") : "";
  // The app's own standing (its access level, an app-only token where a member's is needed): ours to fix, to be logged.
  if (/client-forbidden|unsupported-authentication/.test(type)) {
    return { kind: "malformed", detail: `x: ${problem.data?.title ?? "Forbidden"}: ${problem.data?.detail ?? ""}`.trim() };
  }
  return null;
}

const googleError = z.object({
  error: z
    .object({ code: z.number().optional(), message: z.string().optional(), errors: z.array(z.object({ reason: z.string() }).loose()).optional() })
    .loose(),
});

/** YouTube: `{error:{errors:[{reason}]}}`; the reason says whether a 403 is a scope, a quota or a rate. */
function youtubeFailure({ body, headers, now, scope, status }: Answer): ProviderFailure | null {
  if (status < 400) return null;
  const parsed = googleError.safeParse(body);
  if (!parsed.success) return null;
  const reasons = (parsed.data.error.errors ?? []).map((e) => e.reason);
  if (reasons.some((r) => r === "quotaExceeded" || r === "dailyLimitExceeded")) return { kind: "rate_limited", retryAt: nextPacificMidnight(now) };
  if (reasons.some((r) => r === "rateLimitExceeded" || r === "userRateLimitExceeded")) return { kind: "rate_limited", retryAt: retryAtFrom(headers, now) };
  if (reasons.includes("insufficientPermissions")) return { kind: "missing_scope", scope };
  if (status === 401) return { kind: "needs_reconnect" };
  if (status === 403) return { kind: "malformed", detail: `youtube: HTTP 403 ${reasons.join(",")}: ${parsed.data.error.message ?? ""}` };
  return null;
}

const tiktokEnvelope = z.object({ error: z.object({ code: z.string(), message: z.string().optional() }).loose() });

/** TikTok: every answer carries `error.code`, "ok" when it went well, whatever the status. */
function tiktokFailure({ body, headers, now, scope }: Answer): ProviderFailure | null {
  const parsed = tiktokEnvelope.safeParse(body);
  if (!parsed.success || parsed.data.error.code === "ok") return null;
  const { code, message } = parsed.data.error;
  switch (code) {
    case "access_token_invalid":
      return { kind: "needs_reconnect" };
    case "scope_not_authorized":
    case "scope_permission_missed":
      return { kind: "missing_scope", scope };
    case "rate_limit_exceeded":
      return { kind: "rate_limited", retryAt: retryAtFrom(headers, now) };
    case "internal_error":
    case "unknown_error":
      return { kind: "unavailable" };
    default:
      return { kind: "malformed", detail: `tiktok: ${code}: ${message ?? ""}` };
  }
}

const graphError = z.object({
  error: z.object({ code: z.number(), message: z.string().optional(), error_subcode: z.number().optional(), is_transient: z.boolean().optional() }).loose(),
});
const businessUseCaseUsage = z.record(z.string(), z.array(z.object({ estimated_time_to_regain_access: z.number().optional() }).loose()));

/** Instagram (Meta's Graph API): what happened is `error.code`, whatever the status (mostly 400). */
function instagramFailure({ body, headers, now, scope, status }: Answer): ProviderFailure | null {
  const parsed = graphError.safeParse(body);
  if (!parsed.success) return null;
  const { code, message, is_transient } = parsed.data.error;
  // 190 invalid or expired token, 102 session, 2500 no active token.
  if (code === 190 || code === 102 || code === 2500) return { kind: "needs_reconnect" };
  if (code === 4 || code === 17 || code === 32 || code === 613) return { kind: "rate_limited", retryAt: instagramRetryAt(headers, now) };
  if (code === 10 || (code >= 200 && code <= 299)) return { kind: "missing_scope", scope };
  if (is_transient || code === 1 || code === 2 || status >= 500) return { kind: "unavailable" };
  return { kind: "malformed", detail: `instagram: error ${code}: ${message ?? ""}` };
}

/** Meta says how long until access returns in `x-business-use-case-usage` (minutes), when it says. */
function instagramRetryAt(headers: Headers, now: Date): Date {
  const usage = businessUseCaseUsage.safeParse(parseJson(headers.get("x-business-use-case-usage") ?? ""));
  const minutes = usage.success
    ? Math.max(0, ...Object.values(usage.data).flatMap((entries) => entries.map((e) => e.estimated_time_to_regain_access ?? 0)))
    : 0;
  return minutes > 0 ? new Date(now.getTime() + minutes * 60_000) : retryAtFrom(headers, now);
}

const discordError = z.object({ code: z.number().optional(), message: z.string().optional(), retry_after: z.number().optional() }).loose();

/**
 * Discord (REST v10): 429 carries `retry_after` in seconds (fractional) in the body as well as the
 * header; 403 with code 50001 (Missing Access) or 50013 (Missing Permissions) is the bot's or the
 * token's standing, named by the caller's scope. A 404's code (10004 Unknown Guild, 10007 Unknown
 * Member, 10011 Unknown Role) is left to the caller, which knows what it asked about.
 */
function discordFailure({ status, body, headers, now, scope }: Answer): ProviderFailure | null {
  const parsed = discordError.safeParse(body);
  if (status === 429) {
    const seconds = parsed.success ? parsed.data.retry_after : undefined;
    return { kind: "rate_limited", retryAt: seconds !== undefined ? new Date(now.getTime() + Math.ceil(seconds * 1000)) : retryAtFrom(headers, now) };
  }
  if (status === 401) return { kind: "needs_reconnect" };
  if (status === 403) return { kind: "missing_scope", scope };
  return null;
}

const telegramError = z
  .object({
    ok: z.literal(false),
    error_code: z.number(),
    description: z.string().optional(),
    parameters: z.object({ retry_after: z.number().optional() }).loose().optional(),
  })
  .loose();

/**
 * Telegram's Bot API: every answer is `{ok, result}` or `{ok:false, error_code, description}`; 429
 * names `parameters.retry_after` in seconds; 401 is a token Telegram does not know (revoked);
 * 400 and 403 are about what was asked (a chat or user the bot cannot see), left to the caller.
 */
function telegramFailure({ body, now, headers }: Answer): ProviderFailure | null {
  const parsed = telegramError.safeParse(body);
  if (!parsed.success) return null;
  const { error_code, parameters } = parsed.data;
  if (error_code === 429) {
    const seconds = parameters?.retry_after;
    return { kind: "rate_limited", retryAt: seconds !== undefined ? new Date(now.getTime() + seconds * 1000) : retryAtFrom(headers, now) };
  }
  if (error_code === 401) return { kind: "needs_reconnect" };
  if (error_code >= 500) return { kind: "unavailable" };
  return null;
}

const FAILURE_READERS: Record<SocialProvider, (answer: Answer) => ProviderFailure | null> = {
  x: xFailure,
  youtube: youtubeFailure,
  tiktok: tiktokFailure,
  instagram: instagramFailure,
  discord: discordFailure,
  telegram: telegramFailure,
};
