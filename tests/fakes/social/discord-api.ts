/**
 * Discord's REST API v10 (under `/api/v10`, or `/api`), the endpoints Questline calls, with
 * Discord's JSON errors `{code, message}` and `X-RateLimit-*` headers on every answer:
 *
 *   A member's OAuth token (`Authorization: Bearer`):
 *   GET /users/@me                                 identify
 *   GET /users/@me/guilds                          guilds
 *   GET /users/@me/guilds/:guild/member            guilds.members.read; 404 10004 Unknown Guild when not a member
 *   A bot's token (`Authorization: Bot`):
 *   GET /users/@me                                 the bot's user
 *   GET /guilds/:guild                             403 50001 Missing Access when the bot is not in it
 *   GET /guilds/:guild/roles
 *   GET /guilds/:guild/members/:user               404 10007 Unknown Member
 *   PUT|DELETE /guilds/:guild/members/:user/roles/:role
 *                                                  204; 403 50013 without MANAGE_ROLES (or ADMINISTRATOR)
 *                                                  or for a role at or above the bot's highest; 404 10011
 *                                                  Unknown Role, 10007 Unknown Member; `X-Audit-Log-Reason`
 *                                                  is logged in `roleRequests`
 *
 * A bad or missing token: 401 `{"message":"401: Unauthorized","code":0}`. `rateLimitNext` makes the
 * next requests 429 with `retry_after` (see errors.ts).
 */
import {
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  type GuildHubType,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
  RESTJSONErrorCodes,
  type APIGuild,
  type APIGuildMember,
  type APIRole,
  type APIUser,
  type GuildMemberFlags,
  type RoleFlags,
  type RESTAPIPartialCurrentUserGuild,
} from "discord-api-types/v10";
import { json, type Answer, type ApiRequest } from "./http.ts";
import { discordError, discordRateHeaders, discordRateLimited } from "./errors.ts";
import { MANAGE_ROLES, type DiscordBotSpec, type DiscordGuild, type DiscordMember, type DiscordState } from "./discord-state.ts";
import type { FakeGrant, FakeState } from "./state.ts";

type Caller = { kind: "member"; grant: FakeGrant } | { kind: "bot"; bot: DiscordBotSpec };

const ROLE_PATH = /^\/guilds\/(\d+)\/members\/(\d+)\/roles\/(\d+)$/;

export function discordApi(request: ApiRequest): Answer {
  const { state, method, url } = request;
  const now = state.now();
  const path = url.pathname.replace(/^\/api(\/v\d+)?/, "").replace(/\/$/, "");
  const retryAfter = state.discord.rateLimits.shift();
  const answer = retryAfter !== undefined ? discordRateLimited(retryAfter, now) : route(request, path);
  const role = ROLE_PATH.exec(path);
  if (role && (method === "PUT" || method === "DELETE")) {
    const reason = request.headers["x-audit-log-reason"];
    state.discord.roleRequests.push({
      method,
      guildId: role[1]!,
      userId: role[2]!,
      roleId: role[3]!,
      reason: typeof reason === "string" ? decodeURIComponent(reason) : null,
      botUserId: request.botToken ? (state.discord.bots.get(request.botToken)?.userId ?? null) : null,
      status: answer.status,
    });
  }
  return { ...answer, headers: { ...discordRateHeaders(now), ...answer.headers } };
}

const unauthorized = () => discordError(401, 0, "401: Unauthorized");
const missingAccess = () => discordError(403, RESTJSONErrorCodes.MissingAccess, "Missing Access");
const missingPermissions = () => discordError(403, RESTJSONErrorCodes.MissingPermissions, "Missing Permissions");
const unknownGuild = () => discordError(404, RESTJSONErrorCodes.UnknownGuild, "Unknown Guild");
const unknownMember = () => discordError(404, RESTJSONErrorCodes.UnknownMember, "Unknown Member");
const unknownRole = () => discordError(404, RESTJSONErrorCodes.UnknownRole, "Unknown Role");
const notFound = () => discordError(404, 0, "404: Not Found");
const noContent = (): Answer => ({ status: 204, text: "" });

function callerOf({ state, token, botToken }: ApiRequest): Caller | null {
  if (botToken) {
    const bot = state.discord.bots.get(botToken);
    return bot ? { kind: "bot", bot } : null;
  }
  const auth = state.grantOf("discord", token);
  return auth.ok ? { kind: "member", grant: auth.grant } : null;
}

function route(request: ApiRequest, path: string): Answer {
  const { method, state } = request;
  const caller = callerOf(request);
  if (!caller) return unauthorized();
  const d = state.discord;
  const scoped = (scope: string, serve: (grant: FakeGrant) => Answer) => {
    if (caller.kind !== "member") return missingAccess();
    return caller.grant.scopes.includes(scope) ? serve(caller.grant) : missingAccess();
  };

  if (method === "GET" && path === "/users/@me") {
    if (caller.kind === "bot") return json(200, botUser(caller.bot));
    return scoped("identify", (grant) => json(200, userJson(state, grant.account.id)));
  }
  if (method === "GET" && path === "/users/@me/guilds") {
    const userId = caller.kind === "bot" ? caller.bot.userId : caller.grant.account.id;
    const list = () =>
      json(
        200,
        [...d.guilds.values()].filter((g) => d.member(g.id, userId)).map((g) => partialGuild(d, g, userId)),
      );
    return caller.kind === "bot" ? list() : scoped("guilds", list);
  }
  const own = /^\/users\/@me\/guilds\/(\d+)\/member$/.exec(path);
  if (method === "GET" && own) {
    return scoped("guilds.members.read", (grant) => {
      const member = d.member(own[1]!, grant.account.id);
      return d.guilds.has(own[1]!) && member ? json(200, memberJson(state, grant.account.id, member)) : unknownGuild();
    });
  }

  const guildPath = /^\/guilds\/(\d+)(\/.*)?$/.exec(path);
  if (!guildPath) return notFound();
  // The guild endpoints are the bot's; a member's bearer token is not let in.
  if (caller.kind !== "bot") return unauthorized();
  const guild = d.guilds.get(guildPath[1]!);
  if (!guild) return unknownGuild();
  const bot = caller.bot;
  if (!d.member(guild.id, bot.userId)) return missingAccess();
  const rest = guildPath[2] ?? "";

  if (method === "GET" && rest === "") return json(200, guildJson(guild));
  if (method === "GET" && rest === "/roles") return json(200, [...guild.roles.values()].map(roleJson));
  const memberPath = /^\/members\/(\d+)$/.exec(rest);
  if (method === "GET" && memberPath) {
    const member = d.member(guild.id, memberPath[1]!);
    return member ? json(200, memberJson(state, memberPath[1]!, member)) : unknownMember();
  }
  const rolePath = /^\/members\/(\d+)\/roles\/(\d+)$/.exec(rest);
  if ((method === "PUT" || method === "DELETE") && rolePath) return changeRole(d, guild, bot, rolePath[1]!, rolePath[2]!, method);
  return notFound();
}

function changeRole(d: DiscordState, guild: DiscordGuild, bot: DiscordBotSpec, userId: string, roleId: string, method: "PUT" | "DELETE"): Answer {
  if ((d.permissionsOf(guild, bot.userId) & MANAGE_ROLES) !== MANAGE_ROLES) return missingPermissions();
  const role = guild.roles.get(roleId);
  if (!role) return unknownRole();
  // A bot manages only the roles below its own highest (the guild's owner, none of them).
  if (guild.ownerId !== bot.userId && role.position >= d.highestPosition(guild, bot.userId)) return missingPermissions();
  const member = d.member(guild.id, userId);
  if (!member) return unknownMember();
  const roles = new Set(member.roles);
  if (method === "PUT") roles.add(roleId);
  else roles.delete(roleId);
  member.roles = [...roles];
  return noContent();
}

/** The avatar hash behind a `cdn.discordapp.com/avatars/<id>/<hash>.png` URL; none for any other. */
const avatarHash = (url: string | undefined) => /^https:\/\/cdn\.discordapp\.com\/avatars\/\d+\/([^./]+)\./.exec(url ?? "")?.[1] ?? null;

function userJson(state: FakeState, id: string): APIUser {
  const account = state.accounts.discord.get(id);
  if (!account) {
    const bot = state.discord.botByUserId(id);
    if (bot) return botUser(bot);
  }
  return {
    id,
    username: account?.handle ?? `user${id.slice(-6)}`,
    discriminator: "0",
    global_name: account?.name ?? null,
    avatar: avatarHash(account?.avatarUrl),
    mfa_enabled: false,
    locale: Locale.EnglishUS,
  };
}

const botUser = (bot: DiscordBotSpec): APIUser => ({
  id: bot.userId,
  username: bot.username,
  discriminator: "0000",
  global_name: null,
  avatar: null,
  bot: true,
});

function memberJson(state: FakeState, userId: string, member: DiscordMember): APIGuildMember {
  return {
    user: userJson(state, userId),
    nick: null,
    avatar: null,
    banner: null,
    roles: [...member.roles],
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

function roleJson(role: { id: string; name: string; position: number; permissions: bigint }): APIRole {
  return {
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: false,
    mentionable: false,
    flags: 0 as RoleFlags,
  };
}

function partialGuild(d: DiscordState, guild: DiscordGuild, userId: string): RESTAPIPartialCurrentUserGuild {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    banner: null,
    owner: guild.ownerId === userId,
    features: [],
    permissions: d.permissionsOf(guild, userId).toString(),
  };
}

function guildJson(guild: DiscordGuild): APIGuild {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: GuildVerificationLevel.Low,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.AllMembers,
    roles: [...guild.roles.values()].map(roleJson),
    emojis: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: GuildSystemChannelFlags.SuppressJoinNotifications,
    rules_channel_id: null,
    vanity_url_code: null,
    premium_tier: GuildPremiumTier.None,
    preferred_locale: Locale.EnglishUS,
    public_updates_channel_id: null,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    hub_type: null satisfies GuildHubType | null,
    safety_alerts_channel_id: null,
    incidents_data: null,
  };
}
