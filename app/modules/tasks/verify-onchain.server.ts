import type { Db } from "~/lib/db.server";
import { failure, type Failure } from "~/lib/result";
import type { AttemptInput, OnchainChains, Task, Verified } from "./completions.server";

/**
 * The checks of the on-chain tasks read when the member asks (issue #37): `hold_token` (at its
 * snapshot block when it names one), `nft_hold`, `wallet_activity` and `contract_call` (a pasted
 * hash, or "Find my transaction" over the chain's recent blocks). Each reads the task's chain through
 * `chains.get(chainId).pageClient` (app/modules/chain/onchain-reads.server.ts) and:
 *  - approves with `evidence` (ChainEvidence: chain, block, hash, log index, the measured values)
 *    and, for a transaction, `claim` (the hash, refused by the attempt when the task counted it already);
 *  - refuses in words what the chain shows is not done: `failure("not_met", …)` ("None of your
 *    linked wallets holds 1 Questline Explorer"), or `invalid("txHash", …)` for a hash that does not
 *    fit (another contract, a failed receipt, a wallet not linked, outside the window, used already);
 *  - answers a node that cannot be reached with `failure("unavailable", "The chain could not be
 *    reached. Try again in a minute.")`: nothing is recorded, never a wrong "not done";
 *  - counts a transaction only from the chain's confirmation depth (`confirmations` on the chain):
 *    below it, "not_met" with how many confirmations it has of how many.
 * The window is `taskWindow(db, task)` (the task's dates, else its campaign's or airdrop's).
 */
export async function verifyOnchain(args: {
  db: Db;
  task: Task;
  userId: string;
  input: AttemptInput;
  now: Date;
  chains: OnchainChains | undefined;
}): Promise<Verified | Failure> {
  void args;
  return failure("unavailable", "This task's check is not built yet.");
}
