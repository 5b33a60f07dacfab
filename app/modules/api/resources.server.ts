import { airdrop } from "#db/schema/airdrops";
import { project } from "#db/schema/projects";
import { campaign, crusade, task } from "#db/schema/quests";
import { AIRDROP_RULES, AIRDROP_STATUSES } from "~/modules/airdrops/airdrop-types";
import { TASK_TYPES } from "~/modules/tasks/task-types";
import { sortText } from "./cursor";
import { z } from "./openapi-zod";

/**
 * The objects /api/v1 answers with (snake_case, times as ISO 8601 strings), each with the columns
 * it is read from and its mapping. The key's project sees its own drafts: `published_at` null.
 */
const time = z.iso.datetime({ offset: true });
const iso = (date: Date | null) => (date ? date.toISOString() : null);
const id = z.string().meta({ description: "The object's id." });

export const projectSchema = z
  .object({
    id,
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    logo_url: z.string().nullable(),
    banner_url: z.string().nullable(),
    website: z.string().nullable(),
    x_url: z.string().nullable(),
    discord_url: z.string().nullable(),
    telegram_url: z.string().nullable(),
    reward_asset: z.string().nullable().meta({ description: "The asset its rewards are paid in, `SYMBOL:chainId`; null: none chosen." }),
    created_at: time,
  })
  .openapi("Project");

export const projectColumns = {
  id: project.id,
  slug: project.slug,
  name: project.name,
  description: project.description,
  logoUrl: project.logoUrl,
  bannerUrl: project.bannerUrl,
  website: project.website,
  xUrl: project.xUrl,
  discordUrl: project.discordUrl,
  telegramUrl: project.telegramUrl,
  rewardAsset: project.rewardAsset,
  createdAt: project.createdAt,
};
type ProjectRow = { [K in keyof typeof projectColumns]: (typeof projectColumns)[K]["_"]["data"] | null };
export const projectOut = (row: ProjectRow): z.input<typeof projectSchema> => ({
  id: row.id!,
  slug: row.slug!,
  name: row.name!,
  description: row.description ?? "",
  logo_url: row.logoUrl,
  banner_url: row.bannerUrl,
  website: row.website,
  x_url: row.xUrl,
  discord_url: row.discordUrl,
  telegram_url: row.telegramUrl,
  reward_asset: row.rewardAsset,
  created_at: row.createdAt!.toISOString(),
});

const CAMPAIGN_STATUSES = ["draft", "scheduled", "live", "ended"] as const;
export const campaignSchema = z
  .object({
    id,
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    status: z.enum(CAMPAIGN_STATUSES).meta({ description: "`draft` until published; then by its dates." }),
    starts_at: time,
    ends_at: time,
    published_at: time.nullable().meta({ description: "Null: a draft, seen by the project's own key only." }),
    created_at: time,
  })
  .openapi("Campaign");

export const campaignColumns = {
  id: campaign.id,
  slug: campaign.slug,
  name: campaign.name,
  description: campaign.description,
  startsAt: campaign.startsAt,
  endsAt: campaign.endsAt,
  publishedAt: campaign.publishedAt,
  createdAt: campaign.createdAt,
  sort: sortText(campaign.createdAt),
};
export function campaignOut(
  row: { id: string; slug: string; name: string; description: string; startsAt: Date; endsAt: Date; publishedAt: Date | null; createdAt: Date },
  now: Date,
): z.input<typeof campaignSchema> {
  const status = !row.publishedAt ? "draft" : now < row.startsAt ? "scheduled" : now < row.endsAt ? "live" : "ended";
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    status,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
    published_at: iso(row.publishedAt),
    created_at: row.createdAt.toISOString(),
  };
}

export const crusadeSchema = z
  .object({
    id,
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    bonus_xp: z.number().int().meta({ description: "XP for completing every task in order." }),
    published_at: time.nullable(),
    created_at: time,
  })
  .openapi("Crusade");

export const crusadeColumns = {
  id: crusade.id,
  slug: crusade.slug,
  name: crusade.name,
  description: crusade.description,
  bonusXp: crusade.bonusXp,
  publishedAt: crusade.publishedAt,
  createdAt: crusade.createdAt,
  sort: sortText(crusade.createdAt),
};
export const crusadeOut = (row: {
  id: string;
  slug: string;
  name: string;
  description: string;
  bonusXp: number;
  publishedAt: Date | null;
  createdAt: Date;
}): z.input<typeof crusadeSchema> => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  bonus_xp: row.bonusXp,
  published_at: iso(row.publishedAt),
  created_at: row.createdAt.toISOString(),
});

export const taskSchema = z
  .object({
    id,
    title: z.string(),
    description: z.string(),
    type: z.enum(TASK_TYPES),
    xp: z.number().int(),
    verification: z.enum(["auto", "review", "none"]),
    recurrence: z.enum(["once", "daily"]),
    campaign_id: z.string().nullable(),
    crusade_id: z.string().nullable(),
    crusade_position: z.number().int().nullable(),
    airdrop_id: z.string().nullable(),
    starts_at: time.nullable(),
    ends_at: time.nullable(),
    cap: z.number().int().nullable().meta({ description: "At most this many completions; null: no cap." }),
    slots_taken: z.number().int(),
    published_at: time.nullable(),
    created_at: time,
  })
  .openapi("Task");

export const taskColumns = {
  id: task.id,
  title: task.title,
  description: task.description,
  type: task.type,
  xp: task.xp,
  verification: task.verification,
  recurrence: task.recurrence,
  campaignId: task.campaignId,
  crusadeId: task.crusadeId,
  crusadePosition: task.crusadePosition,
  airdropId: task.airdropId,
  startsAt: task.startsAt,
  endsAt: task.endsAt,
  cap: task.cap,
  slotsTaken: task.slotsTaken,
  publishedAt: task.publishedAt,
  createdAt: task.createdAt,
  sort: sortText(task.createdAt),
};
type TaskRow = { [K in Exclude<keyof typeof taskColumns, "sort">]: (typeof taskColumns)[K]["_"]["data"] | null };
export const taskOut = (row: TaskRow): z.input<typeof taskSchema> => ({
  id: row.id!,
  title: row.title!,
  description: row.description ?? "",
  type: row.type!,
  xp: row.xp!,
  verification: row.verification!,
  recurrence: row.recurrence!,
  campaign_id: row.campaignId,
  crusade_id: row.crusadeId,
  crusade_position: row.crusadePosition,
  airdrop_id: row.airdropId,
  starts_at: iso(row.startsAt),
  ends_at: iso(row.endsAt),
  cap: row.cap,
  slots_taken: row.slotsTaken ?? 0,
  published_at: iso(row.publishedAt),
  created_at: row.createdAt!.toISOString(),
});

export const airdropSchema = z
  .object({
    id,
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    asset: z.string().meta({ description: "The token paid, `SYMBOL:chainId`." }),
    rule: z.enum(AIRDROP_RULES),
    total: z.string().meta({ description: "What is shared, in the token's base units (a decimal string)." }),
    min_points: z.number().int(),
    status: z.enum(AIRDROP_STATUSES),
    starts_at: time,
    ends_at: time,
    claim_deadline: time,
    frozen_at: time.nullable(),
    root: z.string().nullable().meta({ description: "The Merkle root claims are checked against, once frozen." }),
    published_at: time.nullable(),
    created_at: time,
  })
  .openapi("Airdrop");

export const airdropColumns = {
  id: airdrop.id,
  slug: airdrop.slug,
  name: airdrop.name,
  description: airdrop.description,
  asset: airdrop.asset,
  rule: airdrop.rule,
  total: airdrop.total,
  minPoints: airdrop.minPoints,
  status: airdrop.status,
  startsAt: airdrop.startsAt,
  endsAt: airdrop.endsAt,
  claimDeadline: airdrop.claimDeadline,
  frozenAt: airdrop.frozenAt,
  root: airdrop.root,
  publishedAt: airdrop.publishedAt,
  createdAt: airdrop.createdAt,
  sort: sortText(airdrop.createdAt),
};
type AirdropRow = { [K in Exclude<keyof typeof airdropColumns, "sort">]: (typeof airdropColumns)[K]["_"]["data"] | null };
export const airdropOut = (row: AirdropRow): z.input<typeof airdropSchema> => ({
  id: row.id!,
  slug: row.slug!,
  name: row.name!,
  description: row.description ?? "",
  asset: row.asset!,
  rule: row.rule!,
  total: String(row.total),
  min_points: row.minPoints ?? 0,
  status: row.status!,
  starts_at: row.startsAt!.toISOString(),
  ends_at: row.endsAt!.toISOString(),
  claim_deadline: row.claimDeadline!.toISOString(),
  frozen_at: iso(row.frozenAt),
  root: row.root,
  published_at: iso(row.publishedAt),
  created_at: row.createdAt!.toISOString(),
});
