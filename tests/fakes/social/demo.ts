/**
 * The social providers' fakes for trying Questline offline (`SOCIAL_FAKES=on npm run dev`, or
 * `npm run social:fakes`): fixed ports from `base` (X, then YouTube, TikTok, Instagram, Discord at +5), and the
 * data the demo's social tasks look for. Every sign-in through a fake logs in as its demo member,
 * who follows, likes, reposts, subscribes and posts what the demo tasks ask.
 */
import { DEFAULT_ACCOUNTS } from "./state.ts";
import { startSocialFakes } from "./social-fakes.ts";

/** The demo's targets (app/modules/demo/seed.server.ts): the account to follow, its launch post, the channel. */
export const DEMO_X_ACCOUNT = { id: "1700000000000000001", username: "questline", name: "Questline" };
export const DEMO_X_POST = "1";
export const DEMO_YOUTUBE_CHANNEL = "UCquestlineDemoChannel00";

export async function startDemoSocialFakes(base: number) {
  const fakes = await startSocialFakes({ ports: { x: base, youtube: base + 1, tiktok: base + 2, instagram: base + 3, discord: base + 5 } });
  const member = DEFAULT_ACCOUNTS;
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

  fakes.x.addUsers(DEMO_X_ACCOUNT);
  fakes.x.addPosts(
    { id: DEMO_X_POST, authorId: DEMO_X_ACCOUNT.id, text: "The season is live: complete the quests on Questline!", createdAt: daysAgo(3) },
    { id: "1900000000000000001", authorId: member.x.id, text: "Questing with @questline on #Questline", createdAt: daysAgo(1) },
    { id: "1900000000000000002", authorId: member.x.id, text: "@questline gm", createdAt: daysAgo(1), reply: true },
  );
  fakes.x.setFollowing(member.x.id, [DEMO_X_ACCOUNT.id]);
  fakes.x.setLikes(member.x.id, [DEMO_X_POST]);
  fakes.x.setReposts(DEMO_X_POST, [member.x.id]);
  fakes.youtube.setSubscriptions(member.youtube.id, [{ channelId: DEMO_YOUTUBE_CHANNEL, publishedAt: daysAgo(10), title: "Questline" }]);
  fakes.tiktok.setVideos(member.tiktok.id, [
    {
      id: "7300000000000000001",
      video_description: "My first quest on #Questline",
      create_time: Math.floor(Date.now() / 1000) - 7200,
      share_url: "https://www.tiktok.com/@questline.member/video/7300000000000000001",
    },
  ]);
  fakes.instagram.setMedia(member.instagram.id, [
    {
      id: "18000000000000101",
      caption: "Climbing the #Questline board",
      timestamp: daysAgo(2).replace(/\.\d{3}Z$/, "+0000"),
      permalink: "https://www.instagram.com/p/Demo1/",
      media_type: "IMAGE",
    },
  ]);
  return { fakes, member };
}
