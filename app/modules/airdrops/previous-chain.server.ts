import { and, eq, inArray } from "drizzle-orm";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { airdrop, airdropRound } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import type { VaultChain } from "~/modules/chain/chain-registry.server";
import { genesisOf } from "~/modules/chain/operator-outbox.server";

/**
 * A round belongs to the chain it was made on. The local chain starts afresh with the app while
 * the database may be kept: a round made on the chain before is not on this one (its claims
 * would fail with "no such round"), so it is marked `previous_chain` and offers no Claim. The
 * chain is told by its genesis block's hash, recorded on the round when it is made.
 */

/** The steps of a round that still has something on chain: the ones checked. */
export const LIVE_ROUND_STEPS = ["funding", "approving", "opening", "open", "sweeping"] as const;

export const PREVIOUS_CHAIN =
  "This round was made on an earlier run of this chain, which has been started afresh since: it is not on the chain any more, so its shares cannot be claimed.";

/** A round set aside: its transaction is not followed (the outbox fails it: it is not on this run of the chain). */
const SET_ASIDE = { step: "previous_chain", txHash: null, nonce: null, fromBlock: null, sentAt: null } as const;

type Chain = Pick<VaultChain, "id" | "client" | "contracts">;

/**
 * Marks the live rounds on each chain that were made on an earlier run of it; reads the chain
 * only when it has live rounds. A round from before genesis hashes were recorded is checked on the
 * distributor itself (its round id there holds its root) and then takes the chain's hash.
 */
export async function markRoundsOfPreviousChains({ db, chains, now }: { db: Db; chains: Map<number, Chain>; now: Date }): Promise<number> {
  const live = await db
    .select({ airdropId: airdropRound.airdropId, chainId: airdropRound.chainId, genesisHash: airdropRound.genesisHash, roundId: airdropRound.roundId })
    .from(airdropRound)
    .where(inArray(airdropRound.step, [...LIVE_ROUND_STEPS]));
  let marked = 0;
  for (const [chainId, rounds] of Map.groupBy(live, (round) => round.chainId)) {
    const chain = chains.get(chainId);
    if (!chain) continue;
    const genesis = await genesisOf(chain.client);
    for (const round of rounds) {
      const same = round.genesisHash ? round.genesisHash === genesis : await onChain(db, chain, round);
      if (same && round.genesisHash) continue;
      await db
        .update(airdropRound)
        .set(same ? { genesisHash: genesis } : { ...SET_ASIDE, failure: PREVIOUS_CHAIN, updatedAt: now })
        .where(and(eq(airdropRound.airdropId, round.airdropId), inArray(airdropRound.step, [...LIVE_ROUND_STEPS])));
      if (!same) marked += 1;
    }
  }
  return marked;
}

/** Whether a round with no recorded genesis is on this chain: not opened yet (nothing to compare), or its id there holds its root. */
async function onChain(db: Db, chain: Chain, round: { airdropId: string; roundId: number | null }): Promise<boolean> {
  if (round.roundId === null) return true;
  const [row] = await db.select({ root: airdrop.root }).from(airdrop).where(eq(airdrop.id, round.airdropId));
  try {
    const there = await chain.client.readContract({
      address: chain.contracts.AirdropDistributor,
      abi: airdropDistributorAbi,
      functionName: "round",
      args: [BigInt(round.roundId)],
    });
    return there.merkleRoot.toLowerCase() === row?.root?.toLowerCase();
  } catch (error) {
    // The distributor has no such round (`UnknownRound`), or no distributor is there at all.
    if (/UnknownRound|returned no data|reverted/i.test(error instanceof Error ? error.message : String(error))) return false;
    throw error;
  }
}
