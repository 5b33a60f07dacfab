// The social providers' fakes (tests/fakes/social) on fixed ports, with the demo's data: X on
// SOCIAL_FAKES_PORT (4600), YouTube +1, TikTok +2, Instagram +3, Discord +5, Telegram +6.
// `SOCIAL_FAKES=on npm start` (or `npm run dev`) starts them inside the app's process; this script runs them on their own
// and prints the configuration lines to start the app with. Tokens live in memory: after a
// restart, connected accounts must connect again.

import { startDemoSocialFakes } from "../tests/fakes/social/demo.ts";

const base = Number(process.env.SOCIAL_FAKES_PORT ?? 4600);
if (!Number.isInteger(base) || base < 1 || base > 65529) {
  console.error(`SOCIAL_FAKES_PORT must be a port number, not ${process.env.SOCIAL_FAKES_PORT}`);
  process.exit(1);
}

const { env, stop, member } = await startDemoSocialFakes(base);
console.log("Social fakes are running. Start the app with these variables set:\n");
for (const [name, value] of Object.entries(env)) console.log(`${name}=${value}`);
console.log(
  `\nEvery sign-in logs in as the demo member (X @${member.x.handle}, TikTok @${member.tiktok.handle}, Instagram @${member.instagram.handle}, Discord ${member.discord.handle}, Telegram @questline_member). Ctrl-C stops.`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void stop().then(() => process.exit(0));
  });
}
