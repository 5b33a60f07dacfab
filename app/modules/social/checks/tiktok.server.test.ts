import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import type { ProviderCall } from "./outcome";
import { checkTiktokPost, fetchTiktokProfile } from "./tiktok.server";

const NOW = new Date("2025-06-01T12:00:00Z");
const member = { id: "-000adaOpenId", handle: "ada.codes", name: "Ada", avatarUrl: "https://p16-sign.tiktokcdn.com/ada.jpeg" };

let fakes: SocialFakes;
beforeAll(async () => {
  fakes = await startSocialFakes();
});
afterAll(() => fakes.stop());
beforeEach(() => fakes.reset());

const call = (accessToken: string): ProviderCall => ({ provider: "tiktok", apiUrl: fakes.env.TIKTOK_API_URL!, accessToken, now: NOW });
const memberCall = (scope?: string) => call(fakes.issueToken("tiktok", member, scope ? { scope } : {}).accessToken);
const posted = (c: ProviderCall, phrase = "#LumenSwap") => checkTiktokPost(c, { phrase });

describe("fetchTiktokProfile", () => {
  it("reads the token's account by its open_id", async () => {
    expect(await fetchTiktokProfile(memberCall())).toEqual({
      kind: "profile",
      profile: { id: "-000adaOpenId", handle: "ada.codes", displayName: "Ada", avatarUrl: member.avatarUrl },
    });
    expect(fakes.apiRequests.tiktok[0]).toMatchObject({ path: "/v2/user/info/", query: { fields: "open_id,avatar_url,display_name,username" } });
  });

  it("needs user.info.profile for the username, as TikTok does", async () => {
    expect(await fetchTiktokProfile(memberCall("user.info.basic,video.list"))).toEqual({ kind: "missing_scope", scope: "user.info.profile" });
  });
});

describe("checkTiktokPost", () => {
  beforeEach(() =>
    fakes.tiktok.setVideos(member.id, [
      { id: "7001", video_description: "morning routine", create_time: 1_748_700_000, share_url: "https://www.tiktok.com/@ada.codes/video/7001" },
      {
        id: "7002",
        video_description: "Questing with #lumenswap today",
        create_time: 1_748_770_000,
        share_url: "https://www.tiktok.com/@ada.codes/video/7002",
      },
    ]),
  );

  it("finds the phrase in a recent video's description, with its time and link", async () => {
    expect(await posted(memberCall())).toEqual({
      kind: "found",
      evidence: { id: "7002", at: new Date(1_748_770_000 * 1000).toISOString(), url: "https://www.tiktok.com/@ada.codes/video/7002" },
    });
    expect(fakes.apiRequests.tiktok[0]).toMatchObject({
      method: "POST",
      path: "/v2/video/list/",
      query: { fields: "id,video_description,create_time,share_url" },
      body: { max_count: 20 },
      authorization: "bearer",
    });
  });

  it("answers not_found when no video says it", async () => {
    expect(await posted(memberCall(), "#astrabridge")).toEqual({ kind: "not_found" });
  });
});

describe("when TikTok says no", () => {
  it("access_token_invalid needs reconnecting", async () => {
    const c = memberCall();
    fakes.revoke("tiktok", member.id);
    expect(await posted(c)).toEqual({ kind: "needs_reconnect" });
    fakes.failNext("tiktok", { kind: "unauthorized" });
    expect(await posted(memberCall())).toEqual({ kind: "needs_reconnect" });
  });

  it("scope_not_authorized is a missing video.list", async () => {
    expect(await posted(memberCall("user.info.basic"))).toEqual({ kind: "missing_scope", scope: "video.list" });
  });

  it("rate_limit_exceeded waits for retry-after, or a minute", async () => {
    fakes.failNext("tiktok", { kind: "rate_limited", retryAfterSeconds: 120 });
    expect(await posted(memberCall())).toEqual({ kind: "rate_limited", retryAt: new Date("2025-06-01T12:02:00Z") });
    fakes.failNext("tiktok", { kind: "rate_limited" });
    expect(await posted(memberCall())).toEqual({ kind: "rate_limited", retryAt: new Date("2025-06-01T12:01:00Z") });
  });

  it("internal_error (5xx) is unavailable; a body that is not JSON is malformed", async () => {
    fakes.failNext("tiktok", { kind: "server_error", status: 500 });
    expect(await posted(memberCall())).toEqual({ kind: "unavailable" });
    fakes.failNext("tiktok", { kind: "malformed" });
    expect(await posted(memberCall())).toMatchObject({ kind: "malformed" });
  });
});
