/**
 * Where the social fakes answer and who their clients are: the paths of each provider's OAuth and
 * REST endpoints, the fixed test clients, and the configuration that points the app at fakes on
 * given origins. Plain data, no server code: playwright.config.ts reads it to configure the app
 * before the fakes run (tests/fakes/social/serve.ts).
 */
import type { OAuthProvider } from "../../../app/modules/social/providers.ts";
import { telegramFakeEnv } from "../telegram/endpoints.ts";

/** The providers the social fakes stand in for. */
export type FakeProvider = OAuthProvider;

export type OAuthClient = { clientId: string; clientSecret: string };

const PROVIDER_ORDER = ["x", "youtube", "tiktok", "instagram", "discord"] as const satisfies readonly FakeProvider[];
/** The providers the fakes serve, in port order. */
export const FAKE_PROVIDERS: readonly FakeProvider[] = PROVIDER_ORDER;

export const OAUTH_PATHS: Record<FakeProvider, { authorize: string; token: string }> = {
  x: { authorize: "/i/oauth2/authorize", token: "/2/oauth2/token" },
  youtube: { authorize: "/o/oauth2/v2/auth", token: "/token" },
  tiktok: { authorize: "/v2/auth/authorize/", token: "/v2/oauth/token/" },
  instagram: { authorize: "/oauth/authorize", token: "/oauth/access_token" },
  discord: { authorize: "/oauth2/authorize", token: "/api/oauth2/token" },
};

/** The fixed test clients. */
export const FAKE_CLIENTS: Record<FakeProvider, OAuthClient> = {
  x: { clientId: "fake-x-client", clientSecret: "fake-x-secret" },
  youtube: { clientId: "fake-youtube-client.apps.googleusercontent.com", clientSecret: "fake-youtube-secret" },
  tiktok: { clientId: "fakettclientkey", clientSecret: "fake-tiktok-secret" },
  instagram: { clientId: "990000000000001", clientSecret: "fake-instagram-secret" },
  discord: { clientId: "1200000000000000001", clientSecret: "fake-discord-secret" },
};
export const FAKE_X_BEARER_TOKEN = "fake-x-app-bearer-token";

/** Where the app's configuration points, relative to each fake's origin (the real hosts' paths). */
const ENDPOINTS: Record<FakeProvider, { api: string }> = {
  x: { api: "" },
  youtube: { api: "/youtube/v3" },
  tiktok: { api: "" },
  instagram: { api: "" },
  discord: { api: "/api/v10" },
};

const ENV_PREFIX: Record<FakeProvider, string> = { x: "X", youtube: "YOUTUBE", tiktok: "TIKTOK", instagram: "INSTAGRAM", discord: "DISCORD" };

/** The fakes' origins when they run on fixed ports from `base` (X, then YouTube, TikTok, Instagram, and Discord at +5: +4 is the control API). */
export function fakeOrigins(base: number, host = "127.0.0.1"): Record<FakeProvider, string> {
  return Object.fromEntries(PROVIDER_ORDER.map((provider, i) => [provider, `http://${host}:${base + (i >= 4 ? i + 1 : i)}`])) as Record<FakeProvider, string>;
}

/** `P_CLIENT_ID`, `P_CLIENT_SECRET`, `P_AUTHORIZE_URL`, `P_TOKEN_URL`, `P_API_URL` for each provider, and `X_BEARER_TOKEN`. */
export function fakesEnv(origins: Record<FakeProvider, string>): Record<string, string> {
  const env: Record<string, string> = { X_BEARER_TOKEN: FAKE_X_BEARER_TOKEN };
  // Telegram's fake (tests/fakes/telegram) runs 6 ports above X's.
  Object.assign(env, telegramFakeEnv(origins.x.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 6}`)));
  for (const provider of PROVIDER_ORDER) {
    const prefix = ENV_PREFIX[provider];
    const origin = origins[provider];
    Object.assign(env, {
      [`${prefix}_CLIENT_ID`]: FAKE_CLIENTS[provider].clientId,
      [`${prefix}_CLIENT_SECRET`]: FAKE_CLIENTS[provider].clientSecret,
      [`${prefix}_AUTHORIZE_URL`]: origin + OAUTH_PATHS[provider].authorize,
      [`${prefix}_TOKEN_URL`]: origin + OAUTH_PATHS[provider].token,
      [`${prefix}_API_URL`]: origin + ENDPOINTS[provider].api,
    });
  }
  return env;
}
