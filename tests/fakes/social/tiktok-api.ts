/**
 * TikTok API v2 (open.tiktokapis.com): every answer is `{ data, error: { code, message, log_id } }`.
 *
 *   GET  /v2/user/info/?fields=…       user.info.basic (open_id, avatar_url, display_name);
 *                                       username, bio_description, is_verified need user.info.profile
 *   POST /v2/video/list/?fields=…      video.list; JSON body {max_count ≤ 20, cursor?}
 */
import { json, listOf, logId, type Answer, type ApiRequest } from "./http.ts";
import { missingScope, unauthorized } from "./errors.ts";
import type { FakeAccount, FakeGrant, TiktokVideo } from "./state.ts";

const PROFILE_FIELDS = new Set(["username", "bio_description", "profile_deep_link", "is_verified"]);
const STATS_FIELDS = new Set(["follower_count", "following_count", "likes_count", "video_count"]);

const ok = (data: unknown) => json(200, { data, error: { code: "ok", message: "", log_id: logId() } });
const invalidParams = (message: string) => json(400, { data: {}, error: { code: "invalid_params", message, log_id: logId() } });

export function tiktokApi(request: ApiRequest): Answer {
  const { url, method, state, token, body } = request;
  const path = url.pathname.replace(/\/$/, "");
  const isUserInfo = path === "/v2/user/info" && method === "GET";
  const isVideoList = path === "/v2/video/list" && method === "POST";
  if (!isUserInfo && !isVideoList) return json(404, { data: {}, error: { code: "not_found", message: "Not found", log_id: logId() } });
  const auth = state.grantOf("tiktok", token);
  if (!auth.ok) return unauthorized("tiktok", auth.why);
  const fields = listOf(url.searchParams.get("fields"));
  if (fields.length === 0) return invalidParams("The request parameter fields is required.");
  return isUserInfo ? userInfo(auth.grant, fields) : videoList(auth.grant, fields, body, state.tiktok.videos.get(auth.grant.account.id) ?? []);
}

function userInfo(grant: FakeGrant, fields: string[]): Answer {
  const needs = [
    "user.info.basic",
    ...(fields.some((f) => PROFILE_FIELDS.has(f)) ? ["user.info.profile"] : []),
    ...(fields.some((f) => STATS_FIELDS.has(f)) ? ["user.info.stats"] : []),
  ];
  if (!needs.every((s) => grant.scopes.includes(s))) return missingScope("tiktok", needs);
  const all = userJson(grant.account);
  return ok({ user: Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])) });
}

function userJson(account: FakeAccount): Record<string, unknown> {
  return {
    open_id: account.id,
    union_id: `union-${account.id}`,
    avatar_url: account.avatarUrl,
    avatar_url_100: account.avatarUrl,
    display_name: account.name,
    username: account.handle,
    bio_description: "",
    profile_deep_link: `https://vm.tiktok.com/${account.handle}`,
    is_verified: false,
    follower_count: account.followers ?? 0,
    following_count: 0,
    likes_count: 0,
    video_count: 0,
  };
}

function videoList(grant: FakeGrant, fields: string[], body: unknown, videos: TiktokVideo[]): Answer {
  if (!grant.scopes.includes("video.list")) return missingScope("tiktok", ["video.list"]);
  const options = (body ?? {}) as { max_count?: unknown; cursor?: unknown };
  const max = options.max_count === undefined ? 10 : Number(options.max_count);
  if (!Number.isInteger(max) || max < 1 || max > 20) return invalidParams("max_count must be between 1 and 20.");
  const before = typeof options.cursor === "number" ? options.cursor : Infinity;
  const sorted = [...videos].sort((a, b) => b.create_time - a.create_time).filter((v) => v.create_time * 1000 < before);
  const page = sorted.slice(0, max);
  const last = page.at(-1);
  return ok({
    videos: page.map((v) => Object.fromEntries(fields.filter((f) => f in v).map((f) => [f, v[f as keyof TiktokVideo]]))),
    cursor: last ? last.create_time * 1000 : 0,
    has_more: sorted.length > max,
  });
}
