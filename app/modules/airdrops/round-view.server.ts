import { and, eq } from "drizzle-orm";
import { getAddress, type Address, type Hex } from "viem";
import { airdropClaim, airdropRound, type AirdropRoundStep } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import { failure, ok, type CodedFailure, type Ok } from "~/lib/result";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { assetParts, type Asset } from "~/modules/ledger/assets";
import { NATIVE_SYMBOLS } from "~/wallet/chains";
import { airdropClaimOf } from "./freeze.server";
import { requestSweep } from "./round.server";

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
    const block = await chain.pageClient.getBlock();
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

/**
 * An owner's or admin's Sweep (the caller has checked `rewards.manage`): refused while the chain's
 * clock has not passed the round's deadline, when the round is not open, or when the node does
 * not answer; the job sends the sweep.
 */
export async function sweepRound({
  db,
  chains,
  airdropId,
  actorId,
  now = new Date(),
}: {
  db: Db;
  chains: Pick<ChainRegistry, "get">;
  airdropId: string;
  actorId: string;
  now?: Date;
}): Promise<Ok | CodedFailure> {
  const round = await roundView({ db, airdropId });
  if (!round) return failure("conflict", "This airdrop has no round on chain to sweep.");
  let chainTime: bigint;
  try {
    const client = chains.get(round.chainId)?.pageClient;
    if (!client) return failure("unavailable", "This server does not reach the airdrop's network, so nothing was swept.");
    chainTime = (await client.getBlock()).timestamp;
  } catch {
    return failure("unavailable", "The chain node did not answer, so nothing was swept. Try again in a moment.");
  }
  const asked = await requestSweep({ db, airdropId, actorId, chainTime, now });
  if (asked.ok) return ok();
  return asked.reason === "still_open"
    ? failure("conflict", "Claims are still open on chain: the rest can be swept once they close.")
    : failure("conflict", "This round is not open: it was swept already, or it is still being opened.");
}

/** The Claim buttons of the member's claimable airdrops (a few at most: one proof lookup each). */
export async function claimableShares({ db, userId, airdrops }: { db: Db; userId: string; airdrops: { id: string; asset: string }[] }) {
  const shares = await Promise.all(
    airdrops.map(async (a) => {
      const share = await claimableShareOf({ db, airdropId: a.id, userId, round: await roundView({ db, airdropId: a.id }) });
      const { symbol, chainId } = assetParts(a.asset as Asset);
      return share ? { ...share, airdropId: a.id, symbol, coin: NATIVE_SYMBOLS[chainId] ?? "ETH" } : null;
    }),
  );
  return shares.filter((share) => share !== null);
}
