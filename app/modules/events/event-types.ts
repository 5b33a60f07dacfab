import { z } from "zod";

/**
 * What happened, once, as the features that made it happen record it (`emitEvent`, in the same
 * transaction as the change): the one outbox both consumers read. The notifications job turns an
 * event into inbox entries and mails for the members it concerns; the webhook job turns it into a
 * delivery to each of the project's endpoints that chose its type. Browser-safe.
 */

const id = z.string().min(1).max(200);
const title = z.string().max(300);
/** Token amounts in base units, as decimal strings (JSON has no bigint). */
const units = z.string().regex(/^-?\d+$/);

const completion = z.object({
  completionId: id,
  taskId: id,
  taskTitle: title,
  userId: id,
  /** The container the task belongs to, if any. */
  campaignId: id.nullable(),
  crusadeId: id.nullable(),
  airdropId: id.nullable(),
  /** A person decided it (review, appeal), not a check. */
  reviewed: z.boolean(),
  /** Rejected or voided: why, in words. */
  reason: z.string().max(2000).nullable(),
});

/** Every event's data, by type: what `emitEvent` accepts and what consumers read back. */
export const EVENT_DATA = {
  "completion.created": completion,
  "completion.approved": completion,
  "completion.rejected": completion,
  "completion.voided": completion,
  /** A member's first completion in the project. */
  "member.joined": z.object({ userId: id }),
  "reward.paid": z.object({
    poolId: id,
    campaignId: id,
    campaignTitle: title,
    userId: id,
    kind: z.enum(["xp", "token"]),
    amount: units,
    asset: z.string().nullable(),
    distribution: z.enum(["fcfs", "raffle", "ranking", "everyone"]),
    rank: z.number().int().nullable(),
  }),
  "raffle.drawn": z.object({ poolId: id, campaignId: id, campaignTitle: title, winners: z.number().int(), entrants: z.number().int() }),
  "airdrop.frozen": z.object({ airdropId: id, title, members: z.number().int(), total: units, asset: z.string(), root: z.string() }),
  /** Its round is open on chain: members can claim. */
  "airdrop.claimable": z.object({ airdropId: id, title, claimDeadline: z.iso.datetime().nullable() }),
  /** Claims close within 24 hours. */
  "airdrop.closing": z.object({ airdropId: id, title, claimDeadline: z.iso.datetime() }),
  "airdrop.claimed": z.object({ airdropId: id, userId: id.nullable(), address: z.string(), amount: units, txHash: z.string() }),
  "xp.changed": z.object({ userId: id, delta: z.number().int(), source: z.string().max(300) }),
  "deposit.credited": z.object({ depositId: id, userId: id, asset: z.string(), amount: units, chainId: z.number().int(), txHash: z.string() }),
  "withdrawal.confirmed": z.object({
    withdrawalId: id,
    userId: id,
    asset: z.string(),
    amount: units,
    chainId: z.number().int(),
    txHash: z.string().nullable(),
  }),
  "withdrawal.failed": z.object({
    withdrawalId: id,
    userId: id,
    asset: z.string(),
    amount: units,
    chainId: z.number().int(),
    reason: z.string().max(2000),
  }),
  "invitation.received": z.object({
    inviteId: id,
    userId: id,
    projectName: title,
    role: z.enum(["owner", "admin", "reviewer"]),
    invitedBy: z.string().max(200),
  }),
  "campaign.published": z.object({ campaignId: id, title, startsAt: z.iso.datetime().nullable() }),
  /** A webhook endpoint was turned off after failing for too long: a notice to the project's team. */
  "webhook.disabled": z.object({ endpointId: id, url: z.string(), reason: z.string().max(2000) }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];
export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;

/** The events a project's webhook endpoints may choose (issue #39's list), with what each says. */
export const WEBHOOK_EVENT_TYPES = {
  "completion.created": "A member sent or completed a task",
  "completion.approved": "A completion was approved",
  "completion.rejected": "A completion was rejected",
  "completion.voided": "An approved completion was voided",
  "member.joined": "A member completed their first task in the project",
  "reward.paid": "A reward pool paid a member",
  "raffle.drawn": "A raffle was drawn",
  "airdrop.frozen": "An airdrop's allocation was frozen",
  "airdrop.claimed": "A member claimed an airdrop share on chain",
  "xp.changed": "A member's XP in the project changed",
} as const satisfies Partial<Record<EventType, string>>;
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const isWebhookEvent = (type: EventType): type is WebhookEventType => type in WEBHOOK_EVENT_TYPES;

/** The events the notifications job reads (the others are marked read by it at once when recorded). */
export const NOTIFYING_EVENT_TYPES: readonly EventType[] = [
  "completion.approved",
  "completion.rejected",
  "reward.paid",
  "raffle.drawn",
  "airdrop.claimable",
  "airdrop.closing",
  "deposit.credited",
  "withdrawal.confirmed",
  "withdrawal.failed",
  "invitation.received",
  "campaign.published",
  "webhook.disabled",
];
export const isNotifyingEvent = (type: EventType) => NOTIFYING_EVENT_TYPES.includes(type);

/** An event as `emitEvent` takes it. `key` makes it once: the same key again records nothing. */
export type NewEvent<T extends EventType = EventType> = {
  type: T;
  key: string;
  /** The project it belongs to (webhooks go to this project's endpoints); null for a member's own money. */
  projectId: string | null;
  data: EventData<T>;
};
