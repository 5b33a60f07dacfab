import type { Db } from "~/lib/db.server";
import { takeRateLimit } from "~/lib/rate-limit.server";
import { failure, type CodedFailure } from "~/lib/result";
import { REWARD_ACTIONS_FLOODED, REWARD_ACTIONS_PER_MINUTE } from "./reward-form";

/**
 * Counts one reward action (save, delete, fund) of a member against their shared limit of
 * REWARD_ACTIONS_PER_MINUTE. The refusal, when over it: answered 429 with Retry-After.
 */
export async function rewardActionRefused({ db, userId }: { db: Db; userId: string }): Promise<CodedFailure | null> {
  const claim = await takeRateLimit({ db, key: `rewards:${userId}`, max: REWARD_ACTIONS_PER_MINUTE, windowSeconds: 60 });
  return claim.ok ? null : failure("limited", REWARD_ACTIONS_FLOODED, claim.retryAfterSeconds);
}
