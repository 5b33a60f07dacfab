import type { Db } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { addRoleReward } from "~/modules/community/role-rewards.server";
import { saveDiscordBot } from "~/modules/community/discord-settings.server";
import { saveTelegramBot } from "~/modules/community/telegram-bot.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { DEMO_DISCORD, DEMO_TELEGRAM } from "./community-demo";
import { saveDemoTasks, type DemoTaskSpec } from "./demo-tasks.server";

const DAY = 24 * 60 * 60 * 1000;

const SPECS: DemoTaskSpec[] = [
  {
    title: "Join Lumen on Discord",
    description: "Join the server with the invite, then check: Questline reads your membership with your connected Discord account.",
    type: "discord_join",
    xp: 40,
    config: { guildId: DEMO_DISCORD.guildId, guildName: DEMO_DISCORD.guildName, inviteUrl: DEMO_DISCORD.inviteUrl, recheckBeforeRewards: true },
  },
  {
    title: "Hold the Holder role",
    description: "Holders of LUMEN get the Holder role in the server. Check once you have it.",
    type: "discord_role",
    xp: 60,
    config: {
      guildId: DEMO_DISCORD.guildId,
      guildName: DEMO_DISCORD.guildName,
      roleId: DEMO_DISCORD.holderRoleId,
      roleName: "Holder",
      inviteUrl: DEMO_DISCORD.inviteUrl,
      recheckBeforeRewards: true,
    },
  },
  {
    title: "Join Lumen Swap on Telegram",
    description: "Join the group, then check: Lumen Swap's bot, an administrator there, says whether you are in it.",
    type: "telegram_join",
    xp: 40,
    config: { chatId: DEMO_TELEGRAM.chatId, chatTitle: DEMO_TELEGRAM.chatTitle, inviteUrl: DEMO_TELEGRAM.inviteUrl, recheckBeforeRewards: true },
  },
];

/** Whether Discord's and Telegram's APIs are this machine's local fakes (the local trial with `SOCIAL_FAKES=on`). */
export function hasLocalCommunityFakes(social: SocialConfig, isPublic: boolean) {
  const local = (url: string) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname);
  return !isPublic && local(social.discordApiUrl) && local(social.telegramApiUrl);
}

/**
 * The demo's community campaign in Lumen Swap: join its Discord server, hold its Holder role, join
 * its Telegram group. Where the local fakes answer for Discord and Telegram, the project's two
 * bots are saved through the same checks a team's are, and completing the campaign grants the
 * "Lumen Quester" role, so a newcomer who connects both accounts sees the tasks checked and the
 * role granted by the worker. Elsewhere the tasks say Discord and Telegram are not set up here.
 */
export async function seedCommunity({
  db,
  social,
  isPublic,
  projectId,
  ownerId,
  now,
}: {
  db: Db;
  social: SocialConfig;
  isPublic: boolean;
  projectId: string;
  ownerId: string;
  now: Date;
}) {
  const since = new Date(now.getTime() - DAY);
  const campaign = await saveCampaign({
    db,
    projectId,
    input: {
      name: "Lumen Community",
      slug: "lumen-community",
      description: "Join Lumen on Discord and Telegram. Complete all three quests and Lumen's bot gives you the Lumen Quester role in the server.",
      startsAt: since,
      endsAt: new Date(now.getTime() + 29 * DAY),
      published: true,
    },
    now: since,
  });
  if (!campaign.ok) throw new Error(`demo community campaign: ${failureMessage(campaign)}`);
  await saveDemoTasks({ db, projectId, campaignId: campaign.value.id, specs: SPECS, now: since, what: "community" });
  if (!hasLocalCommunityFakes(social, isPublic)) return { campaignId: campaign.value.id, bots: false as const };

  const discord = await saveDiscordBot({ db, social, projectId, userId: ownerId, input: { token: DEMO_DISCORD.botToken, guildId: DEMO_DISCORD.guildId }, now });
  const telegram = await saveTelegramBot({
    db,
    social,
    projectId,
    userId: ownerId,
    token: DEMO_TELEGRAM.botToken,
    chat: DEMO_TELEGRAM.chatId,
    now,
  });
  for (const saved of [discord, telegram]) {
    // The fakes may not answer (started on other ports): the campaign stands, without the bots.
    if (!saved.ok && saved.code === "unavailable") return { campaignId: campaign.value.id, bots: false as const };
    if (!saved.ok) throw new Error(`demo community bot: ${failureMessage(saved)}`);
  }
  const rule = await addRoleReward({
    db,
    social,
    projectId,
    userId: ownerId,
    input: { trigger: "campaign", roleId: DEMO_DISCORD.questerRoleId, campaignId: campaign.value.id },
    now,
  });
  if (!rule.ok) throw new Error(`demo role reward: ${failureMessage(rule)}`);
  return { campaignId: campaign.value.id, bots: true as const };
}
