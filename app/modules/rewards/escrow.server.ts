import { eq } from "drizzle-orm";
import { rewardPool } from "#db/schema/rewards";
import type { Db } from "~/lib/db.server";
import { assetAmount, assetParts, QUEST_DECIMALS, type Asset } from "~/modules/ledger/assets";
import { ledgerKey } from "~/modules/ledger/keys";
import { accountBalance, poolEscrow, projectTreasury, rebalanceEscrow } from "~/modules/ledger/ledger.server";
import type { RewardPool } from "./reward-pools.server";

/** Why a token pool cannot take more from the treasury, with what the treasury holds, in the asset's `decimals` (QUEST's 18 unless given). */
export async function treasuryShortBy({
  db,
  projectId,
  asset,
  needed,
  decimals = QUEST_DECIMALS,
}: {
  db: Db;
  projectId: string;
  asset: Asset;
  needed: bigint;
  decimals?: number;
}) {
  const held = await accountBalance({ db, account: projectTreasury(projectId), asset });
  return held === 0n
    ? `The project's treasury holds no ${assetParts(asset).symbol}: fund it on the project's Rewards page first.`
    : `The project's treasury holds ${assetAmount(held, asset, decimals)}, not the ${assetAmount(needed, asset, decimals)} this needs: fund it on the project's Rewards page first.`;
}

/**
 * Brings a token pool's escrow to `target`: the difference moves between the project's treasury
 * and the pool's escrow in one posting. `pool` must be the row as locked by the caller's
 * transaction (`for update`): moves are numbered from its `escrowMoves`, which keys the posting,
 * so the same move is never posted twice. Throws `InsufficientFunds` when the treasury is short.
 */
export async function setEscrow(tx: Db, { pool, projectId, target, now }: { pool: RewardPool; projectId: string; target: bigint; now: Date }) {
  if (pool.kind !== "token" || !pool.asset) return;
  const moveNumber = pool.escrowMoves + 1;
  const moved = await rebalanceEscrow({
    db: tx,
    key: ledgerKey.poolEscrow(pool.id, moveNumber),
    kind: { in: "reward_escrow", out: "reward_escrow_return" },
    reference: pool.id,
    asset: pool.asset as Asset,
    treasury: projectTreasury(projectId),
    escrow: poolEscrow(pool.id),
    current: pool.escrowed,
    target,
  });
  if (moved) await tx.update(rewardPool).set({ escrowed: target, escrowMoves: moveNumber, updatedAt: now }).where(eq(rewardPool.id, pool.id));
}
