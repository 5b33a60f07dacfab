import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { BaseError, isAddress } from "viem";
import { walletAddress } from "#db/schema/wallets";
import { walletProfile } from "#db/schema/trust";
import type { Db } from "~/lib/db.server";
import type { RegisteredChain } from "~/modules/chain/chain-registry.server";
import { nodeWords, readFunding, type WalletFunding } from "~/modules/chain/funding-reads.server";

export type WalletSignalsRun = { profiled: number; unknown: number };

/** A wallet's profile is read again after this long. */
export const PROFILE_MAX_AGE_MS = 7 * 86_400_000;
/** Wallets profiled in one run by default (the per-chain job's batch). */
export const PROFILE_BATCH = 50;
/** Wallets read from the node at once. */
const PARALLEL_READS = 4;

type ProfileRow = typeof walletProfile.$inferInsert;

/**
 * Reads, through the chain's node, who first funded each linked wallet on `chain`, where it swept
 * its coin, its first activity and transactions sent, into `wallet_profile`: the wallets with no
 * profile on this chain yet or one older than PROFILE_MAX_AGE_MS (or only `addresses`, when given),
 * the oldest first, at most `limit` per run. A wallet linked on any chain is an EVM address and is
 * profiled on every chain passed in. Addresses in `wallet_profile` (its own, the funder, the sweep
 * target) are lower-case, as `sharedFunders` are; a shared funder is recorded as any other funder
 * (the scoring ignores it). A node that keeps no old state, or answers with an error, leaves the
 * profile `unknown` with the reason in words (never suspicious); a node that does not answer
 * (ChainUnreachable) ends the run there, the wallets read before it kept.
 */
export async function profileWallets({
  db,
  chain,
  limit = PROFILE_BATCH,
  addresses,
  now = new Date(),
}: {
  db: Db;
  chain: RegisteredChain;
  /** Lower-case addresses that fund everyone: recorded like any funder; the scoring ignores them. */
  sharedFunders: ReadonlySet<string>;
  limit?: number;
  addresses?: readonly string[];
  now?: Date;
}): Promise<WalletSignalsRun> {
  const due = await walletsDue({ db, chainId: chain.id, limit, addresses, now });
  const run: WalletSignalsRun = { profiled: 0, unknown: 0 };
  // The first failure (the node not answering, or a fault of ours) stops every reader; it is thrown once they stopped.
  let failed: { error: unknown } | null = null;
  const queue = [...due];
  const reader = async () => {
    for (let address = queue.shift(); address !== undefined && !failed; address = queue.shift()) {
      try {
        const row = await profileOf({ chain, address, now });
        await db
          .insert(walletProfile)
          .values(row)
          .onConflictDoUpdate({ target: [walletProfile.address, walletProfile.chainId], set: row });
        run.profiled++;
        if (row.status === "unknown") run.unknown++;
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, due.length) }, reader));
  if (failed) throw (failed as { error: unknown }).error;
  return run;
}

/** Lower-case linked addresses with no profile on the chain or a stale one, the never-profiled first. */
async function walletsDue({
  db,
  chainId,
  limit,
  addresses,
  now,
}: {
  db: Db;
  chainId: number;
  limit: number;
  addresses?: readonly string[];
  now: Date;
}): Promise<string[]> {
  if (addresses?.length === 0) return [];
  const lowered = sql<string>`lower(${walletAddress.address})`;
  const rows = await db
    .selectDistinct({ address: lowered, checkedAt: walletProfile.checkedAt })
    .from(walletAddress)
    .leftJoin(walletProfile, and(eq(walletProfile.address, lowered), eq(walletProfile.chainId, chainId)))
    .where(
      and(
        or(isNull(walletProfile.address), lt(walletProfile.checkedAt, new Date(now.getTime() - PROFILE_MAX_AGE_MS))),
        addresses
          ? inArray(
              lowered,
              addresses.map((a) => a.toLowerCase()),
            )
          : undefined,
      ),
    )
    .orderBy(sql`${walletProfile.checkedAt} asc nulls first`, asc(lowered))
    .limit(limit);
  return rows.map((row) => row.address).filter((address) => isAddress(address, { strict: false }));
}

/** One wallet's profile row from the node's answers; throws ChainUnreachable when the node did not answer. */
async function profileOf({ chain, address, now }: { chain: RegisteredChain; address: string; now: Date }): Promise<ProfileRow> {
  const base = { address, chainId: chain.id, checkedAt: now };
  let funding: WalletFunding;
  try {
    funding = await readFunding({ client: chain.client, address: address as `0x${string}` });
  } catch (error) {
    // An answer the reads do not expect (a method the node lacks, a malformed block): unknown, in its words.
    if (error instanceof BaseError)
      return { ...empty(base), status: "unknown", unknownReason: `The node on ${chain.name} could not answer: ${nodeWords(error)}` };
    throw error;
  }
  if (funding.status === "historical_unavailable") return { ...empty(base), status: "unknown", unknownReason: funding.reason, txCount: funding.txCount };
  const funded = funding.funding?.funder ? funding.funding : null;
  return {
    ...base,
    status: "known",
    // A known profile without a funder says why none is named.
    unknownReason: funding.funding && !funding.funding.funder ? funding.funding.reason : null,
    funder: funded?.funder.toLowerCase() ?? null,
    fundingTx: funded?.txHash ?? null,
    fundedBlock: funded ? Number(funded.blockNumber) : null,
    fundedAt: funded?.timestamp ?? null,
    sweptTo: funding.sweep?.to.toLowerCase() ?? null,
    sweepTx: funding.sweep?.txHash ?? null,
    firstActivityAt: funding.firstActivity?.timestamp ?? null,
    txCount: funding.txCount,
  };
}

/** A row whose every signal is cleared (an update must not keep an older read's). */
const empty = (base: Pick<ProfileRow, "address" | "chainId" | "checkedAt">): Omit<ProfileRow, "status"> => ({
  ...base,
  unknownReason: null,
  funder: null,
  fundingTx: null,
  fundedBlock: null,
  fundedAt: null,
  sweptTo: null,
  sweepTx: null,
  firstActivityAt: null,
  txCount: null,
});
