/**
 * The social fakes for the e2e tests, as a process of their own (a `webServer` of
 * playwright.config.ts), with no data: each test adds what it needs through the control API.
 *
 *   SOCIAL_FAKES_PORT=4650 node tests/fakes/social/serve.ts
 *
 * X on the base port, YouTube +1, TikTok +2, Instagram +3, Discord +5 (see `fakeOrigins`), Telegram +6
 * (tests/fakes/telegram, with its own /__control/), and the control API (control.ts, with GET
 * /health) on +4; all on 127.0.0.1 only. The app's configuration for them
 * is `fakesEnv(fakeOrigins(base))` (endpoints.ts).
 */
import { startSocialControl } from "./control.ts";
import { startSocialFakes } from "./social-fakes.ts";
import { FAKE_PLATFORM_BOT } from "../telegram/endpoints.ts";
import { startTelegramFake } from "../telegram/telegram-fake.ts";

const base = Number(process.env.SOCIAL_FAKES_PORT ?? 4650);
if (!Number.isInteger(base) || base < 1 || base > 65530) {
  console.error(`SOCIAL_FAKES_PORT must be a port number, not ${process.env.SOCIAL_FAKES_PORT}`);
  process.exit(1);
}

const fakes = await startSocialFakes({ ports: { x: base, youtube: base + 1, tiktok: base + 2, instagram: base + 3, discord: base + 5 } });
const control = await startSocialControl(fakes, { port: base + 4 });
// Telegram (Bot API, login page and its own /__control/) at +6.
const telegram = await startTelegramFake({ port: base + 6, bots: [FAKE_PLATFORM_BOT] });
console.log(`social-fakes: ${Object.values(fakes.origins).join(", ")}; control on http://127.0.0.1:${base + 4}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    control.close();
    control.closeAllConnections();
    void telegram.stop();
    void fakes.stop().then(() => process.exit(0));
  });
}
