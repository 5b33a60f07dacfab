import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Hex } from "viem";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { campaign } from "#db/schema/quests";
import { raffleEntrant, rewardGrant, rewardPool } from "#db/schema/rewards";
import { leaderboardPreference } from "#db/schema/xp";
import type { Db } from "~/lib/db.server";
import type { PoolStatus, RewardKind } from "./pool-types";
import type { RaffleProof } from "./raffle-proof";

/**
 * What the public "Verify this draw" page and /rewards/raffles/<poolId>/proof.json show of a
 * raffle: its proof (raffle-proof.ts) and where it belongs. The secret, the block hash and the
 * seed stay null until the pool is paid, whatever the pool row holds.
 */
export type RaffleProofView = {
  status: PoolStatus;
  /**
   * The proof as published; null while the pool is `open`: its entrants are frozen, and its draw
   * block named, when the campaign ends. Only the commitment (in `pool`) is fixed before then.
   */
  proof: RaffleProof | null;
  pool: {
    id: string;
    commitment: Hex;
    chainId: number | null;
    winnersWanted: number;
    kind: RewardKind;
    asset: string | null;
    /** Per winner: XP, or token base units (decimal). */
    amount: string;
    paidAt: Date | null;
  };
  campaign: { slug: string; name: string; endsAt: Date };
  project: { slug: string; name: string };
};

/** How a member is named in a public entrant list: the name public boards show, or a short id for members who hide from them. */
export function entrantLabel(entrant: { userId: string; visible: boolean; names: (string | null)[] }): string {
  const name = entrant.visible ? entrant.names.map((n) => n?.trim()).find((n) => n && !n.includes("@")) : undefined;
  return name ?? `Member ${entrant.userId.slice(0, 4)}…`;
}

/**
 * The proof of a raffle pool that has a commitment and whose campaign is published; null for
 * any other pool id (unknown, not a raffle, a legacy raffle drawn without a commitment, a draft
 * campaign's).
 */
export async function raffleProofOf({ db, poolId }: { db: Db; poolId: string }): Promise<RaffleProofView | null> {
  const [row] = await db
    .select({
      pool: rewardPool,
      campaign: { slug: campaign.slug, name: campaign.name, endsAt: campaign.endsAt },
      project: { slug: project.slug, name: project.name },
    })
    .from(rewardPool)
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .innerJoin(project, eq(project.id, campaign.projectId))
    .where(and(eq(rewardPool.id, poolId), eq(rewardPool.distribution, "raffle"), isNotNull(rewardPool.commitment), isNotNull(campaign.publishedAt)));
  if (!row) return null;
  const { pool } = row;
  const view = {
    status: pool.status,
    pool: {
      id: pool.id,
      commitment: pool.commitment as Hex,
      chainId: pool.drawChainId,
      winnersWanted: pool.winners!,
      kind: pool.kind,
      asset: pool.asset,
      amount: String(pool.amount ?? 0n),
      paidAt: pool.paidAt,
    },
    campaign: row.campaign,
    project: row.project,
  };
  if (pool.entrantsHash === null || pool.drawChainId === null || pool.drawBlock === null) return { ...view, proof: null };

  const paid = pool.status === "paid";
  const [entrants, winners] = await Promise.all([
    db
      .select({
        userId: raffleEntrant.userId,
        visible: leaderboardPreference.visible,
        displayName: leaderboardPreference.displayName,
        name: user.name,
        username: user.username,
      })
      .from(raffleEntrant)
      .leftJoin(user, eq(user.id, raffleEntrant.userId))
      .leftJoin(leaderboardPreference, eq(leaderboardPreference.userId, raffleEntrant.userId))
      .where(eq(raffleEntrant.poolId, pool.id))
      .orderBy(asc(raffleEntrant.position)),
    paid ? db.select({ userId: rewardGrant.userId }).from(rewardGrant).where(eq(rewardGrant.poolId, pool.id)).orderBy(asc(rewardGrant.position)) : [],
  ]);
  const proof: RaffleProof = {
    poolId: pool.id,
    winnersWanted: pool.winners!,
    commitment: pool.commitment as Hex,
    secret: paid ? (pool.secret as Hex | null) : null,
    entrants: entrants.map((e) => ({
      id: e.userId,
      // A deleted member (no user row) keeps their place in the list, under their short id.
      label: entrantLabel({ userId: e.userId, visible: e.name !== null && (e.visible ?? true), names: [e.displayName, e.name, e.username] }),
    })),
    entrantsHash: pool.entrantsHash as Hex,
    chainId: pool.drawChainId,
    blockNumber: String(pool.drawBlock),
    blockHash: paid ? (pool.drawBlockHash as Hex | null) : null,
    seed: paid ? (pool.seed as Hex | null) : null,
    winners: winners.map((w) => w.userId),
  };
  return { ...view, proof };
}
