import { z } from "zod";
import { providerRequest } from "./http.server";
import type { ProfileOutcome, ProviderCall } from "./outcome";

/** Who a member is on Discord, read through Discord's REST API (v10) with their OAuth token. */

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
