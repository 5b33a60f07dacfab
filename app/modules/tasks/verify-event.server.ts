import type { Db } from "~/lib/db.server";
import { failure, type Failure } from "~/lib/result";
import type { OnchainChains, Task, Verified } from "./completions.server";

/**
 * The check of an `event_emitted` task (issue #37): the events the scanner stored for the task
 * (`onchain_event_match`), after bringing the task's cursor up to the chain's confirmed head, whose
 * member argument is one of the member's linked wallets, inside the task's window, with the minimum
 * of its numeric argument. Approves with the event's ChainEvidence (chain, block, hash, log index,
 * values); refuses with what is missing; a node that cannot be reached is "unavailable".
 */
export async function verifyEvent(args: { db: Db; task: Task; userId: string; now: Date; chains: OnchainChains | undefined }): Promise<Verified | Failure> {
  void args;
  return failure("unavailable", "This task's check is not built yet.");
}
