import { WINDOWS, type BoardRow } from "~/modules/leaderboards/leaderboards.server";
import type { ApiGrant } from "~/modules/leaderboards/api-grants.server";
import type { ProjectMember } from "~/modules/projects/project-member.server";
import { DISTRIBUTIONS, REWARD_KINDS } from "~/modules/rewards/pool-types";
import type { PoolPayout, ProjectPool } from "~/modules/rewards/project-pools.server";
import { COMPLETION_STATUSES, type ProjectCompletion } from "~/modules/tasks/project-completions.server";
import { decodeCursor } from "./cursor";
import { z } from "./openapi-zod";

/**
 * The objects of /api/v1's completions, leaderboards, members, XP and reward pools (snake_case,
 * times as ISO 8601, token amounts as decimal strings of base units), each with its mapping from
 * the domain's read. Shared by the route modules and their tests.
 */
const time = z.iso.datetime({ offset: true });
const iso = (date: Date | null) => (date ? date.toISOString() : null);
const units = z.string().regex(/^\d+$/);

export const idParam = (what: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { description: `The ${what}'s id.` } });

export const walletParam = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "wallet must be an address: 0x and 40 hex digits")
  .openapi({ param: { description: "A wallet address the member linked, in any case." } });

/** A cursor's sort value as a whole number (a rank or an offset): the cursor came from us. */
export const cursorNumber = (cursor: string | undefined) => {
  const sort = cursor === undefined ? null : decodeCursor(cursor)?.sort;
  return typeof sort === "number" && Number.isSafeInteger(sort) && sort >= 0 ? sort : null;
};

/** PostgreSQL's text of a timestamptz, as `sortText` gives it to a cursor. */
const TIMESTAMP_TEXT = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:\d\d)?|Z)$/;

/**
 * The (creation time, id) key a cursor holds, null without a cursor; "invalid" for one whose time
 * is not a timestamp's text (only a hand-made cursor: ours always hold one), refused as bad input.
 */
export function cursorTimeKey(cursor: string | undefined): { createdAt: string; id: string } | null | "invalid" {
  const decoded = cursor === undefined ? null : decodeCursor(cursor);
  if (!decoded) return null;
  return typeof decoded.sort === "string" && TIMESTAMP_TEXT.test(decoded.sort) ? { createdAt: decoded.sort, id: decoded.id } : "invalid";
}

export const completionSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    campaign_id: z.string().nullable(),
    crusade_id: z.string().nullable(),
    member_id: z.string(),
    period: z.string().meta({ description: "`once`, or the UTC day (YYYY-MM-DD) of a daily task." }),
    status: z.enum(COMPLETION_STATUSES),
    verified_by: z.string().nullable().meta({ description: "How it was checked: `api`, `code`, `review`, `auto`, `none`." }),
    reason: z.string().nullable().meta({ description: "Why it was rejected or voided." }),
    created_at: time,
    reviewed_at: time.nullable(),
  })
  .openapi("Completion");

export const completionOut = (row: ProjectCompletion): z.input<typeof completionSchema> => ({
  id: row.id,
  task_id: row.taskId,
  campaign_id: row.campaignId,
  crusade_id: row.crusadeId,
  member_id: row.userId,
  period: row.period,
  status: row.status,
  verified_by: row.verifiedBy,
  reason: row.reason,
  created_at: row.createdAt.toISOString(),
  reviewed_at: iso(row.reviewedAt),
});

export const windowSchema = z.enum(WINDOWS);
export const windowParam = windowSchema.default("all").openapi({ param: { description: "`all` (all time, the default), `30d` or `7d`." } });

export const boardEntrySchema = z
  .object({
    rank: z.number().int().meta({ description: "Exact rank: one plus the members above." }),
    member_id: z.string(),
    xp: z.number().int(),
    name: z.string().meta({ description: "The name the member shows on boards." }),
    username: z.string().nullable(),
    image: z.string().nullable(),
  })
  .openapi("LeaderboardEntry");

export const boardEntryOut = (row: BoardRow): z.input<typeof boardEntrySchema> => ({
  rank: row.rank,
  member_id: row.userId,
  xp: row.score,
  name: row.name,
  username: row.username,
  image: row.image,
});

export const memberSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    username: z.string().nullable(),
    image: z.string().nullable(),
    email: z.string().nullable().meta({ description: "Only when the member shared their e-mail address with this project; else null." }),
    wallets: z.array(z.string()).meta({ description: "Linked wallet addresses." }),
    social_accounts: z.array(z.object({ provider: z.string(), handle: z.string() })),
    xp: z.number().int().meta({ description: "XP in this project, all time." }),
    rank: z.number().int().nullable().meta({ description: "Exact rank on the project's all-time board; null without XP." }),
    completions: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }),
  })
  .openapi("Member");

export const memberOut = (m: ProjectMember): z.input<typeof memberSchema> => ({
  id: m.id,
  name: m.name,
  username: m.username,
  image: m.image,
  email: m.email,
  wallets: m.wallets,
  social_accounts: m.socials,
  xp: m.xp,
  rank: m.rank,
  completions: m.completions,
});

export const xpGrantSchema = z
  .object({
    id: z.string().meta({ description: "The grant's id: revoke it by this." }),
    member_id: z.string(),
    amount: z.number().int(),
    reason: z.string().optional(),
    created_at: time,
    revoked: z.boolean(),
  })
  .openapi("XpGrant");

export const xpGrantOut = (grant: ApiGrant, reason?: string): z.input<typeof xpGrantSchema> => ({
  id: grant.id,
  member_id: grant.userId,
  amount: grant.amount,
  ...(reason === undefined ? {} : { reason }),
  created_at: grant.createdAt.toISOString(),
  revoked: grant.revoked,
});

export const POOL_STATES = ["draft", "funded", "live", "drawing", "paying", "paid"] as const;

export const rewardPoolSchema = z
  .object({
    id: z.string(),
    campaign_id: z.string(),
    campaign_name: z.string(),
    kind: z.enum(REWARD_KINDS),
    asset: z.string().nullable().meta({ description: "`token` pools: `SYMBOL:chainId`." }),
    distribution: z.enum(DISTRIBUTIONS),
    winners: z.number().int().nullable(),
    amount: units.nullable().meta({ description: "Per winner (`fcfs`, `raffle`) or the total (`everyone`): XP or base units." }),
    rank_amounts: z.array(units).nullable().meta({ description: "`ranking`: the amount by rank, best first." }),
    escrowed: units,
    returned: units,
    state: z.enum(POOL_STATES).meta({ description: "`draft`, `funded` (campaign scheduled), `live`, `drawing` (a raffle frozen), `paying`, `paid`." }),
    paid_to: z.number().int().meta({ description: "Members granted so far." }),
    paid_total: units,
    created_at: time,
    paid_at: time.nullable(),
  })
  .openapi("RewardPool");

export const rewardPoolOut = (pool: ProjectPool): z.input<typeof rewardPoolSchema> => ({
  id: pool.id,
  campaign_id: pool.campaignId,
  campaign_name: pool.campaignName,
  kind: pool.kind,
  asset: pool.asset,
  distribution: pool.distribution,
  winners: pool.winners,
  amount: pool.amount,
  rank_amounts: pool.rankAmounts,
  escrowed: pool.escrowed,
  returned: pool.returned,
  state: pool.state,
  paid_to: pool.paidTo,
  paid_total: pool.paidTotal,
  created_at: pool.createdAt.toISOString(),
  paid_at: iso(pool.paidAt),
});

export const payoutSchema = z
  .object({
    member_id: z.string(),
    rank: z.number().int().meta({ description: "Finishing order (`fcfs`, `everyone`), draw order (`raffle`) or board rank (`ranking`), from 1." }),
    kind: z.enum(REWARD_KINDS),
    amount: units.meta({ description: "XP, or the asset's base units." }),
    asset: z.string().nullable(),
    paid_at: time.nullable().meta({ description: "Null while not yet paid." }),
  })
  .openapi("Payout");

export const payoutOut = (p: PoolPayout): z.input<typeof payoutSchema> => ({
  member_id: p.userId,
  rank: p.rank,
  kind: p.kind,
  amount: p.amount,
  asset: p.asset,
  paid_at: iso(p.paidAt),
});
