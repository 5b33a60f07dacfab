import { describe, expect, it } from "vitest";
import { z } from "zod";
import { startSocialFakes } from "#tests/fakes/social/social-fakes";
import { nextPacificMidnight, providerRequest, retryAtFrom } from "./http.server";
import { checkInstagramPost } from "./instagram.server";
import type { ProviderCall } from "./outcome";
import { checkTiktokPost } from "./tiktok.server";
import { checkXFollow } from "./x.server";
import { checkYoutubeSubscription } from "./youtube.server";

const NOW = new Date("2025-06-01T12:00:00Z");

describe("a provider that cannot be reached", () => {
  it("is unavailable when nothing listens any more (connection refused)", async () => {
    const fakes = await startSocialFakes();
    const env = fakes.env;
    await fakes.stop();
    const call = (provider: ProviderCall["provider"], apiUrl: string): ProviderCall => ({ provider, apiUrl, accessToken: "t", now: NOW });
    expect(await checkXFollow(call("x", env.X_API_URL!), { memberId: "1", targetHandle: "lumenswap" })).toEqual({ kind: "unavailable" });
    expect(await checkYoutubeSubscription(call("youtube", env.YOUTUBE_API_URL!), { channelId: "UCx" })).toEqual({ kind: "unavailable" });
    expect(await checkTiktokPost(call("tiktok", env.TIKTOK_API_URL!), { phrase: "gm" })).toEqual({ kind: "unavailable" });
    expect(await checkInstagramPost(call("instagram", env.INSTAGRAM_API_URL!), { phrase: "gm" })).toEqual({ kind: "unavailable" });
  });

  it("is unavailable when the request times out, and the request carries a timeout", async () => {
    let signal: AbortSignal | null | undefined;
    const timingOut: typeof fetch = (_url, init) => {
      signal = init?.signal;
      return Promise.reject(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    };
    const call: ProviderCall = { provider: "x", apiUrl: "http://127.0.0.1:9", accessToken: "t", fetch: timingOut, now: NOW };
    expect(await checkXFollow(call, { memberId: "1", targetHandle: "lumenswap" })).toEqual({ kind: "unavailable" });
    expect(signal).toBeInstanceOf(AbortSignal);
  });
});

describe("providerRequest", () => {
  const answering =
    (status: number, body: string, headers: Record<string, string> = {}): typeof fetch =>
    async () =>
      new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
  const request = (provider: ProviderCall["provider"], fetcher: typeof fetch) =>
    providerRequest(
      { provider, apiUrl: "http://127.0.0.1:9/api", accessToken: "secret-token", fetch: fetcher, now: NOW },
      {
        path: "/things",
        query: { access_token: "secret-token", page: 1 },
        schema: z.object({ id: z.string() }),
        scope: "things.read",
      },
    );

  it("parses a success with the schema", async () => {
    expect(await request("x", answering(200, '{"id":"1","extra":true}'))).toEqual({ kind: "ok", data: { id: "1" } });
  });

  it("calls an answer of another shape malformed, saying where, never with the token or the query", async () => {
    const answer = await request("x", answering(200, '{"id":1}'));
    expect(answer).toMatchObject({ kind: "malformed", detail: expect.stringContaining("x GET /things") });
    expect(JSON.stringify(answer)).not.toContain("secret-token");
  });

  it("falls back on the status when the body says nothing known", async () => {
    expect(await request("youtube", answering(401, "{}"))).toEqual({ kind: "needs_reconnect" });
    expect(await request("youtube", answering(403, "{}"))).toEqual({ kind: "missing_scope", scope: "things.read" });
    expect(await request("tiktok", answering(429, "Too many", { "retry-after": "5" }))).toEqual({
      kind: "rate_limited",
      retryAt: new Date("2025-06-01T12:00:05Z"),
    });
    expect(await request("instagram", answering(502, "<html>Bad gateway</html>"))).toEqual({ kind: "unavailable" });
    expect(await request("x", answering(404, "{}"))).toMatchObject({ kind: "malformed", detail: expect.stringContaining("HTTP 404") });
  });

  it("reads X's 403 for the app's own standing (not a member's scope) as ours to fix", async () => {
    const forbidden = JSON.stringify({
      title: "Client Forbidden",
      type: "https://api.twitter.com/2/problems/client-forbidden",
      detail: "App not attached to a Project",
    });
    expect(await request("x", answering(403, forbidden))).toMatchObject({ kind: "malformed", detail: expect.stringContaining("Client Forbidden") });
  });
});

describe("retryAtFrom", () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it("prefers X's x-rate-limit-reset (epoch seconds)", () => {
    expect(retryAtFrom(headers({ "x-rate-limit-reset": "1748780000", "retry-after": "5" }), NOW)).toEqual(new Date(1_748_780_000_000));
  });

  it("reads retry-after as seconds or as a date, else waits a minute", () => {
    expect(retryAtFrom(headers({ "retry-after": "90" }), NOW)).toEqual(new Date("2025-06-01T12:01:30Z"));
    expect(retryAtFrom(headers({ "retry-after": "Sun, 01 Jun 2025 12:05:00 GMT" }), NOW)).toEqual(new Date("2025-06-01T12:05:00Z"));
    expect(retryAtFrom(headers({}), NOW)).toEqual(new Date("2025-06-01T12:01:00Z"));
  });
});

describe("nextPacificMidnight", () => {
  it("is the coming midnight in Los Angeles, in summer and in winter time", () => {
    expect(nextPacificMidnight(new Date("2025-06-01T12:00:00Z"))).toEqual(new Date("2025-06-02T07:00:00Z"));
    expect(nextPacificMidnight(new Date("2025-01-15T03:00:00Z"))).toEqual(new Date("2025-01-15T08:00:00Z"));
    expect(nextPacificMidnight(new Date("2025-01-15T08:00:00Z"))).toEqual(new Date("2025-01-16T08:00:00Z"));
  });

  it("follows the clocks when they change before midnight", () => {
    // 00:30 PST on 9 March 2025; clocks go forward at 02:00, so the next midnight is PDT.
    expect(nextPacificMidnight(new Date("2025-03-09T08:30:00Z"))).toEqual(new Date("2025-03-10T07:00:00Z"));
  });
});
