import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import type { ProviderCall } from "./outcome";
import { checkYoutubeSubscription, fetchYoutubeProfile, parseYoutubeChannel } from "./youtube.server";

const NOW = new Date("2025-06-01T12:00:00Z");
const member = {
  id: "UCadaAAAAAAAAAAAAAAAAAAA",
  handle: "adalovelace",
  name: "Ada Lovelace",
  avatarUrl: "https://yt3.ggpht.com/ada=s88",
  createdAt: "2015-05-21T15:26:46Z",
  followers: 2500,
};
const CHANNEL = "UClumenBBBBBBBBBBBBBBBBB";

let fakes: SocialFakes;
beforeAll(async () => {
  fakes = await startSocialFakes();
});
afterAll(() => fakes.stop());
beforeEach(() => fakes.reset());

const call = (accessToken: string): ProviderCall => ({ provider: "youtube", apiUrl: fakes.env.YOUTUBE_API_URL!, accessToken, now: NOW });
const memberCall = (scope?: string) => call(fakes.issueToken("youtube", member, scope ? { scope } : {}).accessToken);
const subscribed = (c: ProviderCall) => checkYoutubeSubscription(c, { channelId: CHANNEL });

describe("fetchYoutubeProfile", () => {
  it("reads the token's channel, its handle without @, its creation time and subscribers", async () => {
    expect(await fetchYoutubeProfile(memberCall())).toEqual({
      kind: "profile",
      profile: {
        id: member.id,
        handle: "adalovelace",
        displayName: "Ada Lovelace",
        avatarUrl: "https://yt3.ggpht.com/ada=s88",
        accountCreatedAt: new Date(member.createdAt),
        followers: 2500,
      },
    });
    expect(fakes.apiRequests.youtube[0]).toMatchObject({ path: "/youtube/v3/channels", query: { part: "snippet,statistics", mine: "true" } });
  });
});

describe("checkYoutubeSubscription", () => {
  it("finds the subscription, with its id and time", async () => {
    fakes.youtube.setSubscriptions(member.id, [
      { channelId: "UCotherCCCCCCCCCCCCCCCCC" },
      { channelId: CHANNEL, id: "sub-123", publishedAt: "2025-05-20T08:00:00Z" },
    ]);
    expect(await subscribed(memberCall())).toEqual({
      kind: "found",
      evidence: { id: "sub-123", at: "2025-05-20T08:00:00Z", url: `https://www.youtube.com/channel/${CHANNEL}` },
    });
    expect(fakes.apiRequests.youtube[0]).toMatchObject({ path: "/youtube/v3/subscriptions", query: { part: "snippet", mine: "true", forChannelId: CHANNEL } });
  });

  it("answers not_found when the member does not subscribe", async () => {
    fakes.youtube.setSubscriptions(member.id, [{ channelId: "UCotherCCCCCCCCCCCCCCCCC" }]);
    expect(await subscribed(memberCall())).toEqual({ kind: "not_found" });
  });
});

describe("when YouTube says no", () => {
  it("authError (401) needs reconnecting", async () => {
    const c = memberCall();
    fakes.revoke("youtube", member.id);
    expect(await subscribed(c)).toEqual({ kind: "needs_reconnect" });
    fakes.failNext("youtube", { kind: "unauthorized" });
    expect(await subscribed(memberCall())).toEqual({ kind: "needs_reconnect" });
  });

  it("insufficientPermissions (403) is a missing youtube.readonly", async () => {
    expect(await subscribed(memberCall("openid email"))).toEqual({ kind: "missing_scope", scope: "https://www.googleapis.com/auth/youtube.readonly" });
  });

  it("quotaExceeded (403) waits for the quota's reset at midnight in California", async () => {
    fakes.failNext("youtube", { kind: "rate_limited", youtubeReason: "quotaExceeded" });
    // 12:00 UTC on 1 June is 05:00 PDT (UTC−7): the next midnight there is 07:00 UTC on 2 June.
    expect(await subscribed(memberCall())).toEqual({ kind: "rate_limited", retryAt: new Date("2025-06-02T07:00:00Z") });
  });

  it("rateLimitExceeded waits for retry-after, or a minute when it is not given", async () => {
    fakes.failNext("youtube", { kind: "rate_limited", youtubeReason: "rateLimitExceeded", retryAfterSeconds: 30 });
    expect(await subscribed(memberCall())).toEqual({ kind: "rate_limited", retryAt: new Date("2025-06-01T12:00:30Z") });
    fakes.failNext("youtube", { kind: "rate_limited", youtubeReason: "userRateLimitExceeded" });
    expect(await subscribed(memberCall())).toEqual({ kind: "rate_limited", retryAt: new Date("2025-06-01T12:01:00Z") });
  });

  it("backendError (500, 503) is unavailable; a body that is not JSON is malformed", async () => {
    fakes.failNext("youtube", { kind: "server_error", status: 500 });
    expect(await subscribed(memberCall())).toEqual({ kind: "unavailable" });
    fakes.failNext("youtube", { kind: "server_error", status: 503 });
    expect(await fetchYoutubeProfile(memberCall())).toEqual({ kind: "unavailable" });
    fakes.failNext("youtube", { kind: "malformed" });
    expect(await subscribed(memberCall())).toMatchObject({ kind: "malformed" });
  });
});

describe("parseYoutubeChannel", () => {
  it("reads a UC… id, or a channel link", () => {
    expect(parseYoutubeChannel(CHANNEL)).toBe(CHANNEL);
    expect(parseYoutubeChannel(`https://www.youtube.com/channel/${CHANNEL}`)).toBe(CHANNEL);
    expect(parseYoutubeChannel(`youtube.com/channel/${CHANNEL}/videos`)).toBe(CHANNEL);
    expect(parseYoutubeChannel("https://www.youtube.com/@lumenswap")).toBeNull();
    expect(parseYoutubeChannel("UCshort")).toBeNull();
  });
});
