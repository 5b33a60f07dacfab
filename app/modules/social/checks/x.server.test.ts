import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_X_BEARER_TOKEN, startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import type { ProviderCall } from "./outcome";
import { checkXFollow, checkXLike, checkXPost, checkXRepost, fetchXProfile, parseXHandle, parseXPostUrl, readXPost, xUserIdByHandle } from "./x.server";

const NOW = new Date("2025-06-01T12:00:00Z");
const member = {
  id: "1500",
  handle: "ada",
  name: "Ada Lovelace",
  avatarUrl: "https://pbs.twimg.com/profile_images/1/ada_normal.png",
  createdAt: "2013-12-14T04:35:55.000Z",
  followers: 1834,
};
const project = { id: "2000", username: "LumenSwap", name: "Lumen Swap" };

let fakes: SocialFakes;
beforeAll(async () => {
  fakes = await startSocialFakes();
});
afterAll(() => fakes.stop());
beforeEach(() => {
  fakes.reset();
  fakes.x.addUsers(project);
});

const call = (accessToken: string): ProviderCall => ({ provider: "x", apiUrl: fakes.env.X_API_URL!, accessToken, now: NOW });
const memberCall = (scope?: string) => call(fakes.issueToken("x", member, scope ? { scope } : {}).accessToken);

describe("fetchXProfile", () => {
  it("reads the token's account, with its creation time and followers", async () => {
    expect(await fetchXProfile(memberCall())).toEqual({
      kind: "profile",
      profile: {
        id: "1500",
        handle: "ada",
        displayName: "Ada Lovelace",
        avatarUrl: member.avatarUrl,
        accountCreatedAt: new Date(member.createdAt),
        followers: 1834,
      },
    });
    expect(fakes.apiRequests.x[0]).toMatchObject({
      path: "/2/users/me",
      authorization: "bearer",
      query: { "user.fields": "profile_image_url,username,name,created_at,public_metrics" },
    });
  });

  it("is refused with the app's token: ours to fix, so malformed (logged), not the member's", async () => {
    expect(await fetchXProfile(call(FAKE_X_BEARER_TOKEN))).toMatchObject({ kind: "malformed", detail: expect.stringContaining("Unsupported Authentication") });
  });
});

describe("xUserIdByHandle", () => {
  it("finds an account by handle, @ or link, whatever the case", async () => {
    expect(await xUserIdByHandle(memberCall(), "@lumenswap")).toEqual({ kind: "user", id: "2000", handle: "LumenSwap" });
    expect(await xUserIdByHandle(memberCall(), "https://x.com/LumenSwap")).toEqual({ kind: "user", id: "2000", handle: "LumenSwap" });
  });

  it("answers not_found for an unknown handle (X's 200 with errors)", async () => {
    expect(await xUserIdByHandle(memberCall(), "nobody_here")).toEqual({ kind: "not_found" });
  });
});

describe("checkXFollow", () => {
  it("finds a follow in the first page, with the account's id and link", async () => {
    fakes.x.setFollowing(member.id, ["7", project.id, "8"]);
    expect(await checkXFollow(memberCall(), { memberId: member.id, targetHandle: "@lumenswap" })).toEqual({
      kind: "found",
      evidence: { id: "2000", url: "https://x.com/LumenSwap" },
    });
    expect(fakes.apiRequests.x[0]).toMatchObject({ path: "/2/users/1500/following", query: { max_results: "1000" } });
  });

  it("answers not_found when the member does not follow", async () => {
    fakes.x.setFollowing(member.id, ["7"]);
    expect(await checkXFollow(memberCall(), { memberId: member.id, targetHandle: "lumenswap" })).toEqual({ kind: "not_found" });
  });

  it("reads the first page only: a follow on page 2 is not found, and page 2 is never asked for", async () => {
    const fillers = Array.from({ length: 1000 }, (_, i) => String(10_000 + i));
    fakes.x.setFollowing(member.id, [...fillers, project.id]);
    expect(await checkXFollow(memberCall(), { memberId: member.id, targetHandle: "lumenswap" })).toEqual({ kind: "not_found" });
    expect(fakes.apiRequests.x).toHaveLength(1);
    expect(fakes.apiRequests.x[0]!.query.pagination_token).toBeUndefined();
  });

  it("needs follows.read", async () => {
    expect(await checkXFollow(memberCall("users.read tweet.read like.read"), { memberId: member.id, targetHandle: "lumenswap" })).toEqual({
      kind: "missing_scope",
      scope: "follows.read",
    });
  });

  it("works with the app's token for an account verified by a posted code", async () => {
    fakes.x.setFollowing(member.id, [project.id]);
    expect(await checkXFollow(call(FAKE_X_BEARER_TOKEN), { memberId: member.id, targetHandle: "lumenswap" })).toMatchObject({ kind: "found" });
  });
});

describe("checkXLike", () => {
  it("finds the post among the member's likes", async () => {
    fakes.x.setLikes(member.id, ["99", "3000"]);
    expect(await checkXLike(memberCall(), { memberId: member.id, postId: "3000" })).toEqual({
      kind: "found",
      evidence: { id: "3000", url: "https://x.com/i/status/3000" },
    });
    expect(fakes.apiRequests.x[0]).toMatchObject({ path: "/2/users/1500/liked_tweets", query: { max_results: "100" } });
  });

  it("answers not_found otherwise, and needs like.read", async () => {
    expect(await checkXLike(memberCall(), { memberId: member.id, postId: "3000" })).toEqual({ kind: "not_found" });
    expect(await checkXLike(memberCall("users.read tweet.read"), { memberId: member.id, postId: "3000" })).toEqual({
      kind: "missing_scope",
      scope: "like.read",
    });
  });
});

describe("checkXRepost", () => {
  beforeEach(() => fakes.x.addPosts({ id: "3000", authorId: project.id, text: "Season 2 is live", createdAt: "2025-05-30T10:00:00.000Z" }));

  it("finds the member among the post's reposters", async () => {
    fakes.x.setReposts("3000", ["1", member.id]);
    expect(await checkXRepost(memberCall(), { memberId: member.id, postId: "3000" })).toEqual({
      kind: "found",
      evidence: { id: "3000", url: "https://x.com/i/status/3000" },
    });
  });

  it("answers not_found when they did not repost, or the post is gone", async () => {
    expect(await checkXRepost(memberCall(), { memberId: member.id, postId: "3000" })).toEqual({ kind: "not_found" });
    expect(await checkXRepost(memberCall(), { memberId: member.id, postId: "404" })).toEqual({ kind: "not_found" });
  });
});

describe("checkXPost", () => {
  beforeEach(() =>
    fakes.x.addPosts(
      { id: "4001", authorId: member.id, text: "gm frens", createdAt: "2025-05-31T08:00:00.000Z" },
      { id: "4002", authorId: member.id, text: "Joining the #LumenSwap season: https://lumen.example/quests?ref=ada", createdAt: "2025-05-31T09:00:00.000Z" },
      { id: "4003", authorId: member.id, text: "@lumenswap I love Lumen quests", createdAt: "2025-05-31T10:00:00.000Z", reply: true },
      { id: "4004", authorId: member.id, text: "RT @lumenswap: Lumen quests are live", createdAt: "2025-05-31T11:00:00.000Z", repost: true },
    ),
  );

  it("finds the phrase in a recent post, ignoring case, with its time and link", async () => {
    expect(await checkXPost(memberCall(), { memberId: member.id, phrase: "#lumenswap SEASON" })).toEqual({
      kind: "found",
      evidence: { id: "4002", at: "2025-05-31T09:00:00.000Z", url: "https://x.com/i/status/4002" },
    });
    expect(fakes.apiRequests.x[0]).toMatchObject({
      path: "/2/users/1500/tweets",
      query: { exclude: "replies,retweets", "tweet.fields": "created_at,entities", max_results: "100" },
    });
  });

  it("finds a link although X shows it as t.co in the text", async () => {
    expect(await checkXPost(memberCall(), { memberId: member.id, phrase: "https://lumen.example/quests" })).toMatchObject({
      kind: "found",
      evidence: { id: "4002" },
    });
    expect(await checkXPost(memberCall(), { memberId: member.id, phrase: "lumen.example/quests" })).toMatchObject({ kind: "found", evidence: { id: "4002" } });
  });

  it("leaves replies and reposts out, and matches whole words only", async () => {
    expect(await checkXPost(memberCall(), { memberId: member.id, phrase: "Lumen quests" })).toEqual({ kind: "not_found" });
    expect(await checkXPost(memberCall(), { memberId: member.id, phrase: "gm fren" })).toEqual({ kind: "not_found" });
  });
});

describe("readXPost", () => {
  it("reads a public post and its author with the app's token", async () => {
    fakes.x.addPosts({ id: "5000", authorId: project.id, text: "Verifying my account: QL-7F3K", createdAt: "2025-05-31T09:00:00.000Z" });
    expect(await readXPost(call(FAKE_X_BEARER_TOKEN), "5000")).toEqual({
      kind: "post",
      id: "5000",
      authorId: "2000",
      authorHandle: "LumenSwap",
      text: "Verifying my account: QL-7F3K",
    });
    expect(fakes.apiRequests.x[0]).toMatchObject({ path: "/2/tweets/5000", query: { expansions: "author_id", "user.fields": "username" } });
  });

  it("answers not_found for a post X does not know", async () => {
    expect(await readXPost(call(FAKE_X_BEARER_TOKEN), "404")).toEqual({ kind: "not_found" });
  });
});

describe("when X says no", () => {
  const follow = (c: ProviderCall) => checkXFollow(c, { memberId: member.id, targetHandle: "lumenswap" });

  it("a refused token (injected 401, revoked, expired, unknown) needs reconnecting", async () => {
    const c = memberCall();
    fakes.failNext("x", { kind: "unauthorized" });
    expect(await follow(c)).toEqual({ kind: "needs_reconnect" });
    expect(await follow(c)).toEqual({ kind: "not_found" });
    fakes.revoke("x", member.id);
    expect(await follow(c)).toEqual({ kind: "needs_reconnect" });
    expect(await follow(call(fakes.issueToken("x", member, { expiresInSeconds: 0 }).accessToken))).toEqual({ kind: "needs_reconnect" });
    expect(await follow(call("made-up"))).toEqual({ kind: "needs_reconnect" });
  });

  it("a rate limit is retried at X's x-rate-limit-reset", async () => {
    const resetAt = new Date("2025-06-01T12:13:20Z");
    fakes.failNext("x", { kind: "rate_limited", resetAt }, { path: `/2/users/${member.id}/following` });
    expect(await follow(memberCall())).toEqual({ kind: "rate_limited", retryAt: resetAt });
  });

  it("a 5xx is unavailable; a body that is not JSON, or not X's shape, is malformed", async () => {
    fakes.failNext("x", { kind: "server_error", status: 503 });
    expect(await follow(memberCall())).toEqual({ kind: "unavailable" });
    fakes.failNext("x", { kind: "server_error", status: 500 });
    expect(await follow(memberCall())).toEqual({ kind: "unavailable" });
    fakes.failNext("x", { kind: "malformed" });
    expect(await follow(memberCall())).toMatchObject({ kind: "malformed", detail: expect.stringContaining("not JSON") });
  });
});

describe("parsing what a team member types", () => {
  it("reads a post's id from its link", () => {
    expect(parseXPostUrl("https://x.com/LumenSwap/status/1790000000000000001")).toBe("1790000000000000001");
    expect(parseXPostUrl("https://twitter.com/lumenswap/status/123?s=20")).toBe("123");
    expect(parseXPostUrl("https://x.com/i/web/status/456")).toBe("456");
    expect(parseXPostUrl("https://example.com/a/status/1")).toBeNull();
    expect(parseXPostUrl("not a link")).toBeNull();
  });

  it("reads a handle from @name, name or a profile link", () => {
    expect(parseXHandle("@LumenSwap")).toBe("LumenSwap");
    expect(parseXHandle("lumenswap")).toBe("lumenswap");
    expect(parseXHandle("https://x.com/lumenswap")).toBe("lumenswap");
    expect(parseXHandle("https://twitter.com/lumenswap?lang=en")).toBe("lumenswap");
    expect(parseXHandle("https://x.com/home")).toBeNull();
    expect(parseXHandle("not a handle!")).toBeNull();
  });
});
