import { and, eq, isNull } from "drizzle-orm";
import { parseInput } from "~/lib/forms";
import { discordRoleReward, projectDiscord } from "#db/schema/community";
import type { Db } from "~/lib/db.server";
import { failure, invalid, ok, type Result } from "~/lib/result";
import { decryptToken, encryptToken } from "~/lib/secret-box.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import {
  botCall,
  botInviteUrl,
  canManageRoles,
  fetchBotUser,
  fetchGuild,
  fetchGuildMember,
  fetchGuildRoles,
  grantableRoles,
  highestPosition,
  permissionsOf,
  type DiscordRole,
} from "./discord-bot.server";
import { discordBotFormSchema } from "./discord-settings.schema";

/**
 * A project's Discord bot and server (Project › Discord): the token is checked with Discord,
 * encrypted at rest and never read back to a page; what the bot cannot do yet is stored in words
 * (`problems`) by each check.
 */

type Social = Pick<SocialConfig, "tokenKey" | "discordApiUrl">;
type Io = { db: Db; social: Social; now?: Date; fetch?: typeof globalThis.fetch };

/** The first words of the problem a bot outside the server has: the page offers the invite link with it. */
export const NOT_IN_SERVER = "The bot is not in the server";

/** What a page may show of the project's bot: never its token. */
export type DiscordSettings = {
  guildId: string;
  guildName: string;
  botUserId: string;
  botUsername: string;
  problems: string[];
  checkedAt: Date | null;
  inviteUrl: string | null;
};

export async function discordSettingsOf({ db, projectId }: { db: Db; projectId: string }): Promise<DiscordSettings | null> {
  const [row] = await db
    .select({
      guildId: projectDiscord.guildId,
      guildName: projectDiscord.guildName,
      botUserId: projectDiscord.botUserId,
      botUsername: projectDiscord.botUsername,
      problems: projectDiscord.problems,
      checkedAt: projectDiscord.checkedAt,
    })
    .from(projectDiscord)
    .where(eq(projectDiscord.projectId, projectId));
  return row ? { ...row, inviteUrl: row.botUserId ? botInviteUrl(row.botUserId) : null } : null;
}

/** The project's bot call and server, the token decrypted here for the caller's requests only. */
export async function projectBot({ db, social, projectId, now, fetch }: Io & { projectId: string }) {
  const [row] = await db
    .select({ token: projectDiscord.botToken, guildId: projectDiscord.guildId, guildName: projectDiscord.guildName })
    .from(projectDiscord)
    .where(eq(projectDiscord.projectId, projectId));
  const token = row ? decryptToken(social.tokenKey, row.token) : null;
  if (!row || !token) return null;
  return { call: botCall({ apiUrl: social.discordApiUrl, token, now, fetch }), guildId: row.guildId, guildName: row.guildName };
}

const UNAVAILABLE = "Discord did not answer: nothing was changed. Try again in a minute.";
const REFUSED_TOKEN = "Discord refused this token: copy it again from the Developer Portal (Bot › Reset Token) and save it.";

/**
 * Saves the bot: a new token is checked (`GET /users/@me` as the bot) and encrypted; an empty one
 * keeps the saved token (changing the server only). Then checks what the bot can do there.
 */
export async function saveDiscordBot({
  db,
  social,
  projectId,
  userId,
  input,
  now = new Date(),
  fetch,
}: Io & { projectId: string; userId: string; input: unknown }): Promise<Result<{ problems: string[] }>> {
  const parsed = parseInput(discordBotFormSchema, input);
  if (!parsed.ok) return parsed;
  const { guildId } = parsed.data;
  let token = parsed.data.token;
  if (token === "") {
    const saved = await projectBot({ db, social, projectId });
    if (!saved) return invalid("token", "Paste the bot's token: none is saved yet.");
    token = saved.call.accessToken;
  }
  const me = await fetchBotUser(botCall({ apiUrl: social.discordApiUrl, token, now, fetch }));
  if (me.kind === "needs_reconnect") return invalid("token", REFUSED_TOKEN);
  if (me.kind !== "ok") return failure("unavailable", UNAVAILABLE);
  const values = {
    guildId,
    botToken: encryptToken(social.tokenKey, token),
    botUserId: me.data.id,
    botUsername: me.data.username,
    updatedBy: userId,
    updatedAt: now,
  };
  await db
    .insert(projectDiscord)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: projectDiscord.projectId, set: values });
  const checked = await checkDiscordBot({ db, social, projectId, now, fetch });
  return checked.ok ? ok({ problems: checked.problems }) : checked;
}

/** Removes the bot: its token is deleted. The roles it granted stay in Discord; the rules wait for a bot. */
export async function removeDiscordBot({ db, projectId }: { db: Db; projectId: string }) {
  await db.delete(projectDiscord).where(eq(projectDiscord.projectId, projectId));
}

/**
 * Checks what the bot can do in the server and stores it in words: in the server at all, Manage
 * Roles, and each reward role below the bot's highest role. A Discord outage changes nothing.
 */
export async function checkDiscordBot({
  db,
  social,
  projectId,
  now = new Date(),
  fetch,
}: Io & { projectId: string }): Promise<Result<{ problems: string[]; roles: DiscordRole[] }>> {
  const bot = await projectBot({ db, social, projectId, now, fetch });
  if (!bot) return failure("not_found", "No Discord bot is saved for this project.");
  const found = await botProblems({ bot, db, projectId });
  if (found === "unavailable") return failure("unavailable", UNAVAILABLE);
  await db
    .update(projectDiscord)
    .set({ problems: found.problems, checkedAt: now, ...(found.guildName ? { guildName: found.guildName } : {}) })
    .where(eq(projectDiscord.projectId, projectId));
  return ok({ problems: found.problems, roles: found.roles });
}

async function botProblems({ bot, db, projectId }: { bot: NonNullable<Awaited<ReturnType<typeof projectBot>>>; db: Db; projectId: string }) {
  const { call, guildId } = bot;
  const me = await fetchBotUser(call);
  if (me.kind === "needs_reconnect") return { problems: [REFUSED_TOKEN], roles: [], guildName: null };
  if (me.kind !== "ok") return "unavailable" as const;
  const server = await fetchGuild(call, guildId);
  // Discord answers 404 Unknown Guild, or 403 Missing Access, for a server the bot is not in.
  if (server.kind === "refused" || server.kind === "missing_scope") {
    return { problems: [`${NOT_IN_SERVER} ${guildId}: invite it with the link below, then check again.`], roles: [], guildName: null };
  }
  if (server.kind !== "ok") return "unavailable" as const;
  const [self, roles] = await Promise.all([fetchGuildMember(call, guildId, me.data.id), fetchGuildRoles(call, guildId)]);
  if (self.kind === "refused")
    return { problems: [`${NOT_IN_SERVER} ${server.data.name}: invite it with the link below, then check again.`], roles: [], guildName: server.data.name };
  if (self.kind !== "ok" || roles.kind !== "ok") return "unavailable" as const;

  const problems: string[] = [];
  if (!canManageRoles(permissionsOf(roles.data, guildId, self.data.roles))) {
    problems.push("The bot lacks Manage Roles: give its role that permission in Server Settings › Roles, or invite it again with the link below.");
  }
  const top = highestPosition(roles.data, self.data.roles);
  const rules = await db
    .selectDistinct({ roleId: discordRoleReward.roleId, roleName: discordRoleReward.roleName })
    .from(discordRoleReward)
    .where(and(eq(discordRoleReward.projectId, projectId), isNull(discordRoleReward.removedAt)));
  for (const rule of rules) {
    const role = roles.data.find((r) => r.id === rule.roleId);
    if (!role) problems.push(`The role ${rule.roleName} no longer exists in ${server.data.name}: remove its rule.`);
    else if (role.position >= top) problems.push(`Move the bot's role above ${role.name} in Server Settings › Roles.`);
  }
  return { problems, roles: grantableRoles(roles.data, guildId), guildName: server.data.name };
}
