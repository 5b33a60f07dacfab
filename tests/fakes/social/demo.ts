/**
 * The social providers' fakes for trying Questline offline (`SOCIAL_FAKES=on npm run dev`, or
 * `npm run social:fakes`): fixed ports from `base` (X, then YouTube, TikTok, Instagram, Discord at +5,
 * Telegram at +6), and the data the demo's social tasks look for. Every sign-in through a fake
 * logs in as its demo member, who follows, likes, reposts, subscribes and posts what the demo
 * tasks ask, and is in Lumen's Discord server (with the Holder role) and Telegram group, where
 * Lumen Swap's bots are (app/modules/demo/seed-community.server.ts).
 */
import { PermissionFlagsBits } from "discord-api-types/v10";
import { DEMO_DISCORD, DEMO_TELEGRAM } from "../../../app/modules/demo/community-demo.ts";
import { FAKE_PLATFORM_BOT, telegramFakeEnv } from "../telegram/endpoints.ts";
import { startTelegramFake } from "../telegram/telegram-fake.ts";
import { DEFAULT_ACCOUNTS } from "./state.ts";
import { startSocialFakes } from "./social-fakes.ts";

/** Who logs in through the Telegram fake's login page. */
export const DEMO_TELEGRAM_MEMBER = { id: 700_000_001, first_name: "Questline", last_name: "Member", username: "questline_member" };

/** The demo's targets (app/modules/demo/seed.server.ts): the account to follow, its launch post, the channel. */
export const DEMO_X_ACCOUNT = { id: "1700000000000000001", username: "questline", name: "Questline" };
export const DEMO_X_POST = "1";
export const DEMO_YOUTUBE_CHANNEL = "UCquestlineDemoChannel00";

/** `base` 0: every fake on a port of the system's choosing (the tests). */
export async function startDemoSocialFakes(base: number) {
  const fakes = await startSocialFakes(base ? { ports: { x: base, youtube: base + 1, tiktok: base + 2, instagram: base + 3, discord: base + 5 } } : {});
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

  // Lumen's Discord server: the Holder role the demo member has, the Lumen Quester role its bot grants (its own role sits above both).
  fakes.discord.addGuild({
    id: DEMO_DISCORD.guildId,
    name: DEMO_DISCORD.guildName,
    roles: [
      { id: DEMO_DISCORD.holderRoleId, name: "Holder", position: 1, permissions: "0" },
      { id: DEMO_DISCORD.questerRoleId, name: "Lumen Quester", position: 2, permissions: "0" },
      { id: DEMO_DISCORD.botRoleId, name: "Lumen Bot", position: 3, permissions: PermissionFlagsBits.ManageRoles },
    ],
  });
  fakes.discord.addBot({ token: DEMO_DISCORD.botToken, userId: DEMO_DISCORD.botUserId, username: DEMO_DISCORD.botUsername });
  fakes.discord.joinBot(DEMO_DISCORD.guildId, DEMO_DISCORD.botUserId, [DEMO_DISCORD.botRoleId]);
  fakes.discord.setMember(DEMO_DISCORD.guildId, member.discord.id, { roles: [DEMO_DISCORD.holderRoleId], joinedAt: daysAgo(20) });

  // Lumen Swap's Telegram group, its bot an administrator; the demo member is in it and has started the platform's bot.
  const projectBot = { token: DEMO_TELEGRAM.botToken, id: DEMO_TELEGRAM.botId, username: DEMO_TELEGRAM.botUsername };
  const telegram = await startTelegramFake({ port: base ? base + 6 : 0, bots: [FAKE_PLATFORM_BOT, projectBot] });
  const tg = telegram.state;
  tg.addUsers(DEMO_TELEGRAM_MEMBER);
  tg.addChat({ id: DEMO_TELEGRAM.chatNumericId, type: "supergroup", title: DEMO_TELEGRAM.chatTitle, username: DEMO_TELEGRAM.chatId.slice(1) });
  tg.setBotInChat(DEMO_TELEGRAM.chatNumericId, projectBot.id, { admin: true });
  tg.setMembership(DEMO_TELEGRAM.chatNumericId, DEMO_TELEGRAM_MEMBER.id, { status: "member" });
  tg.startBot(FAKE_PLATFORM_BOT.id, DEMO_TELEGRAM_MEMBER.id);

  const env = { ...fakes.env, ...telegramFakeEnv(telegram.origin) };
  const stop = () => Promise.all([fakes.stop(), telegram.stop()]).then(() => undefined);
  return { fakes, telegram, env, origins: [...Object.values(fakes.origins), telegram.origin], stop, member };
}
