import { randomUUID } from "node:crypto";
import { parseInput } from "~/lib/forms";
import { and, asc, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { discordRoleGrant, discordRoleLog, discordRoleReward, projectDiscord } from "#db/schema/community";
import { project } from "#db/schema/projects";
import { campaign, crusade } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import type { Db } from "~/lib/db.server";
import { failure, invalid, ok, type Result } from "~/lib/result";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { fetchGuildRoles, grantableRoles, type DiscordRole } from "./discord-bot.server";
import { projectBot } from "./discord-settings.server";
import { roleRewardFormSchema } from "./role-rewards.schema";

/**
 * A project's rules granting Discord roles (Project › Discord): added with a role of the server,
 * read through the bot; removed rules keep their row until the job has taken their roles back.
 */

type Social = Pick<SocialConfig, "tokenKey" | "discordApiUrl">;

/** The roles the project may grant, read through its bot; null with the words why when they cannot be read. */
export async function serverRoles({
  db,
  social,
  projectId,
  fetch,
}: {
  db: Db;
  social: Social;
  projectId: string;
  fetch?: typeof globalThis.fetch;
}): Promise<{ roles: DiscordRole[] } | { roles: null; why: string }> {
  const bot = await projectBot({ db, social, projectId, fetch });
  if (!bot) return { roles: null, why: "Save the bot first." };
  const answer = await fetchGuildRoles(bot.call, bot.guildId);
  if (answer.kind === "ok") return { roles: grantableRoles(answer.data, bot.guildId) };
  if (answer.kind === "refused" || answer.kind === "missing_scope")
    return { roles: null, why: "The bot cannot read the server's roles: invite it to the server first." };
  if (answer.kind === "needs_reconnect") return { roles: null, why: "Discord refused the bot's token: save a new one." };
  return { roles: null, why: "Discord did not answer: the server's roles could not be read. Reload in a minute." };
}

/** Adds a rule: the role must be one the bot can see and grant, the campaign, crusade or reward one of the project's. */
export async function addRoleReward({
  db,
  social,
  projectId,
  userId,
  input,
  now = new Date(),
  fetch,
}: {
  db: Db;
  social: Social;
  projectId: string;
  userId: string;
  input: unknown;
  now?: Date;
  fetch?: typeof globalThis.fetch;
}): Promise<Result<{ id: string }>> {
  const parsed = parseInput(roleRewardFormSchema, input);
  if (!parsed.ok) return parsed;
  const form = parsed.data;
  const read = await serverRoles({ db, social, projectId, fetch });
  if (!read.roles) return failure("unavailable", read.why);
  const role = read.roles.find((r) => r.id === form.roleId);
  if (!role) return invalid("roleId", "Choose one of the server's roles (not @everyone, not a role an integration manages).");

  const target = await targetOf(db, projectId, form);
  if (!target.ok) return target;
  const id = randomUUID();
  await db.insert(discordRoleReward).values({
    id,
    projectId,
    roleId: role.id,
    roleName: role.name,
    trigger: form.trigger,
    campaignId: form.trigger === "campaign" ? form.campaignId : null,
    crusadeId: form.trigger === "crusade" ? form.crusadeId : null,
    poolId: form.trigger === "pool" ? form.poolId : null,
    level: form.trigger === "level" ? form.level : null,
    createdBy: userId,
    createdAt: now,
  });
  return ok({ id });
}

async function targetOf(db: Db, projectId: string, form: ReturnType<typeof roleRewardFormSchema.parse>): Promise<Result> {
  if (form.trigger === "campaign") {
    const [row] = await db
      .select({ id: campaign.id })
      .from(campaign)
      .where(and(eq(campaign.id, form.campaignId), eq(campaign.projectId, projectId)));
    return row ? ok() : invalid("campaignId", "Choose one of this project's campaigns.");
  }
  if (form.trigger === "crusade") {
    const [row] = await db
      .select({ id: crusade.id })
      .from(crusade)
      .where(and(eq(crusade.id, form.crusadeId), eq(crusade.projectId, projectId)));
    return row ? ok() : invalid("crusadeId", "Choose one of this project's crusades.");
  }
  if (form.trigger === "pool") {
    const [row] = await db
      .select({ id: rewardPool.id })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(and(eq(rewardPool.id, form.poolId), eq(campaign.projectId, projectId)));
    return row ? ok() : invalid("poolId", "Choose one of this project's rewards.");
  }
  return ok();
}

/** Removes a rule: the next run of the job takes back every role it granted. */
export async function removeRoleReward({
  db,
  projectId,
  rewardId,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  rewardId: string;
  now?: Date;
}): Promise<Result> {
  const [row] = await db
    .update(discordRoleReward)
    .set({ removedAt: now })
    .where(and(eq(discordRoleReward.id, rewardId), eq(discordRoleReward.projectId, projectId), isNull(discordRoleReward.removedAt)))
    .returning({ id: discordRoleReward.id });
  return row ? ok() : failure("not_found", "That rule is removed already.");
}

/** The rules in force, each with its target's name, how many members hold its role (Discord confirmed) and how many wait. */
export async function listRoleRewards({ db, projectId }: { db: Db; projectId: string }) {
  return db
    .select({
      id: discordRoleReward.id,
      roleName: discordRoleReward.roleName,
      trigger: discordRoleReward.trigger,
      level: discordRoleReward.level,
      target: sql<
        string | null
      >`coalesce(${campaign.name}, ${crusade.name}, (select c2.name from reward_pool rp join campaign c2 on c2.id = rp.campaign_id where rp.id = ${discordRoleReward.poolId}))`,
      holding:
        sql<number>`(select count(*) from discord_role_grant g where g.reward_id = ${discordRoleReward.id} and g.want = 'held' and g.state = 'done')`.mapWith(
          Number,
        ),
      waiting: sql<number>`(select count(*) from discord_role_grant g where g.reward_id = ${discordRoleReward.id} and g.state = 'pending')`.mapWith(Number),
    })
    .from(discordRoleReward)
    .leftJoin(campaign, eq(campaign.id, discordRoleReward.campaignId))
    .leftJoin(crusade, eq(crusade.id, discordRoleReward.crusadeId))
    .where(and(eq(discordRoleReward.projectId, projectId), isNull(discordRoleReward.removedAt)))
    .orderBy(asc(discordRoleReward.createdAt));
}

/** Removed rules whose roles are still being taken back. */
export async function rulesBeingRemoved({ db, projectId }: { db: Db; projectId: string }) {
  return db
    .select({ id: discordRoleReward.id, roleName: discordRoleReward.roleName, waiting: sql<number>`count(${discordRoleGrant.id})`.mapWith(Number) })
    .from(discordRoleReward)
    .innerJoin(discordRoleGrant, and(eq(discordRoleGrant.rewardId, discordRoleReward.id), eq(discordRoleGrant.state, "pending")))
    .where(and(eq(discordRoleReward.projectId, projectId), isNotNull(discordRoleReward.removedAt)))
    .groupBy(discordRoleReward.id, discordRoleReward.roleName);
}

/** What the rule form offers: the project's campaigns, crusades and rewards. */
export async function ruleTargets({ db, projectId }: { db: Db; projectId: string }) {
  const [campaigns, crusades, pools] = await Promise.all([
    db.select({ id: campaign.id, name: campaign.name }).from(campaign).where(eq(campaign.projectId, projectId)).orderBy(desc(campaign.startsAt)),
    db.select({ id: crusade.id, name: crusade.name }).from(crusade).where(eq(crusade.projectId, projectId)).orderBy(asc(crusade.name)),
    db
      .select({ id: rewardPool.id, name: sql<string>`${campaign.name} || ' — ' || ${rewardPool.distribution}` })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(eq(campaign.projectId, projectId))
      .orderBy(desc(campaign.startsAt)),
  ]);
  return { campaigns, crusades, pools };
}

export const LOG_PAGE_SIZE = 25;

/** The role log, latest first, a page at a time, with the member's name and the role. */
export async function roleLogPage({ db, projectId, page }: { db: Db; projectId: string; page: number }) {
  const rows = await db
    .select({
      id: discordRoleLog.id,
      action: discordRoleLog.action,
      outcome: discordRoleLog.outcome,
      detail: discordRoleLog.detail,
      at: discordRoleLog.at,
      roleName: discordRoleReward.roleName,
      // The member's name, else their Discord handle (the account the role went to).
      member: sql<string>`coalesce(
        (select nullif(u.name, '') from "user" u where u.id = ${discordRoleGrant.userId}),
        (select '@' || nullif(sa.handle, '') from social_account sa where sa.provider = 'discord' and sa.account_id = ${discordRoleGrant.discordUserId}),
        'A member')`,
      reason: discordRoleGrant.reason,
    })
    .from(discordRoleLog)
    .innerJoin(discordRoleGrant, eq(discordRoleGrant.id, discordRoleLog.grantId))
    .innerJoin(discordRoleReward, eq(discordRoleReward.id, discordRoleGrant.rewardId))
    .where(eq(discordRoleLog.projectId, projectId))
    .orderBy(desc(discordRoleLog.id))
    .limit(LOG_PAGE_SIZE + 1)
    .offset((page - 1) * LOG_PAGE_SIZE);
  return { rows: rows.slice(0, LOG_PAGE_SIZE), hasMore: rows.length > LOG_PAGE_SIZE };
}

/** The roles a member holds or waits for, and why (for their own pages). */
export async function memberRoleGrants({ db, userId }: { db: Db; userId: string }) {
  return db
    .select({
      id: discordRoleGrant.id,
      roleName: discordRoleReward.roleName,
      projectName: project.name,
      guildName: projectDiscord.guildName,
      want: discordRoleGrant.want,
      state: discordRoleGrant.state,
      reason: discordRoleGrant.reason,
      lastError: discordRoleGrant.lastError,
      confirmedAt: discordRoleGrant.confirmedAt,
    })
    .from(discordRoleGrant)
    .innerJoin(discordRoleReward, eq(discordRoleReward.id, discordRoleGrant.rewardId))
    .innerJoin(project, eq(project.id, discordRoleGrant.projectId))
    .leftJoin(projectDiscord, eq(projectDiscord.projectId, discordRoleGrant.projectId))
    .where(eq(discordRoleGrant.userId, userId))
    .orderBy(desc(discordRoleGrant.updatedAt))
    .limit(50);
}

/**
 * The Discord roles completing a campaign earns (or winning one of its pools), with the server's
 * name, for the campaign's page: what a member gets besides XP. Only while the project has a bot.
 */
export async function campaignRoleRewards({ db, campaignId }: { db: Db; campaignId: string }) {
  return db
    .select({ id: discordRoleReward.id, roleName: discordRoleReward.roleName, guildName: projectDiscord.guildName, trigger: discordRoleReward.trigger })
    .from(discordRoleReward)
    .innerJoin(projectDiscord, eq(projectDiscord.projectId, discordRoleReward.projectId))
    .leftJoin(rewardPool, eq(rewardPool.id, discordRoleReward.poolId))
    .where(and(isNull(discordRoleReward.removedAt), sql`(${discordRoleReward.campaignId} = ${campaignId} or ${rewardPool.campaignId} = ${campaignId})`))
    .orderBy(asc(discordRoleReward.createdAt));
}
