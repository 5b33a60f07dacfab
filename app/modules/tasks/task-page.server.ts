import { and, count, eq, inArray } from "drizzle-orm";
import { formatUnits } from "viem";
import { airdrop } from "#db/schema/airdrops";
import { campaign, completion, crusade } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import { chainEvidenceOf } from "~/modules/chain/chain-evidence";
import type { Db } from "~/lib/db.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { socialTaskAccess } from "~/modules/social/social-tasks.server";
import { CHAIN_DETAILS } from "~/wallet/chain-details";
import { CHAIN_NAMES, NATIVE_SYMBOLS } from "~/wallet/chains";
import { campaignStatus, type CampaignStatus } from "./campaign-status";
import { crusadeSteps } from "./campaigns.server";
import { periodOf, type Task } from "./completions.server";
import { ATTEMPT_KINDS } from "./attempt.schema";
import { profileUrl } from "./social-targets";
import { taskConfigSchemas } from "./task.schema";
import { TASK_TYPE_LABELS } from "./task-types";
import { isApiChecked, isOnchainChecked, onchainNetworkOf, socialProviderOf, type FoundEvidence } from "./task-checks";
import type { OnchainPlace, OnchainState, TaskBlock, TaskBrief } from "./task-page";
import { memberStates } from "./tasks.server";

/** The member's standing on a task (see memberStates), null when they have not tried it. */
type MemberState = { status: "approved" | "pending" | "rejected"; reason: string | null } | null;

/** A task as the browser may see it: everything but its settings (`config`), with its type's label and an on-chain task's network. */
export function publicTask(t: Task) {
  const { config: _config, ...rest } = t;
  return { ...rest, typeLabel: TASK_TYPE_LABELS[t.type], network: onchainNetworkOf(t) };
}

const networkName = (chainId: number) => CHAIN_NAMES[chainId] ?? `Chain ${chainId}`;
/** An on-chain task's network, by name, with its explorer where it has one. */
const placeOf = (chainId: number): OnchainPlace => ({ network: networkName(chainId), chainId, explorer: CHAIN_DETAILS[chainId]?.explorer ?? null });

/** The task's instructions, with the intent its page's form sends. */
export function taskBrief(t: Task, { inviteLink }: { inviteLink: string | null }) {
  return { ...briefOf(t, inviteLink), intent: ATTEMPT_KINDS[t.type] };
}

function briefOf(t: Task, inviteLink: string | null): TaskBrief {
  switch (t.type) {
    case "visit_link":
      return { type: t.type, url: taskConfigSchemas.visit_link.parse(t.config).url };
    case "quiz": {
      const { question, retryDelaySeconds } = taskConfigSchemas.quiz.parse(t.config);
      return { type: t.type, question, retryDelaySeconds };
    }
    case "submit_text": {
      const { prompt, minLength } = taskConfigSchemas.submit_text.parse(t.config);
      return { type: t.type, prompt, minLength };
    }
    case "submit_url":
    case "submit_image":
      return { type: t.type, prompt: taskConfigSchemas[t.type].parse(t.config).prompt };
    case "hold_token": {
      const c = taskConfigSchemas.hold_token.parse(t.config);
      return {
        type: t.type,
        ...placeOf(c.chainId),
        tokenAddress: c.tokenAddress,
        amount: formatUnits(BigInt(c.minBalance), c.decimals),
        symbol: c.symbol || (c.tokenAddress ? "tokens" : (NATIVE_SYMBOLS[c.chainId] ?? "coins")),
        snapshotBlock: c.snapshotBlock,
      };
    }
    case "nft_hold": {
      const { chainId, recheckBeforeRewards: _recheck, ...rest } = taskConfigSchemas.nft_hold.parse(t.config);
      return { type: t.type, ...placeOf(chainId), ...rest };
    }
    case "contract_call": {
      const c = taskConfigSchemas.contract_call.parse(t.config);
      const coin = NATIVE_SYMBOLS[c.chainId] ?? "ETH";
      return {
        type: t.type,
        ...placeOf(c.chainId),
        contract: c.contract,
        functions: c.functions.map((f) => f.signature),
        minValue: c.minValue === null ? null : `${formatUnits(BigInt(c.minValue), 18)} ${coin}`,
        transfer: c.transfer && {
          token: c.transfer.token,
          amount: formatUnits(BigInt(c.transfer.minAmount), c.transfer.decimals),
          symbol: c.transfer.symbol || "tokens",
        },
        actionUrl: c.actionUrl,
      };
    }
    case "event_emitted": {
      const c = taskConfigSchemas.event_emitted.parse(t.config);
      return {
        type: t.type,
        ...placeOf(c.chainId),
        contract: c.contract,
        event: c.event,
        eventName: /^\s*(?:event\s+)?([A-Za-z_$][\w$]*)/.exec(c.event)?.[1] ?? c.event,
        memberArg: c.memberArg,
        minArg: c.minArg,
        actionUrl: c.actionUrl,
      };
    }
    case "wallet_activity": {
      const c = taskConfigSchemas.wallet_activity.parse(t.config);
      return { type: t.type, ...placeOf(c.chainId), minTxCount: c.minTxCount, minAgeDays: c.minAgeDays };
    }
    case "wallet_connected":
      return { type: t.type };
    case "referral":
      return { type: t.type, count: taskConfigSchemas.referral.parse(t.config).count, inviteLink };
    case "x_follow": {
      const { handle, allowProof } = taskConfigSchemas.x_follow.parse(t.config);
      return { type: t.type, handle, profileUrl: profileUrl.x(handle), allowProof };
    }
    case "x_like":
    case "x_repost":
      return { type: t.type, postUrl: taskConfigSchemas[t.type].parse(t.config).postUrl };
    case "x_post":
    case "tiktok_post":
    case "instagram_post":
      return { type: t.type, phrase: taskConfigSchemas[t.type].parse(t.config).phrase };
    case "youtube_subscribe": {
      const { channelId, channelName } = taskConfigSchemas.youtube_subscribe.parse(t.config);
      return { type: t.type, channelId, channelName: channelName ?? null, channelUrl: profileUrl.youtube(channelId) };
    }
    case "tiktok_follow":
    case "instagram_follow": {
      const { handle } = taskConfigSchemas[t.type].parse(t.config);
      return { type: t.type, handle, profileUrl: profileUrl[t.type === "tiktok_follow" ? "tiktok" : "instagram"](handle) };
    }
    case "api_check":
      return { type: t.type, instructions: taskConfigSchemas.api_check.parse(t.config).instructions };
    case "discord_join": {
      const { guildName, inviteUrl } = taskConfigSchemas.discord_join.parse(t.config);
      return { type: t.type, guildName, inviteUrl };
    }
    case "discord_role": {
      const { guildName, roleName, inviteUrl } = taskConfigSchemas.discord_role.parse(t.config);
      return { type: t.type, guildName, roleName, inviteUrl };
    }
    case "telegram_join": {
      const { chatTitle, inviteUrl } = taskConfigSchemas.telegram_join.parse(t.config);
      return { type: t.type, chatTitle, inviteUrl };
    }
  }
}

/**
 * Everything the task page shows around the task: its campaign, crusade or airdrop, the member's
 * state (with what a provider's API found, for a social task), what stops the member from doing it
 * now (the same rules `attemptTask` applies) and, for a social task, what their connection allows.
 */
export async function taskContext({
  db,
  task: t,
  userId,
  social,
  now = new Date(),
}: {
  db: Db;
  task: Task;
  userId: string | null;
  /** The configured social providers; without them a social task's provider counts as not set up. */
  social?: SocialConfig;
  now?: Date;
}) {
  const [c] = t.campaignId ? await db.select().from(campaign).where(eq(campaign.id, t.campaignId)) : [];
  const [cr] = t.crusadeId ? await db.select({ slug: crusade.slug, name: crusade.name }).from(crusade).where(eq(crusade.id, t.crusadeId)) : [];
  const [a] = t.airdropId ? await db.select().from(airdrop).where(eq(airdrop.id, t.airdropId)) : [];
  const state = (await memberStates({ db, userId, tasks: [t], now })).get(t.id) ?? null;
  const status = c ? campaignStatus(c, now) : null;
  const airdropStatus = a ? campaignStatus(a, now) : null;

  return {
    campaign: c && status ? { slug: c.slug, name: c.name, status } : null,
    crusade: cr ?? null,
    airdrop: a && airdropStatus ? { slug: a.slug, name: a.name, status: airdropStatus } : null,
    state,
    found: state?.status === "approved" && userId ? await foundEvidence(db, t, userId, now) : null,
    onchain: isOnchainChecked(t.type) ? await onchainState(db, t, userId, state, now) : null,
    social: await socialTaskAccess({ db, social, task: t, userId }),
    block: await taskBlock({ db, task: t, campaignStatus: status, airdropStatus, state, userId, socialProviders: social?.connectable ?? {}, now }),
  };
}

/** What a provider's API found for the member's approved completion of an API-checked task (the post, the follow), or null. */
async function foundEvidence(db: Db, t: Task, userId: string, now: Date): Promise<FoundEvidence | null> {
  if (!isApiChecked(t.type)) return null;
  const [row] = await db
    .select({ evidence: completion.evidence, verifiedBy: completion.verifiedBy })
    .from(completion)
    .where(and(eq(completion.taskId, t.id), eq(completion.userId, userId), eq(completion.period, periodOf(t.recurrence, now))));
  const evidence = row?.verifiedBy === "api" ? (row.evidence as FoundEvidence | null) : null;
  if (!evidence || typeof evidence.id !== "string") return null;
  // Only a web link is shown as one.
  const url = typeof evidence.url === "string" && /^https:\/\//.test(evidence.url) ? evidence.url : undefined;
  return { id: evidence.id, ...(typeof evidence.at === "string" ? { at: evidence.at } : {}), ...(url ? { url } : {}) };
}

/**
 * An on-chain task's side of the page: how many wallets the member has linked (none: they are told
 * to link one first) and, once approved, what the chain showed (`completion.evidence`).
 */
async function onchainState(db: Db, t: Task, userId: string | null, state: MemberState, now: Date): Promise<OnchainState> {
  if (!userId) return { linkedWallets: 0, evidence: null };
  const [[wallets], [row]] = await Promise.all([
    db.select({ n: count() }).from(walletAddress).where(eq(walletAddress.userId, userId)),
    state?.status === "approved"
      ? db
          .select({ evidence: completion.evidence })
          .from(completion)
          .where(and(eq(completion.taskId, t.id), eq(completion.userId, userId), eq(completion.period, periodOf(t.recurrence, now))))
      : [],
  ]);
  const evidence = chainEvidenceOf(row?.evidence);
  return {
    linkedWallets: wallets?.n ?? 0,
    evidence: evidence && {
      kind: ({ contract_call: "transaction", event_emitted: "event", wallet_activity: "history" } as const)[t.type as string] ?? "holding",
      network: networkName(evidence.chainId),
      explorer: CHAIN_DETAILS[evidence.chainId]?.explorer ?? null,
      blockNumber: evidence.blockNumber,
      txHash: evidence.txHash ?? null,
      wallet: evidence.wallet,
    },
  };
}

/**
 * What stops the member from doing the task now, or null: the rules `attemptTask` applies, for
 * the task page and the campaign page's task list to say before the member tries.
 */
export async function taskBlock({
  db,
  task: t,
  campaignStatus: status,
  airdropStatus = null,
  state,
  userId,
  socialProviders,
  now = new Date(),
}: {
  db: Db;
  task: Task;
  /** The status of the task's campaign, null when it has none. */
  campaignStatus: CampaignStatus | null;
  /** The status of the task's airdrop (its window, as a campaign's), null when it has none. */
  airdropStatus?: CampaignStatus | null;
  state: MemberState;
  userId: string | null;
  /** The social providers configured on this server (`env.social.providers`); left out, social tasks are not blocked for it. */
  socialProviders?: SocialConfig["connectable"];
  now?: Date;
}): Promise<TaskBlock | null> {
  if (!t.publishedAt) return { kind: "draft" };
  if (t.startsAt && now < t.startsAt) return { kind: "scheduled", at: t.startsAt };
  if (t.endsAt && now >= t.endsAt) return { kind: "ended" };
  if (status && status !== "live") return { kind: "campaign", status };
  if (airdropStatus && airdropStatus !== "live") return { kind: "airdrop", status: airdropStatus };
  const provider = isApiChecked(t.type) ? socialProviderOf(t.type) : null;
  if (provider && socialProviders && !socialProviders[provider]) return { kind: "not_set_up", provider };
  if (t.cap !== null && t.slotsTaken >= t.cap && (!state || state.status === "rejected")) return { kind: "full" };
  if (userId && t.crusadeId && t.crusadePosition && t.crusadePosition > 1) {
    const steps = await crusadeSteps({ db, crusadeId: t.crusadeId, userId });
    // The nearest earlier step (positions may have gaps when tasks moved to another crusade).
    const previous = steps.filter((s) => s.task.crusadePosition! < t.crusadePosition!).at(-1);
    if (previous && previous.state !== "done") return { kind: "locked", previous: { id: previous.task.id, title: previous.task.title } };
  }
  return null;
}

/**
 * What stops the member from doing each step of a crusade that is theirs to do next (dates,
 * places, the step's campaign): the crusade page shows it instead of Start. Locked steps are
 * already locked by order.
 */
export async function crusadeStepBlocks({
  db,
  steps,
  userId,
  socialProviders,
  now = new Date(),
}: {
  db: Db;
  steps: { task: Task; state: "done" | "available" | "locked" }[];
  userId: string | null;
  /** The social providers configured on this server (see taskBlock). */
  socialProviders?: SocialConfig["connectable"];
  now?: Date;
}) {
  const blocks = new Map<string, TaskBlock>();
  const open = steps.filter((s) => s.state === "available");
  const campaignIds = [...new Set(open.map((s) => s.task.campaignId).filter((id): id is string => id !== null))];
  const campaigns = campaignIds.length ? await db.select().from(campaign).where(inArray(campaign.id, campaignIds)) : [];
  const statuses = new Map(campaigns.map((c) => [c.id, campaignStatus(c, now)]));
  const states = await memberStates({ db, userId, tasks: open.map((s) => s.task), now });
  for (const { task: t } of open) {
    const status = t.campaignId ? (statuses.get(t.campaignId) ?? null) : null;
    const block = await taskBlock({ db, task: t, campaignStatus: status, state: states.get(t.id) ?? null, userId, socialProviders, now });
    if (block && block.kind !== "draft") blocks.set(t.id, block);
  }
  return blocks;
}
