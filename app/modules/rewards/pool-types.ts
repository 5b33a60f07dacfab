/**
 * What a reward pool can be: the values of `reward_pool`'s enum columns (db/schema/rewards.ts),
 * here so components can name them.
 */
export const REWARD_KINDS = ["xp", "token"] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];
export const DISTRIBUTIONS = ["fcfs", "raffle", "ranking", "everyone"] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];
/**
 * `open` until the campaign ends; a raffle is then `frozen` (entrants fixed, waiting for its
 * block); `paid` once every grant is written and paid.
 */
export const POOL_STATUSES = ["open", "frozen", "distributing", "paid"] as const;
export type PoolStatus = (typeof POOL_STATUSES)[number];

/** What a pool looks like on the project's Rewards page. */
export type PoolState = "draft" | "funded" | "live" | "drawing" | "paying" | "paid";
