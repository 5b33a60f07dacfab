import { z } from "zod";
import { providerRequest, providerRequestOrRefusal, type ProviderAnswer, type Refusal } from "~/modules/social/checks/http.server";
import type { ProviderCall } from "~/modules/social/checks/outcome";
import { snowflake } from "~/modules/social/checks/discord.server";

/**
 * A project's Discord bot, through Discord's REST API (v10) with `Authorization: Bot <token>`:
 * who the bot is, the server, its roles and members, and granting or removing a role. Every call
 * goes through `providerRequest`, which never puts the token in an answer's `detail`.
 */

/** Manage Roles: what the bot needs to grant and remove roles (1 << 28). */
export const MANAGE_ROLES = 1n << 28n;
/** Administrator implies every permission (1 << 3). */
const ADMINISTRATOR = 1n << 3n;

/** The link that adds the bot to a server with Manage Roles. */
export const botInviteUrl = (botUserId: string) =>
  `https://discord.com/oauth2/authorize?client_id=${encodeURIComponent(botUserId)}&scope=bot&permissions=${MANAGE_ROLES.toString()}`;

/** The bot's call: Discord's API base from configuration, the bot's token (decrypted by the caller, never logged). */
export const botCall = ({ apiUrl, token, now, fetch }: { apiUrl: string; token: string; now?: Date; fetch?: typeof globalThis.fetch }): ProviderCall => ({
  provider: "discord",
  apiUrl,
  accessToken: token,
  now,
  fetch,
});

const botUser = z.object({ id: snowflake, username: z.string(), bot: z.boolean().optional() }).loose();
const guild = z.object({ id: snowflake, name: z.string(), owner_id: z.string().optional() }).loose();
export const discordRole = z
  .object({ id: z.string(), name: z.string(), position: z.number(), permissions: z.string(), managed: z.boolean().optional() })
  .loose();
export type DiscordRole = z.output<typeof discordRole>;
const member = z.object({ roles: z.array(z.string()), user: z.object({ id: z.string() }).loose().optional() }).loose();
const discordError = z.object({ code: z.number() }).loose();

/** Discord's JSON error code of a refusal (10004 Unknown Guild, 10007 Unknown Member, 10011 Unknown Role), or null. */
export function refusalCode(refusal: Refusal): number | null {
  const parsed = discordError.safeParse(refusal.body);
  return parsed.success ? parsed.data.code : null;
}

/** Who the token's bot is: `GET /users/@me`. */
export function fetchBotUser(call: ProviderCall) {
  return providerRequest(call, { path: "/users/@me", schema: botUser, scope: "bot", auth: "bot" });
}

/** The server: `GET /guilds/{id}`; a 404 (Unknown Guild) comes back as a refusal. */
export function fetchGuild(call: ProviderCall, guildId: string) {
  return providerRequestOrRefusal(call, { path: `/guilds/${guildId}`, schema: guild, scope: "bot", auth: "bot", refusals: [404] });
}

/** The server's roles: `GET /guilds/{id}/roles`. */
export function fetchGuildRoles(call: ProviderCall, guildId: string): Promise<ProviderAnswer<DiscordRole[]> | Refusal> {
  return providerRequestOrRefusal(call, { path: `/guilds/${guildId}/roles`, schema: z.array(discordRole), scope: "bot", auth: "bot", refusals: [404] });
}

/** One member's roles: `GET /guilds/{id}/members/{user}`; 404 (10007 Unknown Member) as a refusal. */
export function fetchGuildMember(call: ProviderCall, guildId: string, userId: string) {
  return providerRequestOrRefusal(call, { path: `/guilds/${guildId}/members/${userId}`, schema: member, scope: "bot", auth: "bot", refusals: [404] });
}

/**
 * Grants (`PUT`) or removes (`DELETE`) one role of one member: 204 when done; a 404 (Unknown
 * Member, Role or Guild) as a refusal; 403 (no Manage Roles, a role at or above the bot's) as
 * `missing_scope` "manage_roles". `reason` goes to the server's audit log.
 */
export function setMemberRole(
  call: ProviderCall,
  { guildId, userId, roleId, action, reason }: { guildId: string; userId: string; roleId: string; action: "grant" | "remove"; reason: string },
) {
  return providerRequestOrRefusal(call, {
    path: `/guilds/${guildId}/members/${userId}/roles/${roleId}`,
    method: action === "grant" ? "PUT" : "DELETE",
    schema: z.null(),
    scope: "manage_roles",
    auth: "bot",
    // Discord reads the header URL-encoded, at most 512 characters.
    headers: { "X-Audit-Log-Reason": encodeURIComponent(reason.slice(0, 150)) },
    refusals: [404],
  });
}

/** The permissions a member holds through `roleIds` (and @everyone, whose id is the server's). */
export function permissionsOf(roles: readonly DiscordRole[], guildId: string, roleIds: readonly string[]): bigint {
  const held = new Set([guildId, ...roleIds]);
  let bits = 0n;
  for (const role of roles) if (held.has(role.id)) bits |= BigInt(role.permissions);
  return bits;
}

export const canManageRoles = (bits: bigint) => (bits & ADMINISTRATOR) !== 0n || (bits & MANAGE_ROLES) !== 0n;

/** The highest position among `roleIds`: the bot may grant only roles below it. */
export function highestPosition(roles: readonly DiscordRole[], roleIds: readonly string[]): number {
  const held = new Set(roleIds);
  return Math.max(0, ...roles.filter((r) => held.has(r.id)).map((r) => r.position));
}

/** The roles a project may grant: not @everyone, not a role an integration manages (a bot's own, a booster's). */
export const grantableRoles = (roles: readonly DiscordRole[], guildId: string) =>
  roles.filter((r) => r.id !== guildId && !r.managed).sort((a, b) => b.position - a.position);
