/**
 * X API v2, the endpoints Questline reads, first pages as X serves them (with `pagination_token`
 * for the rest, so a test can show nobody asks for it):
 *
 *   GET /2/users/me                      member token only (an app token: 403 Unsupported Authentication)
 *   GET /2/users/by/username/:username   200 {errors:[Not Found Error]} for an unknown handle
 *   GET /2/users/:id/following           max_results 1–1000 (default 100)
 *   GET /2/users/:id/liked_tweets        max_results 5–100 (default 100)
 *   GET /2/tweets/:id/retweeted_by       max_results 1–100 (default 100)
 *   GET /2/users/:id/tweets              max_results 5–100 (default 10), exclude=replies,retweets, tweet.fields
 *   GET /2/tweets/:id                    expansions=author_id, user.fields
 *
 * Every answer carries X's `x-rate-limit-*` headers. The member token needs the scopes X documents
 * for each endpoint; the app's bearer token (X_BEARER_TOKEN) reads everything public.
 */
import { json, type Answer, type ApiRequest } from "./http.ts";
import { missingScope, unauthorized, xRateHeaders, xUnsupportedAuthentication } from "./errors.ts";
import { FAKE_ACCOUNT_CREATED_AT, type FakeGrant, type FakeState, type XPost, type XUser } from "./state.ts";

/** `grant` is null for the app's bearer token. */
type Route = { pattern: RegExp; scopes: string[]; memberOnly?: boolean; serve: (request: ApiRequest, id: string, grant: FakeGrant | null) => Answer };

const ROUTES: Route[] = [
  { pattern: /^\/2\/users\/me$/, scopes: ["tweet.read", "users.read"], memberOnly: true, serve: me },
  { pattern: /^\/2\/users\/by\/username\/([^/]+)$/, scopes: ["tweet.read", "users.read"], serve: userByName },
  { pattern: /^\/2\/users\/([^/]+)\/following$/, scopes: ["follows.read", "tweet.read", "users.read"], serve: following },
  { pattern: /^\/2\/users\/([^/]+)\/liked_tweets$/, scopes: ["like.read", "tweet.read", "users.read"], serve: likedPosts },
  { pattern: /^\/2\/tweets\/([^/]+)\/retweeted_by$/, scopes: ["tweet.read", "users.read"], serve: repostedBy },
  { pattern: /^\/2\/users\/([^/]+)\/tweets$/, scopes: ["tweet.read", "users.read"], serve: postsOf },
  { pattern: /^\/2\/tweets\/([^/]+)$/, scopes: ["tweet.read", "users.read"], serve: onePost },
];

export function xApi(request: ApiRequest): Answer {
  const answer = route(request);
  return { ...answer, headers: { ...xRateHeaders(request.state.now()), ...answer.headers } };
}

function route(request: ApiRequest): Answer {
  const { url, method, state, token } = request;
  for (const r of ROUTES) {
    const match = r.pattern.exec(url.pathname);
    if (!match || method !== "GET") continue;
    const id = decodeURIComponent(match[1] ?? "");
    if (token !== null && token === state.xAppToken) return r.memberOnly ? xUnsupportedAuthentication() : r.serve(request, id, null);
    const auth = state.grantOf("x", token);
    if (!auth.ok) return unauthorized("x", auth.why);
    if (!r.scopes.every((s) => auth.grant.scopes.includes(s))) return missingScope("x", r.scopes);
    return r.serve(request, id, auth.grant);
  }
  return json(404, { errors: [{ message: "Sorry, that page does not exist", code: 34 }] });
}

function me({ url, state }: ApiRequest, _id: string, grant: FakeGrant | null): Answer {
  return json(200, { data: userJson(userOf(state, grant!.account.id), url) });
}

function userByName({ url, state }: ApiRequest, username: string): Answer {
  const found = [...state.x.users.values()].find((u) => u.username.toLowerCase() === username.toLowerCase());
  if (found) return json(200, { data: userJson(found, url) });
  return json(200, { errors: [notFound("user", "username", username, `Could not find user with username: [${username}].`)] });
}

function following({ url, state }: ApiRequest, id: string): Answer {
  const page = pageOf(url, state.x.following.get(id) ?? [], { min: 1, max: 1000, fallback: 100 });
  if ("status" in page) return page;
  return usersAnswer(state, page, url);
}

function likedPosts({ url, state }: ApiRequest, id: string): Answer {
  const page = pageOf(url, state.x.likes.get(id) ?? [], { min: 5, max: 100, fallback: 100 });
  if ("status" in page) return page;
  return postsAnswer(state, page, url);
}

function repostedBy({ url, state }: ApiRequest, postId: string): Answer {
  if (!state.x.posts.has(postId) && !state.x.reposts.has(postId)) {
    return json(200, { errors: [notFound("tweet", "id", postId, `Could not find tweet with id: [${postId}].`)] });
  }
  const page = pageOf(url, state.x.reposts.get(postId) ?? [], { min: 1, max: 100, fallback: 100 });
  if ("status" in page) return page;
  return usersAnswer(state, page, url);
}

function postsOf({ url, state }: ApiRequest, authorId: string): Answer {
  const exclude = (url.searchParams.get("exclude") ?? "").split(",");
  const ids = [...state.x.posts.values()]
    .filter((p) => p.authorId === authorId && !(p.reply && exclude.includes("replies")) && !(p.repost && exclude.includes("retweets")))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((p) => p.id);
  const page = pageOf(url, ids, { min: 5, max: 100, fallback: 10 });
  if ("status" in page) return page;
  return postsAnswer(state, page, url);
}

function onePost({ url, state }: ApiRequest, postId: string): Answer {
  const found = state.x.posts.get(postId);
  if (!found) return json(200, { errors: [notFound("tweet", "id", postId, `Could not find tweet with id: [${postId}].`)] });
  const expand = (url.searchParams.get("expansions") ?? "").split(",").includes("author_id");
  return json(200, { data: postJson(found, url, expand), ...(expand ? { includes: { users: [userJson(userOf(state, found.authorId), url)] } } : {}) });
}

type Page = { ids: string[]; nextToken: string | null };

/** X's paging: `max_results` within the endpoint's bounds (else 400), `pagination_token` from `meta.next_token`. */
function pageOf(url: URL, ids: string[], { min, max, fallback }: { min: number; max: number; fallback: number }): Page | Answer {
  const given = url.searchParams.get("max_results");
  const size = given === null ? fallback : Number(given);
  if (!Number.isInteger(size) || size < min || size > max) {
    return json(400, {
      errors: [{ parameters: { max_results: [given] }, message: `The \`max_results\` query parameter value [${given}] is not between ${min} and ${max}` }],
      title: "Invalid Request",
      detail: "One or more parameters to your request was invalid.",
      type: "https://api.twitter.com/2/problems/invalid-request",
    });
  }
  const offset = Number(Buffer.from(url.searchParams.get("pagination_token") ?? "", "base64url").toString() || 0);
  const slice = ids.slice(offset, offset + size);
  const more = offset + size < ids.length;
  return { ids: slice, nextToken: more ? Buffer.from(String(offset + size)).toString("base64url") : null };
}

const meta = (page: Page) => ({ result_count: page.ids.length, ...(page.nextToken ? { next_token: page.nextToken } : {}) });

function usersAnswer(state: FakeState, page: Page, url: URL): Answer {
  if (page.ids.length === 0) return json(200, { meta: meta(page) });
  return json(200, { data: page.ids.map((id) => userJson(userOf(state, id), url)), meta: meta(page) });
}

function postsAnswer(state: FakeState, page: Page, url: URL): Answer {
  if (page.ids.length === 0) return json(200, { meta: meta(page) });
  const posts = page.ids.map((id) => state.x.posts.get(id) ?? { id, authorId: "0", text: "", createdAt: new Date(0).toISOString() });
  return json(200, { data: posts.map((p) => postJson(p, url, false)), meta: meta(page) });
}

/** A user X does not know by name yet is still served, under a made-up handle. */
const userOf = (state: FakeState, id: string): XUser => state.x.users.get(id) ?? { id, username: `user${id.slice(-8)}`, name: `User ${id}` };

function userJson(u: XUser, url: URL) {
  const fields = (url.searchParams.get("user.fields") ?? "").split(",");
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    ...(fields.includes("profile_image_url") && u.profileImageUrl ? { profile_image_url: u.profileImageUrl } : {}),
    ...(fields.includes("created_at") ? { created_at: u.createdAt ?? FAKE_ACCOUNT_CREATED_AT } : {}),
    ...(fields.includes("public_metrics")
      ? { public_metrics: { followers_count: u.followers ?? 0, following_count: 0, tweet_count: 0, listed_count: 0, like_count: 0, media_count: 0 } }
      : {}),
  };
}

const LINK = /https?:\/\/\S+/g;

/** A post as X serves it: links shortened to t.co in `text`, their targets in `entities.urls`. */
function postJson(p: XPost, url: URL, withAuthor: boolean) {
  const fields = (url.searchParams.get("tweet.fields") ?? "").split(",");
  const urls: { start: number; end: number; url: string; expanded_url: string; display_url: string }[] = [];
  let text = "";
  let last = 0;
  for (const match of p.text.matchAll(LINK)) {
    text += p.text.slice(last, match.index);
    const short = `https://t.co/${p.id.slice(-4)}${urls.length}Ab`;
    urls.push({
      start: text.length,
      end: text.length + short.length,
      url: short,
      expanded_url: match[0],
      display_url: match[0].replace(/^https?:\/\//, "").slice(0, 26),
    });
    text += short;
    last = match.index + match[0].length;
  }
  text += p.text.slice(last);
  return {
    id: p.id,
    text,
    edit_history_tweet_ids: [p.id],
    ...(withAuthor || fields.includes("author_id") ? { author_id: p.authorId } : {}),
    ...(fields.includes("created_at") ? { created_at: p.createdAt } : {}),
    ...(fields.includes("entities") && urls.length > 0 ? { entities: { urls } } : {}),
  };
}

const notFound = (resourceType: string, parameter: string, value: string, detail: string) => ({
  value,
  detail,
  title: "Not Found Error",
  resource_type: resourceType,
  parameter,
  resource_id: value,
  type: "https://api.twitter.com/2/problems/resource-not-found",
});
