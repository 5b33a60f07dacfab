import type { Db } from "~/lib/db.server";
import type { RegisteredChain } from "~/modules/chain/chain-registry.server";

/** Owned by the chain-signals work: replace this stub. */
export type WalletSignalsRun = { profiled: number; unknown: number };

/**
 * Reads, through the chain's node, who first funded each linked wallet on `chain`, where it swept
 * its coin, its first activity and transactions sent, into `wallet_profile`: the wallets with no
 * profile yet (or only `addresses`, when given), at most `limit` per run.
 */
export async function profileWallets(_: {
  db: Db;
  chain: RegisteredChain;
  sharedFunders: ReadonlySet<string>;
  limit?: number;
  addresses?: readonly string[];
  now?: Date;
}): Promise<WalletSignalsRun> {
  throw new Error("profileWallets is not built yet");
}
