import type { Db } from "~/lib/db.server";
import { processAirdropRounds } from "~/modules/airdrops/round.server";
import { followOperatorOutbox, type OutboxChain } from "~/modules/chain/operator-outbox.server";
import { processWithdrawals } from "~/modules/withdrawals/withdrawal-job.server";

/**
 * A run of a job that signs as the job engine has it, for tests that call the job directly: each
 * chain's outbox follower job (`followOperatorOutbox`, its own queue in production) runs first,
 * then the feature's job, which settles from what the follower recorded.
 */

type FollowOptions = { db: Db; chains: Map<number, OutboxChain>; now?: Date; onError?: (key: string, error: unknown) => void };

/** Every chain's outbox follower, one run each (what the `operator-outbox` queue runs per chain). */
export async function followOutboxes({ db, chains, now, onError }: FollowOptions) {
  for (const [chainId, chain] of chains) await followOperatorOutbox({ db, chainId, chain, now, onError });
}

/** The outbox followers, then one run of the withdrawal job. */
export async function followedWithdrawals(options: Parameters<typeof processWithdrawals>[0]) {
  await followOutboxes(options);
  return processWithdrawals(options);
}

/** The outbox followers, then one run of the airdrop round job. */
export async function followedRounds(options: Parameters<typeof processAirdropRounds>[0]) {
  await followOutboxes(options);
  return processAirdropRounds(options);
}
