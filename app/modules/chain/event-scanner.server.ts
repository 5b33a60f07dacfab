import { and, eq, gt, sql } from "drizzle-orm";
import { getAddress, type Abi, type Address, type ContractEventName, type PublicClient } from "viem";
import { z } from "zod";
import { chainEventCursor } from "#db/schema/chain";
import type { Db } from "~/lib/db.server";

/**
 * The one event scanner (issue #36): reads a contract's events on a chain from a stored cursor,
 * one cursor per (chain, subscription), in chunks of `batchSize` blocks up to the bound the
 * subscription chooses (the head, or the last block with the chain's confirmations). Each chunk is
 * read from the node with no database transaction open (decision 051), then recorded by the
 * subscription's handler together with the cursor's advance in one transaction: a run cut short
 * anywhere is finished by the next, and a handler that throws leaves the cursor where it was.
 *
 * The deposit scanner (vault `Deposited` events) and the claim scanner (distributor `Claimed`
 * events) are subscriptions; what an event means stays with them.
 */

const blockNumber = z.bigint().nonnegative();

/** What a handler is told about the chunk it records. */
export type ChunkContext = {
  chainId: number;
  /** The chain's head when this run started. */
  head: bigint;
  fromBlock: bigint;
  toBlock: bigint;
};

/**
 * A handler's answer: what it recorded, and optionally the block the run stops before (at most
 * `toBlock + 1`): the cursor goes there and the next run reads on from it.
 */
export type ChunkOutcome<TResult> = { result: TResult; stopBefore?: bigint };

export type EventSubscription<TAbi extends Abi, TLog, TResult> = {
  /** The cursor's name on every chain, e.g. `deposits`. */
  name: string;
  /** The contract whose events are read; a cursor kept for another address starts afresh from `startBlock`. */
  address: Address;
  abi: TAbi;
  eventName: ContractEventName<TAbi>;
  /** One log as the node gave it, checked (it comes from outside); null leaves it out. */
  parse: (log: unknown) => TLog | null;
  /** The last block a run reads, given the head: the head itself unless given. */
  lastBlock?: (head: bigint) => bigint;
  /** Blocks below the cursor read again on every run (where a reorg may have moved an event); none unless given. */
  reread?: number;
  /** Records one chunk's logs inside the transaction that advances the cursor; no node call here. */
  record: (tx: Db, logs: TLog[], context: ChunkContext) => Promise<ChunkOutcome<TResult>>;
};

export type EventScan<TAbi extends Abi, TLog, TResult> = {
  db: Db;
  chainId: number;
  client: PublicClient;
  subscription: EventSubscription<TAbi, TLog, TResult>;
  /** Blocks per `eth_getLogs` request and per database transaction. */
  batchSize?: number;
  /** Where the first run (no cursor yet, or one for another address) starts reading. */
  startBlock?: bigint;
  /**
   * When the chain's head is below what was read already (a local chain started afresh under a
   * kept database): read again from `startBlock`. Otherwise such a node is taken to lag behind,
   * and nothing new is read until it catches up.
   */
  rescanIfBehind?: boolean;
};

/** The head the run read up to (before the subscription's bound), and each recorded chunk's result in order. */
export type EventScanResult<TResult> = { head: bigint; results: TResult[] };

/** One run of one subscription over one chain. */
export async function scanEvents<const TAbi extends Abi, TLog, TResult>(scan: EventScan<TAbi, TLog, TResult>): Promise<EventScanResult<TResult>> {
  const { db, chainId, client, subscription, batchSize = 1000, startBlock = 0n } = scan;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError("batchSize must be a whole number of at least 1");
  const head = blockNumber.parse(await client.getBlockNumber({ cacheTime: 0 }));
  const last = subscription.lastBlock ? subscription.lastBlock(head) : head;
  const results: TResult[] = [];
  for (let fromBlock = await firstBlockToRead({ ...scan, startBlock, head }); fromBlock <= last; fromBlock += BigInt(batchSize)) {
    const toBlock = fromBlock + BigInt(batchSize) - 1n < last ? fromBlock + BigInt(batchSize) - 1n : last;
    const context: ChunkContext = { chainId, head, fromBlock, toBlock };
    const logs = await readChunk(client, subscription, context);
    const outcome = await db.transaction(async (transaction) => {
      const tx: Db = transaction;
      const outcome = await subscription.record(tx, logs, context);
      if (outcome.stopBefore !== undefined && outcome.stopBefore > toBlock + 1n) throw new RangeError("a chunk's handler can stop only within its chunk");
      await advanceCursor(tx, { chainId, subscription, nextBlock: outcome.stopBefore ?? toBlock + 1n });
      return outcome;
    });
    results.push(outcome.result);
    if (outcome.stopBefore !== undefined) break;
  }
  return { head, results };
}

/** The cursor less the re-read window; `startBlock` without a cursor (or for another address). */
async function firstBlockToRead<TAbi extends Abi, TLog, TResult>({
  db,
  chainId,
  subscription,
  startBlock,
  rescanIfBehind,
  head,
}: EventScan<TAbi, TLog, TResult> & { startBlock: bigint; head: bigint }): Promise<bigint> {
  const [cursor] = await db
    .select()
    .from(chainEventCursor)
    .where(and(eq(chainEventCursor.chainId, chainId), eq(chainEventCursor.subscription, subscription.name)));
  if (!cursor || cursor.address.toLowerCase() !== subscription.address.toLowerCase()) return startBlock;
  const next = BigInt(cursor.nextBlock);
  if (next > head + 1n && rescanIfBehind) {
    // Only a cursor still past the head: another run may have read from the start meanwhile.
    await db
      .update(chainEventCursor)
      .set({ nextBlock: Number(startBlock), updatedAt: sql`now()` })
      .where(
        and(eq(chainEventCursor.chainId, chainId), eq(chainEventCursor.subscription, subscription.name), gt(chainEventCursor.nextBlock, Number(head + 1n))),
      );
    return startBlock;
  }
  const rewound = next - BigInt(subscription.reread ?? 0);
  return rewound > 0n ? rewound : 0n;
}

/** One chunk's events from the node, checked; called with no transaction open. */
async function readChunk<TAbi extends Abi, TLog, TResult>(
  client: PublicClient,
  { address, abi, eventName, parse }: EventSubscription<TAbi, TLog, TResult>,
  { fromBlock, toBlock }: ChunkContext,
): Promise<TLog[]> {
  const raw: unknown[] = await client.getContractEvents({ address, abi: abi as Abi, eventName, fromBlock, toBlock, strict: true });
  return raw.map((log) => parse(log)).filter((log): log is TLog => log !== null);
}

/** Moves the subscription's cursor to `nextBlock` on this chain; only forward while it is for the same address. */
async function advanceCursor<TAbi extends Abi, TLog, TResult>(
  tx: Db,
  { chainId, subscription, nextBlock }: { chainId: number; subscription: EventSubscription<TAbi, TLog, TResult>; nextBlock: bigint },
) {
  await tx
    .insert(chainEventCursor)
    .values({ chainId, subscription: subscription.name, address: getAddress(subscription.address), nextBlock: Number(nextBlock) })
    .onConflictDoUpdate({
      target: [chainEventCursor.chainId, chainEventCursor.subscription],
      // Another run may be further already: the cursor only moves forward (for the same address).
      set: {
        nextBlock: sql`case when lower(${chainEventCursor.address}) = lower(excluded.address) then greatest(${chainEventCursor.nextBlock}, excluded.next_block) else excluded.next_block end`,
        address: sql`excluded.address`,
        updatedAt: sql`now()`,
      },
    });
}
