import { and, eq } from "drizzle-orm";
import { getAddress, type Address, type Hex } from "viem";
import { airdropClaim, airdropRound, type AirdropRoundStep } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { airdropClaimOf } from "./freeze.server";

/** An airdrop's round as its page shows it (amounts as decimal strings: loader data is JSON). */
export type RoundView = {
  step: AirdropRoundStep;
  chainId: number;
  distributor: Address;
  roundId: number | null;
  total: string;
  /** When claims close, as the contract holds it. */
  deadline: string;
  openTxHash: string | null;
  swept: string | null;
  sweepTxHash: string | null;
  /** Why the last step did not go through, in words (it is tried again). */
  failure: string | null;
};

export async function roundView({ db, airdropId }: { db: Db; airdropId: string }): Promise<RoundView | null> {
  const [row] = await db.select().from(airdropRound).where(eq(airdropRound.airdropId, airdropId));
  if (!row) return null;
  return {
    step: row.step,
    chainId: row.chainId,
    distributor: getAddress(row.distributor),
    roundId: row.roundId,
    total: row.total.toString(),
    deadline: new Date(row.deadline * 1000).toISOString(),
    openTxHash: row.openTxHash,
    swept: row.swept === null ? null : row.swept.toString(),
    sweepTxHash: row.sweepTxHash,
    failure: row.failure,
  };
}

/** Whether the chain's clock has passed the round's deadline (the contract decides claims and sweeps by it); null when the node does not answer. */
export async function claimsClosedOnChain({ chains, round }: { chains: Pick<ChainRegistry, "get">; round: RoundView }): Promise<boolean | null> {
  const chain = chains.get(round.chainId);
  if (!chain) return null;
  try {
    const block = await chain.client.getBlock();
    return Number(block.timestamp) * 1000 >= new Date(round.deadline).getTime();
  } catch {
    return null;
  }
}

/** The member's claim as recorded from the chain's `Claimed` event, if any. */
export async function claimRecord({ db, airdropId, leaf }: { db: Db; airdropId: string; leaf: number }) {
  const [row] = await db
    .select({ txHash: airdropClaim.txHash, amount: airdropClaim.amount, claimedAt: airdropClaim.claimedAt })
    .from(airdropClaim)
    .where(and(eq(airdropClaim.airdropId, airdropId), eq(airdropClaim.leaf, leaf)));
  return row ?? null;
}

/** What the Claim button needs: only for an open round, a member with a leaf, not claimed yet. */
export async function claimableShareOf({ db, airdropId, userId, round }: { db: Db; airdropId: string; userId: string; round: RoundView | null }) {
  if (!round || round.step !== "open" || round.roundId === null) return null;
  const share = await airdropClaimOf({ db, airdropId, userId });
  if (!share || share.leaf === null || !share.account || !share.proof) return null;
  if (await claimRecord({ db, airdropId, leaf: share.leaf })) return null;
  return {
    chainId: round.chainId,
    distributor: round.distributor,
    roundId: round.roundId,
    leaf: share.leaf,
    account: share.account,
    amount: share.amount.toString(),
    proof: share.proof as Hex[],
  };
}
