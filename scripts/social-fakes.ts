// The social providers' fakes (tests/fakes/social) on fixed ports, for `npm run dev` without the
// network: X on SOCIAL_FAKES_PORT (4600), YouTube +1, TikTok +2, Instagram +3.
//   npm run social:fakes      then paste the printed lines into .env and start `npm run dev`
// Every sign-in through a fake logs in as its demo member, who already follows, likes, reposts,
// subscribes and posts what the demo projects' social tasks ask. Tokens live in memory: after a
// restart, connected accounts must connect again.

import { DEFAULT_ACCOUNTS } from "../tests/fakes/social/state.ts";
import { startSocialFakes } from "../tests/fakes/social/social-fakes.ts";

const base = Number(process.env.SOCIAL_FAKES_PORT ?? 4600);
if (!Number.isInteger(base) || base < 1 || base > 65532) {
  console.error(`SOCIAL_FAKES_PORT must be a port number, not ${process.env.SOCIAL_FAKES_PORT}`);
  process.exit(1);
}

const fakes = await startSocialFakes({ ports: { x: base, youtube: base + 1, tiktok: base + 2, instagram: base + 3 } });

const member = DEFAULT_ACCOUNTS;
const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

// X: the demo projects' accounts (their X links are x.com/<slug without dashes>), a post of each.
const projects = ["lumenswap", "pixelrealms", "astrabridge", "musecollective", "circlesocial"].map((username, i) => ({
  id: `17000000000000000${i + 1}`,
  username,
  name: username,
}));
fakes.x.addUsers(...projects);
fakes.x.addPosts(
  ...projects.map((p, i) => ({
    id: `18000000000000000${i + 1}`,
    authorId: p.id,
    text: `${p.name} season is live: complete the quests on Questline!`,
    createdAt: days(3),
  })),
  { id: "1900000000000000001", authorId: member.x.id, text: "Questing with @lumenswap on Questline https://questline.example", createdAt: days(1) },
  { id: "1900000000000000002", authorId: member.x.id, text: "@pixelrealms gm", createdAt: days(1), reply: true },
);
fakes.x.setFollowing(member.x.id, [projects[0]!.id, projects[1]!.id]);
fakes.x.setLikes(member.x.id, ["180000000000000001"]);
fakes.x.setReposts("180000000000000001", [member.x.id]);

fakes.youtube.setSubscriptions(member.youtube.id, [{ channelId: "UClumenswapAAAAAAAAAAAAA", publishedAt: days(10), title: "Lumen Swap" }]);
fakes.tiktok.setVideos(member.tiktok.id, [
  {
    id: "7300000000000000001",
    video_description: "My first quest on #Questline with Lumen Swap",
    create_time: Math.floor(Date.now() / 1000) - 7200,
    share_url: "https://www.tiktok.com/@questline.member/video/7300000000000000001",
  },
]);
fakes.instagram.setMedia(member.instagram.id, [
  {
    id: "18000000000000101",
    caption: "Climbing the #Questline board",
    timestamp: days(2).replace(/\.\d{3}Z$/, "+0000"),
    permalink: "https://www.instagram.com/p/Demo1/",
    media_type: "IMAGE",
  },
]);

console.log("Social fakes are running. Add these lines to .env, then start `npm run dev`:\n");
for (const [name, value] of Object.entries(fakes.env)) console.log(`${name}=${value}`);
console.log(
  `\nEvery sign-in logs in as the demo member (X @${member.x.handle}, TikTok @${member.tiktok.handle}, Instagram @${member.instagram.handle}). Ctrl-C stops.`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void fakes.stop().then(() => process.exit(0));
  });
}
