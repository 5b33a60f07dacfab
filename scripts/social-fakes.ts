// The social providers' fakes (tests/fakes/social) on fixed ports, with the demo's data: X on
// SOCIAL_FAKES_PORT (4600), YouTube +1, TikTok +2, Instagram +3. `SOCIAL_FAKES=on npm run dev`
// starts them inside the dev server; this script runs them on their own (e.g. beside `npm start`)
// and prints the configuration lines to start the app with. Tokens live in memory: after a
// restart, connected accounts must connect again.

import { startDemoSocialFakes } from "../tests/fakes/social/demo.ts";

const base = Number(process.env.SOCIAL_FAKES_PORT ?? 4600);
if (!Number.isInteger(base) || base < 1 || base > 65532) {
  console.error(`SOCIAL_FAKES_PORT must be a port number, not ${process.env.SOCIAL_FAKES_PORT}`);
  process.exit(1);
}

const { fakes, member } = await startDemoSocialFakes(base);
console.log("Social fakes are running. Start the app with these variables set:\n");
for (const [name, value] of Object.entries(fakes.env)) console.log(`${name}=${value}`);
console.log(
  `\nEvery sign-in logs in as the demo member (X @${member.x.handle}, TikTok @${member.tiktok.handle}, Instagram @${member.instagram.handle}). Ctrl-C stops.`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void fakes.stop().then(() => process.exit(0));
  });
}
