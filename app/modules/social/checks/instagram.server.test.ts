import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_CLIENTS, startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { checkInstagramPost, exchangeInstagramToken, fetchInstagramProfile, refreshInstagramToken } from "./instagram.server";
import type { ProviderCall } from "./outcome";

const NOW = new Date("2025-06-01T12:00:00Z");
const member = {
  id: "17841400000000042",
  handle: "ada.builds",
  name: "Ada",
  avatarUrl: "https://scontent.cdninstagram.com/ada.jpg",
  accountType: "MEDIA_CREATOR" as const,
  followers: 312,
};

let fakes: SocialFakes;
beforeAll(async () => {
  fakes = await startSocialFakes();
});
afterAll(() => fakes.stop());
beforeEach(() => fakes.reset());

const apiUrl = () => fakes.env.INSTAGRAM_API_URL!;
const call = (accessToken: string): ProviderCall => ({ provider: "instagram", apiUrl: apiUrl(), accessToken, now: NOW });
const memberCall = (scope?: string) => call(fakes.issueToken("instagram", member, scope ? { scope } : {}).accessToken);
const posted = (c: ProviderCall, phrase = "#LumenSwap") => checkInstagramPost(c, { phrase });

describe("fetchInstagramProfile", () => {
  it("reads a professional account", async () => {
    expect(await fetchInstagramProfile(memberCall())).toEqual({
      kind: "profile",
      profile: { id: member.id, handle: "ada.builds", displayName: "Ada", avatarUrl: member.avatarUrl, accountType: "MEDIA_CREATOR", followers: 312 },
    });
    expect(fakes.apiRequests.instagram[0]).toMatchObject({
      path: "/me",
      query: { fields: "user_id,username,name,profile_picture_url,account_type,followers_count" },
    });
  });

  it("sets a personal account apart: Instagram's API does not serve them", async () => {
    const personal = { ...member, id: "17841400000000043", accountType: "PERSONAL" as const };
    const { accessToken } = fakes.issueToken("instagram", personal);
    expect(await fetchInstagramProfile(call(accessToken))).toMatchObject({ kind: "personal_account", profile: { id: personal.id, accountType: "PERSONAL" } });
  });
});

describe("checkInstagramPost", () => {
  beforeEach(() =>
    fakes.instagram.setMedia(member.id, [
      { id: "1801", caption: "sunset", timestamp: "2025-05-30T18:00:00+0000", permalink: "https://www.instagram.com/p/A1/" },
      { id: "1802", caption: "Season two with #lumenswap", timestamp: "2025-05-31T09:30:00+0000", permalink: "https://www.instagram.com/p/B2/" },
      { id: "1803", timestamp: "2025-05-31T10:00:00+0000", permalink: "https://www.instagram.com/p/C3/" },
    ]),
  );

  it("finds the phrase in a recent caption, with its time (as ISO 8601) and permalink", async () => {
    expect(await posted(memberCall())).toEqual({
      kind: "found",
      evidence: { id: "1802", at: "2025-05-31T09:30:00.000Z", url: "https://www.instagram.com/p/B2/" },
    });
    expect(fakes.apiRequests.instagram[0]).toMatchObject({
      path: "/me/media",
      query: { fields: "id,caption,timestamp,permalink", limit: "25" },
      authorization: "bearer",
    });
  });

  it("answers not_found when no caption says it", async () => {
    expect(await posted(memberCall(), "#astrabridge")).toEqual({ kind: "not_found" });
  });
});

describe("when Instagram says no", () => {
  it("error 190 (revoked, expired, unknown token) needs reconnecting", async () => {
    const c = memberCall();
    fakes.revoke("instagram", member.id);
    expect(await posted(c)).toEqual({ kind: "needs_reconnect" });
    expect(await posted(call(fakes.issueToken("instagram", member, { expiresInSeconds: 0 }).accessToken))).toEqual({ kind: "needs_reconnect" });
    fakes.failNext("instagram", { kind: "unauthorized" });
    expect(await posted(memberCall())).toEqual({ kind: "needs_reconnect" });
  });

  it("error 10 is a missing instagram_business_basic", async () => {
    expect(await posted(memberCall("instagram_business_manage_messages"))).toEqual({ kind: "missing_scope", scope: "instagram_business_basic" });
  });

  it("errors 4, 17, 32, 613 wait for x-business-use-case-usage's estimated time, or a minute", async () => {
    fakes.failNext("instagram", { kind: "rate_limited", instagramCode: 4, retryAfterSeconds: 600 });
    expect(await posted(memberCall())).toEqual({ kind: "rate_limited", retryAt: new Date("2025-06-01T12:10:00Z") });
    for (const instagramCode of [17, 32, 613] as const) {
      fakes.failNext("instagram", { kind: "rate_limited", instagramCode });
      expect(await posted(memberCall())).toEqual({ kind: "rate_limited", retryAt: new Date("2025-06-01T12:01:00Z") });
    }
  });

  it("a transient error (5xx) is unavailable; a body that is not JSON is malformed", async () => {
    fakes.failNext("instagram", { kind: "server_error", status: 500 });
    expect(await posted(memberCall())).toEqual({ kind: "unavailable" });
    fakes.failNext("instagram", { kind: "server_error", status: 503 });
    expect(await fetchInstagramProfile(memberCall())).toEqual({ kind: "unavailable" });
    fakes.failNext("instagram", { kind: "malformed" });
    expect(await posted(memberCall())).toMatchObject({ kind: "malformed" });
  });
});

describe("long-lived tokens", () => {
  it("swaps a short-lived token for a 60-day one that works, then refreshes it", async () => {
    const { accessToken: shortLivedToken } = fakes.issueToken("instagram", member);
    const exchanged = await exchangeInstagramToken({ apiUrl: apiUrl(), clientSecret: FAKE_CLIENTS.instagram.clientSecret, shortLivedToken, now: NOW });
    expect(exchanged).toEqual({ kind: "token", accessToken: expect.any(String), expiresAt: new Date(NOW.getTime() + 60 * 86_400_000) });
    if (exchanged.kind !== "token") throw new Error("no token");
    expect(await fetchInstagramProfile(call(exchanged.accessToken))).toMatchObject({ kind: "profile", profile: { id: member.id } });

    const refreshed = await refreshInstagramToken({ apiUrl: apiUrl(), accessToken: exchanged.accessToken, now: NOW });
    expect(refreshed).toMatchObject({ kind: "token", expiresAt: new Date(NOW.getTime() + 60 * 86_400_000) });
    expect(fakes.tokenRequests.instagram.map((r) => [r.grantType, r.status])).toEqual([
      ["ig_exchange_token", 200],
      ["ig_refresh_token", 200],
    ]);
    // The token travels as the documented query parameter, not in a header.
    expect(fakes.apiRequests.instagram.filter((r) => r.path !== "/me").map((r) => r.authorization)).toEqual(["query", "query"]);
  });

  it("a revoked token cannot be exchanged nor refreshed; a wrong client secret is ours to fix", async () => {
    const { accessToken } = fakes.issueToken("instagram", member);
    expect(await exchangeInstagramToken({ apiUrl: apiUrl(), clientSecret: "wrong", shortLivedToken: accessToken, now: NOW })).toMatchObject({
      kind: "malformed",
      detail: expect.stringContaining("client secret"),
    });
    fakes.revoke("instagram", member.id);
    expect(
      await exchangeInstagramToken({ apiUrl: apiUrl(), clientSecret: FAKE_CLIENTS.instagram.clientSecret, shortLivedToken: accessToken, now: NOW }),
    ).toEqual({
      kind: "needs_reconnect",
    });
    expect(await refreshInstagramToken({ apiUrl: apiUrl(), accessToken, now: NOW })).toEqual({ kind: "needs_reconnect" });
  });
});
