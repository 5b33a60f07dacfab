import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { getAddress, type Address, type PublicClient } from "viem";
import { z } from "zod";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { airdrop, airdropAllocation, airdropClaim, airdropRound } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import { emitEvents } from "~/modules/events/emit.server";
import type { NewEvent } from "~/modules/events/event-types";
import { scanEvents, type ChunkOutcome } from "~/modules/chain/event-scanner.server";

/**
 * The claim scanner: reads a chain's AirdropDistributor `Claimed` events through the event scanner
 * (subscription `claims`), up to the last block with the chain's confirmations (so a reorg never
 * takes back a recorded claim), and records each once per (chain, transaction, log index) against
 * the airdrop whose round it is. Each chunk is recorded with the cursor's advance in one
 * transaction: a run cut short is finished by the next.
 */

/** The claim scanner's cursor on each chain (`chain_event_cursor.subscription`). */
export const CLAIM_SUBSCRIPTION = "claims";

const claimedLog = z.object({
  transactionHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  logIndex: z.number().int().nonnegative(),
  blockNumber: z.bigint().nonnegative(),
  args: z.object({
    roundId: z.bigint().nonnegative(),
    index: z
      .bigint()
      .nonnegative()
      .max(BigInt(2 ** 31 - 1)),
    account: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    amount: z.bigint().positive(),
  }),
});
type ClaimedLog = z.infer<typeof claimedLog>;

export type ClaimScan = {
  chainId: number;
  client: PublicClient;
  distributor: Address;
  confirmations: number;
  batchSize?: number;
  startBlock?: bigint;
  /** A chain whose head is below the cursor (the local chain started afresh under a kept database) is read again from `startBlock`. */
  rescanIfBehind?: boolean;
};

/** The steps of a round that can take claims: opening (its id not known yet), open, being swept. */
const WATCHED_STEPS = ["opening", "open", "sweeping"] as const;

/**
 * One run over one chain's distributor; returns how many claims it recorded. The chain is not
 * read while none of our rounds on it can take a claim (none opening, open or being swept).
 */
export async function scanClaims(options: ClaimScan & { db: Db }): Promise<number> {
  const { db, chainId, distributor, confirmations } = options;
  if (!(await watching(db, chainId, distributor))) return 0;
  const { results } = await scanEvents({
    ...options,
    subscription: {
      name: CLAIM_SUBSCRIPTION,
      address: distributor,
      abi: airdropDistributorAbi,
      eventName: "Claimed",
      parse: (log) => claimedLog.parse(log),
      // Only blocks with the chain's confirmations: a reorg never takes back a recorded claim.
      lastBlock: (head) => head - BigInt(Math.max(confirmations - 1, 0)),
      record: (tx, logs) => recordClaims(tx, { chainId, distributor, logs }),
    },
  });
  return results.reduce((sum, recorded) => sum + recorded, 0);
}

/**
 * Records one chunk's claims against their rounds' airdrops (a claim already recorded is left as
 * it is); returns how many were new. A claim on a round not recorded yet, while one of ours is
 * opening, stops the run before its block.
 */
async function recordClaims(
  tx: Db,
  { chainId, distributor, logs }: { chainId: number; distributor: Address; logs: ClaimedLog[] },
): Promise<ChunkOutcome<number>> {
  const rounds = await roundsOf(tx, chainId, distributor, [...new Set(logs.map((log) => Number(log.args.roundId)))]);
  // A claim on a round not recorded yet, while one of ours is opening: that round may be it
  // (its opening is recorded once deep enough). Stop before it; the next run reads it again.
  const unknown = logs.find((log) => !rounds.has(Number(log.args.roundId)));
  const stop = unknown && (await openingOn(tx, chainId)) ? unknown.blockNumber : null;
  const rows = logs.flatMap((log) => {
    const airdropId = rounds.get(Number(log.args.roundId));
    if (!airdropId || (stop !== null && log.blockNumber >= stop)) return [];
    return [
      {
        chainId,
        txHash: log.transactionHash.toLowerCase(),
        logIndex: log.logIndex,
        airdropId,
        leaf: Number(log.args.index),
        account: getAddress(log.args.account),
        amount: log.args.amount,
        blockNumber: Number(log.blockNumber),
      },
    ];
  });
  const added = rows.length ? await tx.insert(airdropClaim).values(rows).onConflictDoNothing().returning() : [];
  await emitEvents(tx, await claimedEvents(tx, added));
  return stop === null ? { result: added.length } : { result: added.length, stopBefore: stop };
}

/**
 * An `airdrop.claimed` event per claim just recorded (once per chain, transaction and log, by its
 * key), with the member whose share the leaf is (the allocation's) and the airdrop's project.
 */
async function claimedEvents(tx: Db, claims: (typeof airdropClaim.$inferSelect)[]): Promise<NewEvent<"airdrop.claimed">[]> {
  if (claims.length === 0) return [];
  const airdropIds = [...new Set(claims.map((c) => c.airdropId))];
  const projects = new Map(
    (await tx.select({ id: airdrop.id, projectId: airdrop.projectId }).from(airdrop).where(inArray(airdrop.id, airdropIds))).map((a) => [a.id, a.projectId]),
  );
  const shares = await tx
    .select({ airdropId: airdropAllocation.airdropId, leaf: airdropAllocation.leaf, userId: airdropAllocation.userId })
    .from(airdropAllocation)
    .where(and(inArray(airdropAllocation.airdropId, airdropIds), inArray(airdropAllocation.leaf, [...new Set(claims.map((c) => c.leaf))])));
  const memberOf = new Map(shares.map((s) => [`${s.airdropId}:${s.leaf}`, s.userId]));
  return claims.map((c) => ({
    type: "airdrop.claimed",
    key: `airdrop.claimed:${c.chainId}:${c.txHash}:${c.logIndex}`,
    projectId: projects.get(c.airdropId) ?? null,
    data: {
      airdropId: c.airdropId,
      userId: memberOf.get(`${c.airdropId}:${c.leaf}`) ?? null,
      address: c.account,
      amount: c.amount.toString(),
      txHash: c.txHash,
    },
  }));
}

/** Whether one of our rounds on the distributor can take claims. */
async function watching(db: Db, chainId: number, distributor: Address): Promise<boolean> {
  const [row] = await db
    .select({ id: airdropRound.airdropId })
    .from(airdropRound)
    .where(
      and(
        eq(airdropRound.chainId, chainId),
        eq(sql`lower(${airdropRound.distributor})`, distributor.toLowerCase()),
        inArray(airdropRound.step, [...WATCHED_STEPS]),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Whether one of our rounds on the chain is opening (its round id not known yet). */
async function openingOn(tx: Db, chainId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: airdropRound.airdropId })
    .from(airdropRound)
    .where(and(eq(airdropRound.chainId, chainId), eq(airdropRound.step, "opening")))
    .limit(1);
  return Boolean(row);
}

/** The airdrops whose rounds these are, by round id. */
async function roundsOf(tx: Db, chainId: number, distributor: Address, roundIds: number[]): Promise<Map<number, string>> {
  if (roundIds.length === 0) return new Map();
  const rows = await tx
    .select({ roundId: airdropRound.roundId, airdropId: airdropRound.airdropId })
    .from(airdropRound)
    .where(
      and(
        eq(airdropRound.chainId, chainId),
        eq(sql`lower(${airdropRound.distributor})`, distributor.toLowerCase()),
        isNotNull(airdropRound.roundId),
        inArray(airdropRound.roundId, roundIds),
        // Claims are made on live rounds only; a round id of a chain's earlier run may be taken again.
        inArray(airdropRound.step, [...WATCHED_STEPS]),
      ),
    );
  return new Map(rows.map((row) => [row.roundId!, row.airdropId]));
}
