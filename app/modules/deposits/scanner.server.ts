import { and, eq, sql } from "drizzle-orm";
import { BlockNotFoundError, getAddress, type Address, type Hex, type PublicClient } from "viem";
import { z } from "zod";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { deposit } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import { scanEvents } from "~/modules/chain/event-scanner.server";
import type { Asset } from "~/modules/ledger/assets";
import { creditDeposit, recordDepositLog, reorgDeposit, type DepositLog, type DepositRecord } from "./deposit-postings.server";

/**
 * The deposit scanner: reads a chain's `DepositVault` `Deposited` events through the event scanner
 * (subscription `deposits`), records each deposit once per (chain, transaction, log index) and
 * credits it once its block has the chain's confirmations and is still on the chain (decision 013,
 * issue "deposits"). Every step is one database transaction, so a run cut short anywhere is
 * finished by the next.
 */

/** The deposit scanner's cursor on each chain (`chain_event_cursor.subscription`). */
export const DEPOSIT_SUBSCRIPTION = "deposits";

const hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of hex")
  .transform((value) => value.toLowerCase() as Hex);
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be an address")
  .transform((value) => getAddress(value));
const blockNumber = z.bigint().nonnegative();

const logSchema = z.object({
  transactionHash: hash32,
  logIndex: z.number().int().nonnegative(),
  blockNumber,
  blockHash: hash32,
  removed: z.boolean().optional(),
  args: z.object({ from: address, ref: hash32, amount: z.bigint().positive() }),
});
const blockSchema = z.object({ number: blockNumber, hash: hash32 });

/** A `Deposited` log as the node gave it, checked; null for a log the node marks removed. */
function depositLogOf(raw: unknown): DepositLog | null {
  const entry = logSchema.parse(raw);
  if (entry.removed) return null;
  return { txHash: entry.transactionHash, logIndex: entry.logIndex, blockNumber: entry.blockNumber, blockHash: entry.blockHash, ...entry.args };
}

export type ScanOptions = {
  db: Db;
  chainId: number;
  client: PublicClient;
  vault: Address;
  asset: Asset;
  /** Blocks a deposit's block needs (itself included) before it is credited. */
  confirmations: number;
  /** Blocks per `eth_getLogs` request and per database transaction. */
  batchSize?: number;
  /** Where the first run (no cursor yet, or another vault) starts reading. */
  startBlock?: bigint;
  /**
   * When the chain's head is below what was read already (a local chain started afresh under a
   * kept database): read again from `startBlock`. Otherwise such a node is taken to lag behind,
   * and nothing new is read until it catches up.
   */
  rescanIfBehind?: boolean;
};

export type ScanResult = { seen: number; credited: number; reorged: number };

/**
 * One scanner run over one chain: reads new vault events (and the last `confirmations` blocks
 * again, where a reorg may have moved a deposit) in chunks of `batchSize` blocks, each chunk
 * recorded with the cursor's advance in one transaction; then re-checks every pending deposit's
 * block, reversing those whose block left the chain and crediting those with enough confirmations.
 */
export async function scanDeposits(options: ScanOptions): Promise<ScanResult> {
  const { db, chainId, client, vault, asset, confirmations } = options;
  if (!Number.isInteger(confirmations) || confirmations < 1) throw new RangeError("confirmations must be a whole number of at least 1");
  const { head, results } = await scanEvents({
    ...options,
    subscription: {
      name: DEPOSIT_SUBSCRIPTION,
      address: vault,
      abi: depositVaultAbi,
      eventName: "Deposited",
      parse: depositLogOf,
      // The last `confirmations` blocks again: a reorg may have moved a deposit there.
      reread: confirmations,
      record: async (tx, logs, { head }) => {
        let seen = 0;
        for (const log of logs) {
          const depth = Number(head - log.blockNumber + 1n);
          if (await recordDepositLog(tx, { chainId, asset, required: confirmations, confirmations: depth, log })) seen++;
        }
        return { result: seen };
      },
    },
  });
  const settled = await settlePending({ db, chainId, client, head });
  return { seen: results.reduce((sum, seen) => sum + seen, 0), ...settled };
}

/** The hash of the chain's block at `number`, or null when the node has no such block (yet). */
async function canonicalHash(client: PublicClient, number: bigint): Promise<Hex | null> {
  try {
    return blockSchema.parse(await client.getBlock({ blockNumber: number })).hash;
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}

/**
 * Every pending deposit of the chain: reversed when the chain's block at its number is another
 * than the one it was seen in; otherwise its confirmations are brought up to date and, when
 * enough, it is credited. One transaction per deposit.
 */
async function settlePending({ db, chainId, client, head }: { db: Db; chainId: number; client: PublicClient; head: bigint }) {
  const pending = await db
    .select()
    .from(deposit)
    .where(and(eq(deposit.chainId, chainId), eq(deposit.status, "pending")))
    .orderBy(deposit.blockNumber, deposit.logIndex);
  const hashes = new Map<number, Promise<Hex | null>>();
  let credited = 0;
  let reorged = 0;
  for (const row of pending) {
    // A block beyond this node's head cannot be judged yet (a lagging node).
    if (BigInt(row.blockNumber) > head) continue;
    if (!hashes.has(row.blockNumber)) hashes.set(row.blockNumber, canonicalHash(client, BigInt(row.blockNumber)));
    const hash = await hashes.get(row.blockNumber)!;
    if (hash === null) continue;
    if (hash !== row.blockHash) {
      if (await db.transaction((tx) => reorgDeposit(tx, row))) reorged++;
      continue;
    }
    if (await confirm(db, row, Number(head - BigInt(row.blockNumber) + 1n))) credited++;
  }
  return { credited, reorged };
}

/** Brings a pending deposit's confirmations up to date; credits it when they are enough. */
async function confirm(db: Db, row: DepositRecord, confirmations: number): Promise<boolean> {
  if (confirmations >= row.required && (row.userId || row.projectId)) {
    return db.transaction((tx) => creditDeposit(tx, row, confirmations));
  }
  if (confirmations !== row.confirmations) {
    await db
      .update(deposit)
      .set({ confirmations, updatedAt: sql`now()` })
      .where(and(eq(deposit.id, row.id), eq(deposit.status, "pending"), eq(deposit.blockHash, row.blockHash)));
  }
  return false;
}
