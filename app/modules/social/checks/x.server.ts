import { z } from "zod";
import { parseXHandleInput, parseXPostInput } from "~/modules/tasks/social-targets";
import { providerRequest } from "./http.server";
import { mentionsPhrase } from "./match-phrase";
import { providerDate, type CheckOutcome, type ProfileOutcome, type ProviderCall, type ProviderFailure } from "./outcome";

/**
 * What a member did on X, read through the X API v2 with their token (or, for public reads, the
 * app's bearer token). Every list is read one page deep, never further: a page costs one request
 * out of a small rate limit, and "not found yet" is an answer the member can act on.
 */

const user = z.object({ id: z.string(), username: z.string(), name: z.string(), profile_image_url: z.string().optional() });
/** X answers 200 with `errors` (and no `data`) for a deleted, suspended or protected resource. */
const errors = z.array(z.object({ type: z.string().optional(), title: z.string().optional(), detail: z.string().optional() }).loose()).optional();
const post = z.object({
  id: z.string(),
  text: z.string(),
  author_id: z.string().optional(),
  created_at: z.string().optional(),
  entities: z
    .object({ urls: z.array(z.object({ expanded_url: z.string().optional(), unwound_url: z.string().optional() }).loose()).optional() })
    .loose()
    .optional(),
});
const meta = z.object({ result_count: z.number().optional(), next_token: z.string().optional() }).loose().optional();
/** The connecting account: `user` with its creation time and followers (trust signals), each optional and never a reason to refuse it. */
const me = user.extend({
  created_at: z.string().optional().catch(undefined),
  public_metrics: z.object({ followers_count: z.number().int().nonnegative().optional() }).loose().optional().catch(undefined),
});
const usersPage = z.object({ data: z.array(user).optional(), meta, errors });
const postsPage = z.object({ data: z.array(post).optional(), meta, errors });

/** Largest first pages X allows on each list. */
const FOLLOWING_PAGE = 1000;
const LIKES_PAGE = 100;
const REPOSTERS_PAGE = 100;
const POSTS_PAGE = 100;

const postUrl = (id: string, handle = "i") => `https://x.com/${handle}/status/${id}`;

/** `https://x.com/<handle>/status/<id>` (or twitter.com, `/i/web/status/<id>`) → the post's id; null otherwise. */
export const parseXPostUrl = (url: string): string | null => parseXPostInput(url)?.id ?? null;

/** `@name`, `name` or a profile link on x.com / twitter.com → `name`; null otherwise. */
export const parseXHandle = (input: string): string | null => parseXHandleInput(input);

/** The connecting account's profile (`GET /2/users/me`). */
export async function fetchXProfile(call: ProviderCall): Promise<ProfileOutcome> {
  const answer = await providerRequest(call, {
    path: "/2/users/me",
    query: { "user.fields": "profile_image_url,username,name,created_at,public_metrics" },
    schema: z.object({ data: me }),
    scope: "users.read",
  });
  if (answer.kind !== "ok") return answer;
  const { id, username, name, profile_image_url, created_at, public_metrics } = answer.data.data;
  const accountCreatedAt = providerDate(created_at);
  const followers = public_metrics?.followers_count;
  return {
    kind: "profile",
    profile: {
      id,
      handle: username,
      displayName: name,
      avatarUrl: profile_image_url ?? null,
      ...(accountCreatedAt ? { accountCreatedAt } : {}),
      ...(followers !== undefined ? { followers } : {}),
    },
  };
}

/** An account's id from its handle (`GET /2/users/by/username/:username`). */
export async function xUserIdByHandle(
  call: ProviderCall,
  handle: string,
): Promise<{ kind: "user"; id: string; handle: string } | { kind: "not_found" } | ProviderFailure> {
  const username = parseXHandle(handle);
  if (!username) return { kind: "not_found" };
  const answer = await providerRequest(call, {
    path: `/2/users/by/username/${encodeURIComponent(username)}`,
    schema: z.object({ data: user.optional(), errors }),
    scope: "users.read",
  });
  if (answer.kind !== "ok") return answer;
  const found = answer.data.data;
  return found ? { kind: "user", id: found.id, handle: found.username } : { kind: "not_found" };
}

/** Whether the member follows `targetHandle`, among the accounts they followed most recently (one page). */
export async function checkXFollow(call: ProviderCall, { memberId, targetHandle }: { memberId: string; targetHandle: string }): Promise<CheckOutcome> {
  const wanted = (parseXHandle(targetHandle) ?? targetHandle).toLowerCase();
  const answer = await providerRequest(call, {
    path: `/2/users/${encodeURIComponent(memberId)}/following`,
    query: { max_results: FOLLOWING_PAGE },
    schema: usersPage,
    scope: "follows.read",
  });
  if (answer.kind !== "ok") return answer;
  const followed = answer.data.data?.find((u) => u.username.toLowerCase() === wanted);
  return followed ? { kind: "found", evidence: { id: followed.id, url: `https://x.com/${followed.username}` } } : { kind: "not_found" };
}

/** Whether the member liked the post, among their most recent likes (one page). */
export async function checkXLike(call: ProviderCall, { memberId, postId }: { memberId: string; postId: string }): Promise<CheckOutcome> {
  const answer = await providerRequest(call, {
    path: `/2/users/${encodeURIComponent(memberId)}/liked_tweets`,
    query: { max_results: LIKES_PAGE },
    schema: postsPage,
    scope: "like.read",
  });
  if (answer.kind !== "ok") return answer;
  const liked = answer.data.data?.some((p) => p.id === postId);
  return liked ? { kind: "found", evidence: { id: postId, url: postUrl(postId) } } : { kind: "not_found" };
}

/** Whether the member reposted the post, among its most recent reposters (one page). */
export async function checkXRepost(call: ProviderCall, { memberId, postId }: { memberId: string; postId: string }): Promise<CheckOutcome> {
  const answer = await providerRequest(call, {
    path: `/2/tweets/${encodeURIComponent(postId)}/retweeted_by`,
    query: { max_results: REPOSTERS_PAGE },
    schema: usersPage,
    scope: "tweet.read",
  });
  if (answer.kind !== "ok") return answer;
  const reposted = answer.data.data?.some((u) => u.id === memberId);
  return reposted ? { kind: "found", evidence: { id: postId, url: postUrl(postId) } } : { kind: "not_found" };
}

/** Whether one of the member's recent posts (replies and reposts left out) says the phrase or links to it. */
export async function checkXPost(call: ProviderCall, { memberId, phrase }: { memberId: string; phrase: string }): Promise<CheckOutcome> {
  const answer = await providerRequest(call, {
    path: `/2/users/${encodeURIComponent(memberId)}/tweets`,
    query: { max_results: POSTS_PAGE, exclude: "replies,retweets", "tweet.fields": "created_at,entities" },
    schema: postsPage,
    scope: "tweet.read",
  });
  if (answer.kind !== "ok") return answer;
  const match = answer.data.data?.find((p) =>
    mentionsPhrase({ text: p.text, links: (p.entities?.urls ?? []).flatMap((u) => [u.expanded_url, u.unwound_url].filter((l) => l !== undefined)), phrase }),
  );
  if (!match) return { kind: "not_found" };
  return { kind: "found", evidence: { id: match.id, ...(match.created_at ? { at: match.created_at } : {}), url: postUrl(match.id) } };
}

/**
 * A public post with its author (`GET /2/tweets/:id`), to verify an account by a posted code:
 * called with the app's bearer token. Deleted, protected and unknown posts are `not_found`.
 */
export async function readXPost(
  call: ProviderCall,
  postId: string,
): Promise<{ kind: "post"; id: string; authorId: string; authorHandle: string; text: string } | { kind: "not_found" } | ProviderFailure> {
  const answer = await providerRequest(call, {
    path: `/2/tweets/${encodeURIComponent(postId)}`,
    query: { expansions: "author_id", "user.fields": "username" },
    schema: z.object({
      data: post.optional(),
      includes: z
        .object({ users: z.array(user).optional() })
        .loose()
        .optional(),
      errors,
    }),
    scope: "tweet.read",
  });
  if (answer.kind !== "ok") return answer;
  const found = answer.data.data;
  if (!found) return { kind: "not_found" };
  const author = answer.data.includes?.users?.find((u) => u.id === found.author_id);
  if (!found.author_id || !author) return { kind: "malformed", detail: `x GET /2/tweets/${postId}: the post came without its author` };
  return { kind: "post", id: found.id, authorId: author.id, authorHandle: author.username, text: found.text };
}
