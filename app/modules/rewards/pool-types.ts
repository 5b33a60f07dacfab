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
 * block); `distributing` once its grants are written (a raffle's drawn), while they are paid a
 * batch at a time; `paid` once every grant is paid.
 */
export const POOL_STATUSES = ["open", "frozen", "distributing", "paid"] as const;
export type PoolStatus = (typeof POOL_STATUSES)[number];

/** What a pool looks like on the project's Rewards page. */
export type PoolState = "draft" | "funded" | "live" | "drawing" | "paying" | "paid";

export const DISTRIBUTION_LABELS: Record<Distribution, { title: string; description: string }> = {
  fcfs: { title: "First completers", description: "The first members to complete every task, in the order they finished." },
  raffle: { title: "Raffle", description: "Winners drawn at random among everyone who completed every task." },
  ranking: { title: "Leaderboard", description: "The top of the campaign's leaderboard, with an amount by rank." },
  everyone: { title: "Everyone", description: "A total split equally among everyone who completed every task." },
};
