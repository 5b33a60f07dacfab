import { sql } from "drizzle-orm";
import { discordRoleLog } from "#db/schema/community";
import { rowsOf, type Db } from "~/lib/db.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { refusalCode, setMemberRole } from "./discord-bot.server";
import { projectBot } from "./discord-settings.server";
import { recomputeRoleGrants } from "./role-grants.server";

/**
 * The `discord-roles` job: each due change of `discord_role_grant` asked of Discord through the
 * project's bot, done only when Discord confirmed it, every attempt logged in `discord_role_log`.
 * Rows are claimed with `for update skip locked` and leased, so two runs never ask for one row.
 */

/** How long a claimed row is the run's: a run that dies mid-call leaves it due again after this. */
const LEASE_MS = 5 * 60_000;
const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 3_600_000;

/** After the `attempts`th failure: 30 s, 1, 2, 4 … minutes, at most an hour. */
export const backoffMs = (attempts: number) => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));

type Claimed = {
  id: number;
  want: "held" | "removed";
  projectId: string;
  discordUserId: string;
  guildId: string;
  roleId: string;
  roleName: string;
  reason: string;
  attempts: number;
};

/** Takes up to `batch` due rows for this run: locked rows are another run's, and each taken row is leased. */
async function claimDue(db: Db, now: Date, batch: number): Promise<Claimed[]> {
  const at = now.toISOString();
  const rows = rowsOf(
    await db.execute(sql`
      with due as (
        select g.id from discord_role_grant g
        where g.state = 'pending' and g.next_attempt_at <= ${at}::timestamptz
          and exists (select 1 from project_discord pd where pd.project_id = g.project_id)
        order by g.next_attempt_at, g.id
        limit ${batch}
        for update of g skip locked
      )
      update discord_role_grant g set
        attempts = g.attempts + 1,
        next_attempt_at = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz,
        updated_at = ${at}::timestamptz
      from due, discord_role_reward r
      where g.id = due.id and r.id = g.reward_id
      returning g.id, g.want, g.project_id, g.discord_user_id, g.guild_id, g.role_id, r.role_name, g.reason, g.attempts`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    want: r.want as Claimed["want"],
    projectId: String(r.project_id),
    discordUserId: String(r.discord_user_id),
    guildId: String(r.guild_id),
    roleId: String(r.role_id),
    roleName: String(r.role_name),
    reason: String(r.reason),
    attempts: Number(r.attempts),
  }));
}

/** What one attempt came to: done (Discord confirmed), or again at `retryAt`, with the words for the page and the log. */
type Attempt = { outcome: "confirmed"; detail: string } | { outcome: "retry"; detail: string; retryAt: Date; rateLimited?: true };

const clock = (at: Date) => at.toISOString().slice(0, 16).replace("T", " ") + " UTC";

async function attempt(row: Claimed, bot: Awaited<ReturnType<typeof projectBot>>, now: Date): Promise<Attempt> {
  const later = new Date(now.getTime() + backoffMs(row.attempts));
  const action = row.want === "held" ? "grant" : "remove";
  if (!bot) return { outcome: "retry", detail: "The project's Discord bot could not be read: save its token again.", retryAt: later };
  const server = bot.guildName || "the server";
  const answer = await setMemberRole(bot.call, { guildId: row.guildId, userId: row.discordUserId, roleId: row.roleId, action, reason: row.reason });
  switch (answer.kind) {
    case "ok":
      return { outcome: "confirmed", detail: action === "grant" ? `Discord confirmed: ${row.roleName} granted` : `Discord confirmed: ${row.roleName} removed` };
    case "refused": {
      const code = refusalCode(answer);
      if (code === 10007) {
        // A member who left the server holds no role: nothing is left to take back.
        if (action === "remove") return { outcome: "confirmed", detail: `Not in ${server} any more: ${row.roleName} is not held` };
        return { outcome: "retry", detail: `Join ${server} to receive the role`, retryAt: later };
      }
      if (code === 10011) return { outcome: "retry", detail: `The role ${row.roleName} no longer exists in ${server}: remove its rule`, retryAt: later };
      return { outcome: "retry", detail: `The bot is not in ${server}: invite it again from the Discord page`, retryAt: later };
    }
    case "rate_limited":
      return { outcome: "retry", detail: `Discord's rate limit: trying again at ${clock(answer.retryAt)}`, retryAt: answer.retryAt, rateLimited: true };
    case "missing_scope":
      return {
        outcome: "retry",
        detail: `The bot may not ${action} ${row.roleName}: it needs Manage Roles and its role above ${row.roleName} in Server Settings › Roles`,
        retryAt: later,
      };
    case "needs_reconnect":
      return { outcome: "retry", detail: "Discord refused the bot's token: save a new one on the Discord page", retryAt: later };
    case "unavailable":
      return { outcome: "retry", detail: `Discord did not answer: trying again at ${clock(later)}`, retryAt: later };
    case "malformed":
      return { outcome: "retry", detail: `Discord answered something unexpected: trying again at ${clock(later)}`, retryAt: later };
  }
}

/**
 * The `discord-roles` job: recompute, then ask Discord for each due change (a batch), PUT to grant
 * and DELETE to remove, logging each attempt. A grant is done only when Discord confirmed it (204;
 * removing a role from a member who left is done too); anything else stays pending, due again at
 * Discord's `retry_after` or after a backoff of at most an hour, with the words why.
 */
export async function runDiscordRoles({
  db,
  social,
  now = new Date(),
  batch = 50,
  fetch,
  log,
}: {
  db: Db;
  social: Pick<SocialConfig, "tokenKey" | "discordApiUrl">;
  now?: Date;
  batch?: number;
  fetch?: typeof globalThis.fetch;
  log?: { warn: (fields: object, message?: string) => void };
}) {
  const recomputed = await recomputeRoleGrants({ db, now });
  const claimed = await claimDue(db, now, batch);
  const bots = new Map<string, Awaited<ReturnType<typeof projectBot>>>();
  let confirmed = 0;
  let attempted = 0;
  /** A bot Discord rate-limited in this run: its other rows wait until then, unasked. */
  const limited = new Map<string, Date>();
  for (const row of claimed) {
    const until = limited.get(row.projectId);
    if (until) {
      await db.execute(sql`
        update discord_role_grant set attempts = greatest(attempts - 1, 0), next_attempt_at = ${until.toISOString()}::timestamptz
        where id = ${row.id} and want = ${row.want}`);
      continue;
    }
    if (!bots.has(row.projectId)) bots.set(row.projectId, await projectBot({ db, social, projectId: row.projectId, now, fetch }));
    const result = await attempt(row, bots.get(row.projectId)!, now);
    attempted++;
    const action = row.want === "held" ? "grant" : "remove";
    if (result.outcome === "confirmed") confirmed++;
    else if (result.rateLimited) limited.set(row.projectId, result.retryAt);
    else if (result.detail.startsWith("Discord answered something unexpected"))
      log?.warn({ grantId: row.id, projectId: row.projectId }, "discord-roles: unexpected answer");
    // Only if the want is still the one acted on: a flip meanwhile made the row due again.
    await db.execute(sql`
      update discord_role_grant set
        state = ${result.outcome === "confirmed" ? "done" : "pending"},
        confirmed_at = ${result.outcome === "confirmed" ? now.toISOString() : null}::timestamptz,
        last_error = ${result.outcome === "confirmed" ? null : result.detail},
        next_attempt_at = ${(result.outcome === "confirmed" ? now : result.retryAt).toISOString()}::timestamptz,
        updated_at = ${now.toISOString()}::timestamptz
      where id = ${row.id} and want = ${row.want}`);
    // Flipped while Discord was asked: the other change is asked again after this one, so Discord ends as the row wants.
    await db.execute(sql`
      update discord_role_grant set state = 'pending', next_attempt_at = ${now.toISOString()}::timestamptz
      where id = ${row.id} and want <> ${row.want}`);
    await db.insert(discordRoleLog).values({ grantId: row.id, projectId: row.projectId, action, outcome: result.outcome, detail: result.detail, at: now });
  }
  return { ...recomputed, attempted, confirmed };
}
