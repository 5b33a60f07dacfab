import { z } from "zod";
import { providerRequest, providerRequestOrRefusal } from "./http.server";
import type { CheckOutcome, ProfileOutcome, ProviderCall } from "./outcome";

/** Who a member is on Discord, and whether they are in a server (with a role), read through Discord's REST API (v10) with their OAuth token. */

/** A Discord id: a snowflake, 17 to 20 digits. */
export const snowflake = z.string().regex(/^\d{17,20}$/, "must be a Discord id: 17 to 20 digits");

const currentUser = z
  .object({
    id: snowflake,
    username: z.string(),
    global_name: z.string().nullish(),
    avatar: z.string().nullish(),
  })
  .loose();

/** Discord's epoch (2015-01-01): a snowflake's top bits are its creation time in ms since then. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/** When a Discord account was made, from its id (a trust signal, like X's `created_at`). */
export function snowflakeTime(id: string): Date {
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH));
}

/** The connecting account's profile: `GET /users/@me` (scope `identify`). */
export async function fetchDiscordProfile(call: ProviderCall): Promise<ProfileOutcome> {
  const answer = await providerRequest(call, { path: "/users/@me", schema: currentUser, scope: "identify" });
  if (answer.kind !== "ok") return answer;
  const { id, username, global_name, avatar } = answer.data;
  return {
    kind: "profile",
    profile: {
      id,
      handle: username,
      displayName: global_name ?? username,
      avatarUrl: avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png?size=128` : null,
      accountCreatedAt: snowflakeTime(id),
    },
  };
}

const ownMembership = z
  .object({
    roles: z.array(snowflake),
    joined_at: z.string().nullish(),
  })
  .loose();

const discordErrorBody = z.object({ code: z.number(), message: z.string().optional() }).loose();

/** Discord's "Unknown Guild": what it answers a member who is not in the server (or a server that does not exist). */
const UNKNOWN_GUILD = 10004;

/**
 * Whether the member is in the server and, with `roleId`, holds that role: `GET
 * /users/@me/guilds/{guildId}/member` (scope `guilds.members.read`). Found: the server's id (the
 * role's for a role task) and when they joined. Not found: 404 Unknown Guild, or the role missing.
 * Every other answer (401, 403, 429, another 404, an answer we cannot read) is Discord's, never
 * the member's.
 */
export async function checkDiscordMembership(call: ProviderCall, { guildId, roleId }: { guildId: string; roleId?: string }): Promise<CheckOutcome> {
  const path = `/users/@me/guilds/${guildId}/member`;
  const answer = await providerRequestOrRefusal(call, { path, schema: ownMembership, scope: "guilds.members.read", refusals: [404] });
  if (answer.kind === "refused") {
    const error = discordErrorBody.safeParse(answer.body);
    if (error.success && error.data.code === UNKNOWN_GUILD) return { kind: "not_found" };
    const said = error.success ? `code ${error.data.code}: ${error.data.message ?? ""}` : "an answer without Discord's error code";
    return { kind: "malformed", detail: `discord GET ${path}: HTTP 404 with ${said}` };
  }
  if (answer.kind !== "ok") return answer;
  const { roles, joined_at } = answer.data;
  if (roleId !== undefined && !roles.includes(roleId)) return { kind: "not_found" };
  return { kind: "found", evidence: { id: roleId ?? guildId, ...(joined_at ? { at: joined_at } : {}) } };
}
