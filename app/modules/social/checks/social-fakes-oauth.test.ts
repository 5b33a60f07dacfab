/**
 * The providers' OAuth protocols as the fakes speak them (tests/fakes/social), so the app's
 * connect flow meets there what it meets in production: one authorization per provider, through
 * /authorize and the token endpoint over real HTTP, then the profile read with the token.
 */
import { createHash, randomBytes } from "node:crypto";
import type { FakeProvider } from "#tests/fakes/social/endpoints";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSocialFakes, type SocialFakes } from "#tests/fakes/social/social-fakes";
import { fetchInstagramProfile } from "./instagram.server";
import type { ProviderCall } from "./outcome";
import { fetchTiktokProfile } from "./tiktok.server";
import { fetchXProfile } from "./x.server";
import { fetchYoutubeProfile } from "./youtube.server";

const REDIRECT = "http://localhost:5173/api/auth/oauth2/callback";
const account = (id: string) => ({ id, handle: `user${id}`, name: `User ${id}`, avatarUrl: `https://cdn.example/${id}.png` });

let fakes: SocialFakes;
beforeAll(async () => {
  fakes = await startSocialFakes();
});
afterAll(() => fakes.stop());
beforeEach(() => fakes.reset());

const env = (provider: FakeProvider, name: string) => fakes.env[`${provider === "x" ? "X" : provider.toUpperCase()}_${name}`]!;
const callFor = (provider: FakeProvider, accessToken: string): ProviderCall => ({ provider, apiUrl: env(provider, "API_URL"), accessToken });

/** What the browser does: follow /authorize, which redirects straight back with a code. */
async function authorize(provider: FakeProvider, params: Record<string, string>) {
  const url = new URL(env(provider, "AUTHORIZE_URL"));
  for (const [name, value] of Object.entries({ response_type: "code", redirect_uri: REDIRECT, state: "st4te", ...params })) url.searchParams.set(name, value);
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get("state")).toBe("st4te");
  return { code: back.searchParams.get("code")!, callback: back };
}

async function token(provider: FakeProvider, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(env(provider, "TOKEN_URL"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};
const basic = (provider: FakeProvider) => ({
  authorization: `Basic ${Buffer.from(`${fakes.clients[provider].clientId}:${fakes.clients[provider].clientSecret}`).toString("base64")}`,
});

describe("X (PKCE S256, client auth by HTTP Basic, rotating refresh tokens)", () => {
  it("logs in as the next account, refreshes, and stops at revocation", async () => {
    fakes.nextAccount("x", account("42"));
    const { verifier, challenge } = pkce();
    const scope = "users.read tweet.read follows.read like.read offline.access";
    const { code } = await authorize("x", { client_id: env("x", "CLIENT_ID"), scope, code_challenge: challenge, code_challenge_method: "S256" });

    const issued = await token("x", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, basic("x"));
    expect(issued).toEqual({
      status: 200,
      body: { token_type: "bearer", expires_in: 7200, access_token: expect.any(String), scope, refresh_token: expect.any(String) },
    });
    expect(await fetchXProfile(callFor("x", issued.body.access_token as string))).toMatchObject({ kind: "profile", profile: { id: "42", handle: "user42" } });
    expect(fakes.tokenRequests.x[0]).toMatchObject({
      grantType: "authorization_code",
      basicAuth: true,
      clientId: "fake-x-client",
      codeVerifier: true,
      status: 200,
    });

    const refreshed = await token("x", { grant_type: "refresh_token", refresh_token: issued.body.refresh_token as string }, basic("x"));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect(await fetchXProfile(callFor("x", refreshed.body.access_token as string))).toMatchObject({ kind: "profile", profile: { id: "42" } });
    // The spent refresh token is refused.
    expect(await token("x", { grant_type: "refresh_token", refresh_token: issued.body.refresh_token as string }, basic("x"))).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });

    fakes.revoke("x", "42");
    expect(await fetchXProfile(callFor("x", refreshed.body.access_token as string))).toEqual({ kind: "needs_reconnect" });
    expect(await token("x", { grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token as string }, basic("x"))).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
  });

  it("refuses a login without PKCE S256, a token request without Basic auth, and a wrong verifier", async () => {
    const plain = new URL(env("x", "AUTHORIZE_URL"));
    for (const [n, v] of Object.entries({
      response_type: "code",
      client_id: env("x", "CLIENT_ID"),
      redirect_uri: REDIRECT,
      code_challenge: "abc",
      code_challenge_method: "plain",
    })) {
      plain.searchParams.set(n, v);
    }
    expect((await fetch(plain, { redirect: "manual" })).status).toBe(400);

    const { verifier, challenge } = pkce();
    const { code } = await authorize("x", {
      client_id: env("x", "CLIENT_ID"),
      scope: "users.read tweet.read",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(
      await token("x", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: env("x", "CLIENT_ID") }),
    ).toMatchObject({
      status: 401,
      body: { error: "unauthorized_client" },
    });
    const again = await authorize("x", { client_id: env("x", "CLIENT_ID"), scope: "users.read", code_challenge: challenge, code_challenge_method: "S256" });
    expect(
      await token("x", { grant_type: "authorization_code", code: again.code, redirect_uri: REDIRECT, code_verifier: pkce().verifier }, basic("x")),
    ).toMatchObject({
      status: 400,
      body: { error: "invalid_request", error_description: expect.stringContaining("code_verifier") },
    });
  });

  it("grants only what the member allowed, when a test says so", async () => {
    fakes.nextAccount("x", account("43"), { scopes: ["users.read", "tweet.read"] });
    const { verifier, challenge } = pkce();
    const { code } = await authorize("x", {
      client_id: env("x", "CLIENT_ID"),
      scope: "users.read tweet.read follows.read",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const issued = await token("x", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, basic("x"));
    expect(issued.body).toMatchObject({ scope: "users.read tweet.read" });
    expect(issued.body.refresh_token).toBeUndefined();
  });
});

describe("YouTube (Google: client secret in the form, refresh token kept)", () => {
  it("logs in, reads the channel, refreshes", async () => {
    fakes.nextAccount("youtube", { ...account("UCfortyTwoAAAAAAAAAAAAAA"), handle: "fortytwo" });
    const scope = "https://www.googleapis.com/auth/youtube.readonly";
    const { code, callback } = await authorize("youtube", { client_id: env("youtube", "CLIENT_ID"), scope, access_type: "offline", prompt: "consent" });
    expect(callback.searchParams.get("scope")).toBe(scope);
    const form = { client_id: env("youtube", "CLIENT_ID"), client_secret: env("youtube", "CLIENT_SECRET") };
    const issued = await token("youtube", { ...form, grant_type: "authorization_code", code, redirect_uri: REDIRECT });
    expect(issued).toEqual({
      status: 200,
      body: { access_token: expect.any(String), expires_in: 3599, scope, token_type: "Bearer", refresh_token: expect.any(String) },
    });
    expect(await fetchYoutubeProfile(callFor("youtube", issued.body.access_token as string))).toMatchObject({
      kind: "profile",
      profile: { id: "UCfortyTwoAAAAAAAAAAAAAA", handle: "fortytwo" },
    });
    const refreshed = await token("youtube", { ...form, grant_type: "refresh_token", refresh_token: issued.body.refresh_token as string });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBeUndefined();
    expect(fakes.tokenRequests.youtube.map((r) => [r.grantType, r.basicAuth, r.clientSecretInBody])).toEqual([
      ["authorization_code", false, true],
      ["refresh_token", false, true],
    ]);
  });

  it("fails a refresh on demand, when a test names the token endpoint", async () => {
    const form = { client_id: env("youtube", "CLIENT_ID"), client_secret: env("youtube", "CLIENT_SECRET"), grant_type: "refresh_token" };
    const { refreshToken } = fakes.issueToken("youtube", account("UCrefreshAAAAAAAAAAAAAAA"));
    const path = new URL(env("youtube", "TOKEN_URL")).pathname;
    fakes.failNext("youtube", { kind: "server_error", status: 503 }, { path });
    fakes.failNext("youtube", { kind: "unauthorized" }, { path });
    fakes.failNext("youtube", { kind: "malformed" });
    expect((await token("youtube", { ...form, refresh_token: refreshToken })).status).toBe(503);
    expect(await token("youtube", { ...form, refresh_token: refreshToken })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // A fault without a path is the API's: the token endpoint answers.
    expect((await token("youtube", { ...form, refresh_token: refreshToken })).status).toBe(200);
    expect(fakes.tokenRequests.youtube.map((r) => r.status)).toEqual([503, 400, 200]);
  });

  it("refuses a code used twice, or sent back to another redirect_uri", async () => {
    const form = { client_id: env("youtube", "CLIENT_ID"), client_secret: env("youtube", "CLIENT_SECRET"), grant_type: "authorization_code" };
    const { code } = await authorize("youtube", { client_id: env("youtube", "CLIENT_ID"), scope: "openid" });
    expect(await token("youtube", { ...form, code, redirect_uri: "http://localhost:5173/elsewhere" })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    expect(await token("youtube", { ...form, code, redirect_uri: REDIRECT })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });
});

describe("TikTok (client_key, open_id in the token answer)", () => {
  it("logs in with client_key and answers in TikTok's shape", async () => {
    fakes.nextAccount("tiktok", account("-000open42"));
    const { verifier, challenge } = pkce();
    const { code, callback } = await authorize("tiktok", {
      client_key: env("tiktok", "CLIENT_ID"),
      scope: "user.info.basic,user.info.profile,video.list",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(callback.searchParams.get("scopes")).toBe("user.info.basic,user.info.profile,video.list");
    const issued = await token("tiktok", {
      client_key: env("tiktok", "CLIENT_ID"),
      client_secret: env("tiktok", "CLIENT_SECRET"),
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(issued).toEqual({
      status: 200,
      body: {
        access_token: expect.any(String),
        expires_in: 86_400,
        open_id: "-000open42",
        refresh_token: expect.any(String),
        refresh_expires_in: 31_536_000,
        scope: "user.info.basic,user.info.profile,video.list",
        token_type: "Bearer",
      },
    });
    expect(fakes.tokenRequests.tiktok[0]).toMatchObject({ clientKey: true, clientSecretInBody: true, codeVerifier: true, basicAuth: false });
    expect(await fetchTiktokProfile(callFor("tiktok", issued.body.access_token as string))).toMatchObject({ kind: "profile", profile: { id: "-000open42" } });
  });

  it("refuses an unknown client_key at the consent page", async () => {
    const url = new URL(env("tiktok", "AUTHORIZE_URL"));
    url.search = new URLSearchParams({ client_key: "other", response_type: "code", redirect_uri: REDIRECT, scope: "user.info.basic" }).toString();
    expect((await fetch(url, { redirect: "manual" })).status).toBe(400);
  });
});

describe("Instagram (a short-lived token as {access_token, user_id, permissions})", () => {
  it("logs in and answers in Instagram's shape; the token reads the profile", async () => {
    fakes.nextAccount("instagram", { ...account("17841400000000099"), accountType: "BUSINESS" });
    const { code, callback } = await authorize("instagram", { client_id: env("instagram", "CLIENT_ID"), scope: "instagram_business_basic" });
    expect(callback.hash).toBe("#_");
    const form = {
      client_id: env("instagram", "CLIENT_ID"),
      client_secret: env("instagram", "CLIENT_SECRET"),
      grant_type: "authorization_code",
      redirect_uri: REDIRECT,
    };
    const issued = await token("instagram", { ...form, code });
    expect(issued).toEqual({ status: 200, body: { access_token: expect.any(String), user_id: "17841400000000099", permissions: "instagram_business_basic" } });
    expect(await fetchInstagramProfile(callFor("instagram", issued.body.access_token as string))).toMatchObject({
      kind: "profile",
      profile: { id: "17841400000000099" },
    });
    expect(await token("instagram", { ...form, code })).toMatchObject({ status: 400, body: { error_type: "OAuthException", code: 400 } });
  });

  it("wraps the answer in {data:[…]} when asked to, as newer docs show", async () => {
    const wrapped = await startSocialFakes({ instagramTokenShape: "wrapped" });
    try {
      const url = new URL(wrapped.env.INSTAGRAM_AUTHORIZE_URL!);
      url.search = new URLSearchParams({
        client_id: wrapped.env.INSTAGRAM_CLIENT_ID!,
        response_type: "code",
        redirect_uri: REDIRECT,
        scope: "instagram_business_basic",
      }).toString();
      const code = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!).searchParams.get("code")!;
      const response = await fetch(wrapped.env.INSTAGRAM_TOKEN_URL!, {
        method: "POST",
        body: new URLSearchParams({
          client_id: wrapped.env.INSTAGRAM_CLIENT_ID!,
          client_secret: wrapped.env.INSTAGRAM_CLIENT_SECRET!,
          grant_type: "authorization_code",
          redirect_uri: REDIRECT,
          code,
        }),
      });
      expect(await response.json()).toEqual({
        data: [{ access_token: expect.any(String), user_id: expect.any(String), permissions: "instagram_business_basic" }],
      });
    } finally {
      await wrapped.stop();
    }
  });
});
