/**
 * YouTube Data API v3 (under /youtube/v3, as at www.googleapis.com):
 *
 *   GET /youtube/v3/channels?part=snippet&mine=true
 *   GET /youtube/v3/subscriptions?part=snippet&mine=true[&forChannelId=a,b][&maxResults=0–50, default 5]
 *
 * Either needs one of the youtube.readonly / youtube / youtube.force-ssl scopes.
 */
import { json, type Answer, type ApiRequest } from "./http.ts";
import { missingScope, unauthorized } from "./errors.ts";
import { FAKE_ACCOUNT_CREATED_AT, type FakeAccount, type YoutubeSubscription } from "./state.ts";

const READ_SCOPES = ["youtube.readonly", "youtube", "youtube.force-ssl"].map((s) => `https://www.googleapis.com/auth/${s}`);

const etag = () => Math.random().toString(36).slice(2, 14);

export function youtubeApi(request: ApiRequest): Answer {
  const { url, method, state, token } = request;
  const path = url.pathname.replace(/^\/youtube\/v3/, "");
  if (method !== "GET" || (path !== "/channels" && path !== "/subscriptions")) return notFound();
  const auth = state.grantOf("youtube", token);
  if (!auth.ok) return unauthorized("youtube", auth.why);
  if (!READ_SCOPES.some((s) => auth.grant.scopes.includes(s))) return missingScope("youtube", READ_SCOPES);
  if (!url.searchParams.get("part")) return badRequest("required", "Required parameter: part", "part");
  if (url.searchParams.get("mine") !== "true")
    return badRequest("missingRequiredParameter", "No filter selected. Expected one of: mine, id, forHandle, forUsername.", "parameters.");
  const account = auth.grant.account;
  return path === "/channels" ? channels(url, account) : subscriptions(url, account, state.youtube.subscriptions.get(account.id) ?? []);
}

function channels(url: URL, account: FakeAccount): Answer {
  const parts = (url.searchParams.get("part") ?? "").split(",");
  const thumbnail = (size: number) => ({ url: account.avatarUrl.replace(/=s\d+$/, `=s${size}`), width: size, height: size });
  return json(200, {
    kind: "youtube#channelListResponse",
    etag: etag(),
    pageInfo: { totalResults: 1, resultsPerPage: 5 },
    items: [
      {
        kind: "youtube#channel",
        etag: etag(),
        id: account.id,
        snippet: {
          title: account.name,
          description: "",
          customUrl: `@${account.handle}`,
          publishedAt: account.createdAt ?? FAKE_ACCOUNT_CREATED_AT,
          thumbnails: { default: thumbnail(88), medium: thumbnail(240), high: thumbnail(800) },
          localized: { title: account.name, description: "" },
        },
        ...(parts.includes("statistics")
          ? { statistics: { viewCount: "0", subscriberCount: String(account.followers ?? 0), hiddenSubscriberCount: false, videoCount: "0" } }
          : {}),
      },
    ],
  });
}

function subscriptions(url: URL, account: FakeAccount, all: YoutubeSubscription[]): Answer {
  const wanted = url.searchParams.get("forChannelId")?.split(",").filter(Boolean);
  const max = Number(url.searchParams.get("maxResults") ?? 5);
  if (!Number.isInteger(max) || max < 0 || max > 50) return badRequest("invalidParameter", "Invalid value for parameter maxResults.", "maxResults");
  const matching = wanted ? all.filter((s) => wanted.includes(s.channelId)) : all;
  const page = matching.slice(0, max);
  return json(200, {
    kind: "youtube#subscriptionListResponse",
    etag: etag(),
    ...(matching.length > max ? { nextPageToken: "CAEQAA" } : {}),
    pageInfo: { totalResults: matching.length, resultsPerPage: max },
    items: page.map((s) => ({
      kind: "youtube#subscription",
      etag: etag(),
      id: s.id ?? `sub-${account.id}-${s.channelId}`,
      snippet: {
        publishedAt: s.publishedAt ?? "2024-01-01T00:00:00Z",
        title: s.title ?? `Channel ${s.channelId}`,
        description: "",
        resourceId: { kind: "youtube#channel", channelId: s.channelId },
        channelId: account.id,
        thumbnails: { default: { url: `https://yt3.ggpht.com/${s.channelId}=s88` } },
      },
    })),
  });
}

const badRequest = (reason: string, message: string, location: string) =>
  json(400, {
    error: { code: 400, message, errors: [{ message, domain: "youtube.parameter", reason, location, locationType: "parameter" }], status: "INVALID_ARGUMENT" },
  });

const notFound = () =>
  json(404, { error: { code: 404, message: "Not Found", errors: [{ message: "Not Found", domain: "global", reason: "notFound" }], status: "NOT_FOUND" } });
