import type { Distribution, RewardKind } from "./pool-types";

/** The member's Rewards list by status (`?status=`). */
export const REWARD_FILTERS = ["all", "won", "pending", "not_won"] as const;
export type RewardFilter = (typeof REWARD_FILTERS)[number];

/**
 * One of a member's rewards across projects (memberRewards):
 * - `won`: a grant, paid (XP awarded, or tokens credited to their balance by a ledger entry);
 * - `not_won`: a drawn raffle they entered without winning (its draw can be verified);
 * - `pending`: a pool of a campaign not paid yet that they are in the running for — they
 *   completed every task (first completers, raffle, everyone) or hold a paid rank (leaderboard);
 *   never a pool of a project whose team they are in (nobody pays themselves).
 */
export type MemberReward = {
  poolId: string;
  status: "won" | "not_won" | "pending";
  kind: RewardKind;
  asset: string | null;
  distribution: Distribution;
  winners: number | null;
  /** `ranking` pools: the amount by rank (decimal strings). */
  rankAmounts: string[] | null;
  /** The pool's own amount: per winner (`fcfs`, `raffle`) or the total to split (`everyone`); null for `ranking`. */
  poolAmount: bigint | null;
  /** `pending` everyone pools: the members who completed every task so far, who share the pool. */
  entrants: number | null;
  /** What they got (won), or null. */
  amount: bigint | null;
  position: number | null;
  /** The ledger entry that paid a token grant. */
  entryId: number | null;
  /** When it was paid (won, not won) or when the campaign ends (pending). */
  at: Date;
  /** `pending` leaderboard pools: the member's rank now, as the payout counts it. */
  rank: number | null;
  /** A raffle with a published commitment: its draw can be checked. */
  verifiable: boolean;
  campaign: { slug: string; name: string };
  project: { slug: string; name: string };
};

/** A member's reward as its page gets it: with its asset's `decimals` (the registry's), in which its amounts are shown. */
export type ShownReward = MemberReward & { decimals: number };
