import { and, asc, eq, inArray, isNotNull, or } from "drizzle-orm";
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
 * seed stay null until the pool is drawn (`distributing`, then `paid`), whatever the pool row holds.
 * Entrants are listed by their id in this pool (entrant-ids.server.ts), never by member id.
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
  /** The viewer's entrant id in the proof, when they are an entrant. */
  yours: string | null;
};

/** How an entrant is named in a public entrant list: the name public boards show, or the start of their entrant id for members who hide from them. */
export function entrantLabel(entrant: { id: string; visible: boolean; names: (string | null)[] }): string {
  const name = entrant.visible ? entrant.names.map((n) => n?.trim()).find((n) => n && !n.includes("@")) : undefined;
  return name ?? `Member ${entrant.id.slice(0, 4)}…`;
}

/** Pools whose draw is done: their proof is complete, and public for good. */
const DRAWN: PoolStatus[] = ["distributing", "paid"];

/**
 * The proof of a raffle pool that has a commitment and whose campaign is published, or that was
 * drawn (whatever its campaign became since); null for any other pool id (unknown, not a raffle, a
 * legacy raffle drawn without a commitment, an undrawn raffle of a draft campaign). `viewerId`:
 * the signed-in member, told their entrant id.
 */
export async function raffleProofOf({ db, poolId, viewerId = null }: { db: Db; poolId: string; viewerId?: string | null }): Promise<RaffleProofView | null> {
  const [row] = await db
    .select({
      pool: rewardPool,
      campaign: { slug: campaign.slug, name: campaign.name, endsAt: campaign.endsAt },
      project: { slug: project.slug, name: project.name },
    })
    .from(rewardPool)
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .innerJoin(project, eq(project.id, campaign.projectId))
    .where(
      and(
        eq(rewardPool.id, poolId),
        eq(rewardPool.distribution, "raffle"),
        isNotNull(rewardPool.commitment),
        or(isNotNull(campaign.publishedAt), inArray(rewardPool.status, DRAWN)),
      ),
    );
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
    yours: null,
  };
  if (pool.entrantsHash === null || pool.drawChainId === null || pool.drawBlock === null) return { ...view, proof: null };

  const drawn = DRAWN.includes(pool.status);
  const [entrants, winners] = await Promise.all([
    db
      .select({
        userId: raffleEntrant.userId,
        entrantId: raffleEntrant.entrantId,
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
    drawn ? db.select({ userId: rewardGrant.userId }).from(rewardGrant).where(eq(rewardGrant.poolId, pool.id)).orderBy(asc(rewardGrant.position)) : [],
  ]);
  // A raffle frozen before entrants had ids of their own lists (and was drawn on) member ids.
  const idOf = new Map(entrants.map((e) => [e.userId, e.entrantId ?? e.userId]));
  const proof: RaffleProof = {
    poolId: pool.id,
    winnersWanted: pool.winners!,
    commitment: pool.commitment as Hex,
    secret: drawn ? (pool.secret as Hex | null) : null,
    entrants: entrants.map((e) => {
      const id = idOf.get(e.userId)!;
      // A deleted member (no user row) keeps their place in the list, under their short id.
      return { id, label: entrantLabel({ id, visible: e.name !== null && (e.visible ?? true), names: [e.displayName, e.name, e.username] }) };
    }),
    entrantsHash: pool.entrantsHash as Hex,
    chainId: pool.drawChainId,
    blockNumber: String(pool.drawBlock),
    blockHash: drawn ? (pool.drawBlockHash as Hex | null) : null,
    seed: drawn ? (pool.seed as Hex | null) : null,
    winners: winners.map((w) => idOf.get(w.userId)!),
  };
  return { ...view, proof, yours: viewerId === null ? null : (idOf.get(viewerId) ?? null) };
}
