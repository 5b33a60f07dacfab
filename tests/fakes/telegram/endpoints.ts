/**
 * The Telegram fake's fixed platform bot and the app's configuration for a fake on a given
 * origin. Plain data, no server code (playwright.config.ts may read it).
 */

export type FakeBot = { token: string; id: number; username: string; firstName?: string };

/** The platform's bot the e2e app is configured with (`TELEGRAM_BOT_TOKEN`, `TELEGRAM_BOT_USERNAME`). */
export const FAKE_PLATFORM_BOT: FakeBot = { token: "7000000001:AAFakePlatformBotTokenForTestsOnly0001", id: 7_000_000_001, username: "QuestlineFakeBot" };

/** The app's configuration for the fake at `origin`. */
export const telegramFakeEnv = (origin: string): Record<string, string> => ({
  TELEGRAM_BOT_TOKEN: FAKE_PLATFORM_BOT.token,
  TELEGRAM_BOT_USERNAME: FAKE_PLATFORM_BOT.username,
  TELEGRAM_API_URL: origin,
  TELEGRAM_OAUTH_URL: origin,
});
