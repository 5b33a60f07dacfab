import { PROVIDER_LABELS, type SocialProvider } from "~/modules/social/providers";
import { CHAIN_NAMES } from "~/wallet/chains";
import type { TaskType } from "./task-types";

/**
 * How each task is checked, in one place for every screen: the social tasks' providers, which of
 * them a provider's API checks, and the plain words cards and pages say. Browser-safe.
 */

/** The social network each social task is about. */
export const SOCIAL_TASK_PROVIDERS = {
  x_follow: "x",
  x_like: "x",
  x_repost: "x",
  x_post: "x",
  youtube_subscribe: "youtube",
  tiktok_post: "tiktok",
  instagram_post: "instagram",
  tiktok_follow: "tiktok",
  instagram_follow: "instagram",
  discord_join: "discord",
  discord_role: "discord",
  telegram_join: "telegram",
} as const satisfies Partial<Record<TaskType, SocialProvider>>;

export type SocialTaskType = keyof typeof SOCIAL_TASK_PROVIDERS;
export const isSocialTask = (type: TaskType): type is SocialTaskType => type in SOCIAL_TASK_PROVIDERS;
export const socialProviderOf = (type: TaskType): SocialProvider | null => (isSocialTask(type) ? SOCIAL_TASK_PROVIDERS[type] : null);

/** Social tasks checked through the provider's API with the member's connected account. */
export const API_CHECKED_TYPES = [
  "x_follow",
  "x_like",
  "x_repost",
  "x_post",
  "youtube_subscribe",
  "tiktok_post",
  "instagram_post",
  "discord_join",
  "discord_role",
  "telegram_join",
] as const;
export type ApiCheckedType = (typeof API_CHECKED_TYPES)[number];
export const isApiChecked = (type: TaskType): type is ApiCheckedType => (API_CHECKED_TYPES as readonly string[]).includes(type);

/** Follows no API can check (TikTok, Instagram): a screenshot or a link, reviewed by the team. */
export const PROOF_ONLY_TYPES = ["tiktok_follow", "instagram_follow"] as const;
export const isProofOnly = (type: TaskType) => (PROOF_ONLY_TYPES as readonly string[]).includes(type);

/** Follows re-checked once before a campaign's rewards are paid (when the task asks for it). */
export const RECHECKED_TYPES = ["x_follow", "youtube_subscribe", "discord_join", "discord_role", "telegram_join"] as const;

/**
 * Tasks checked on a chain through the server's node (issue #37): a holding read at the check (or a
 * snapshot block), a transaction, an event the scanner found, or the wallet's history. `event_emitted`
 * reads what the event scanner stored; the others read the chain when the member asks.
 */
export const ONCHAIN_TASK_TYPES = ["hold_token", "nft_hold", "contract_call", "event_emitted", "wallet_activity"] as const;
export type OnchainTaskType = (typeof ONCHAIN_TASK_TYPES)[number];
export const isOnchainChecked = (type: TaskType): type is OnchainTaskType => (ONCHAIN_TASK_TYPES as readonly string[]).includes(type);

/** Holdings read again before a campaign's rewards are paid or an airdrop freezes (unless read at a snapshot block, or turned off). */
export const HOLDING_TYPES = ["hold_token", "nft_hold"] as const;

/** An on-chain task's network by name, read from its settings where the caller has them (`config.chainId`). */
export function onchainNetworkOf(task: { type: TaskType; config?: unknown }): string | null {
  if (!isOnchainChecked(task.type) || !task.config || typeof task.config !== "object") return null;
  const chainId = (task.config as { chainId?: unknown }).chainId;
  return typeof chainId === "number" ? (CHAIN_NAMES[chainId] ?? `Chain ${chainId}`) : null;
}

/**
 * How a task is checked, as cards and pages say it: "Checked with X", "Checked on Base" (an
 * on-chain task, when its network is known), "Reviewed by the team", "Checked by Questline" (quiz,
 * referrals), "Checked by <project>'s server" (an api_check task), "Done by opening the link" (visits), "Done when sent" (an answer nobody reviews).
 */
export function howChecked({
  type,
  verification,
  network = null,
  projectName = null,
}: {
  type: TaskType;
  verification: "auto" | "review" | "none";
  /** An on-chain task's network, by name. */
  network?: string | null;
  /** The task's project, by name: an api_check task is checked by its server. */
  projectName?: string | null;
}): string {
  if (type === "api_check") return projectName ? `Checked by ${projectName}'s server` : "Checked by the project's server";
  if (verification === "none") return type === "visit_link" ? "Done by opening the link" : "Done when sent";
  if (verification === "review") return "Reviewed by the team";
  if (network && isOnchainChecked(type)) return `Checked on ${network}`;
  const provider = isApiChecked(type) ? socialProviderOf(type) : null;
  return provider ? `Checked with ${PROVIDER_LABELS[provider]}` : "Checked by Questline";
}

/** What the member's connection to a social task's provider allows, for the task page. */
export type SocialTaskAccess =
  | { state: "not_set_up"; provider: SocialProvider }
  | { state: "not_connected"; provider: SocialProvider }
  | { state: "needs_reconnect"; provider: SocialProvider; handle: string; reason: string | null }
  | { state: "connected"; provider: SocialProvider; handle: string }
  /** Reviewed proof needs no connection; signed-out visitors see the sign-in card instead. */
  | { state: "no_connection_needed"; provider: SocialProvider };

/** What an API check found, as the member's completed task shows it. */
export type FoundEvidence = { id: string; at?: string; url?: string; label?: string; recheckedAt?: string };
