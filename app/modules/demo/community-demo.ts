/**
 * Lumen Swap's Discord server and Telegram group in the demo. The local fakes
 * (tests/fakes/social/demo.ts, `SOCIAL_FAKES=on`) serve them: the server with its roles and the
 * project's bot, the group with the project's bot as an administrator, and the demo member in both.
 */
export const DEMO_DISCORD = {
  guildId: "1100000000000000001",
  guildName: "Lumen",
  inviteUrl: "https://discord.gg/lumen",
  holderRoleId: "1100000000000000011",
  questerRoleId: "1100000000000000012",
  botRoleId: "1100000000000000013",
  botUserId: "1100000000000000099",
  botUsername: "Lumen Bot",
  // Shaped like a Discord bot token (the form asks for one); only the local fake knows it.
  botToken: "MTEwMDAwMDAwMDAwMDAwMDA5OQ.GLumen.DemoBotTokenKnownOnlyToTheLocalDiscordFake0001",
} as const;

export const DEMO_TELEGRAM = {
  chatId: "@lumen_swap",
  chatNumericId: -1001100000000001,
  chatTitle: "Lumen Swap",
  inviteUrl: "https://t.me/lumen_swap",
  botId: 7_000_000_002,
  botUsername: "LumenSwapBot",
  botToken: "7000000002:AAFakeLumenProjectBotTokenForDemo00002",
} as const;
