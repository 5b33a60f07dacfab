import { and, eq, sql } from "drizzle-orm";
import { BlockNotFoundError, getAddress, type Address, type Hex, type PublicClient } from "viem";
import { z } from "zod";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { deposit } from "#db/schema/ledger";
import type { Db } from "~/lib/db.server";
import type { VaultToken } from "~/modules/chain/contract-addresses.server";
import { scanEvents } from "~/modules/chain/event-scanner.server";
import { assetOf, type Asset } from "~/modules/ledger/assets";
import { creditDeposit, recordDepositLog, reorgDeposit, type DepositLog, type DepositRecord } from "./deposit-postings.server";

/**
 * The deposit scanner: reads a chain's `DepositVault` `Deposited` events (QUEST, subscription
 * `deposits`) and `TokenDeposited` events (every token of the vault's allow-list, subscription
 * `token-deposits`) through the event scanner, records each deposit once per (chain, transaction,
 * log index) in its token's asset (`USDC:31337`) and credits it once its block has the chain's
 * confirmations and is still on the chain (decisions 013, 056). Every step is one database
 * transaction, so a run cut short anywhere is finished by the next.
 */

/** The deposit scanner's cursor on each chain (`chain_event_cursor.subscription`): the vault's `Deposited` events. */
export const DEPOSIT_SUBSCRIPTION = "deposits";
/** The cursor of the vault's `TokenDeposited` events (`depositToken`, any allow-listed token). */
export const TOKEN_DEPOSIT_SUBSCRIPTION = "token-deposits";

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
const tokenLogSchema = logSchema.extend({ args: z.object({ token: address, from: address, ref: hash32, amount: z.bigint().positive() }) });

/**
 * A `TokenDeposited` log as the node gave it, checked, with the asset of its token on this chain;
 * null for a log the node marks removed, and for a token the chain's list does not name (the vault
 * refuses a token off its allow-list, so such a log means the list here lags the vault's: it is
 * left out, not credited in an asset nobody can withdraw).
 */
function tokenDepositLogOf(raw: unknown, chainId: number, tokens: readonly VaultToken[]): { asset: Asset; log: DepositLog } | null {
  const entry = tokenLogSchema.parse(raw);
  if (entry.removed) return null;
  const token = tokens.find((listed) => listed.address === entry.args.token);
  if (!token) return null;
  const { from, ref, amount } = entry.args;
  return {
    asset: assetOf(token.symbol, chainId),
    log: { txHash: entry.transactionHash, logIndex: entry.logIndex, blockNumber: entry.blockNumber, blockHash: entry.blockHash, from, ref, amount },
  };
}

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
  /** The asset of the vault's own token's `Deposited` events: QUEST on this chain. */
  asset: Asset;
  /**
   * The tokens the chain's vault takes (the registry entry's `tokens`): their `TokenDeposited`
   * events are credited in their own asset; none read when empty.
   */
  tokens?: readonly VaultToken[];
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
  const { db, chainId, client, vault, asset, confirmations, tokens = [] } = options;
  if (!Number.isInteger(confirmations) || confirmations < 1) throw new RangeError("confirmations must be a whole number of at least 1");
  const record = async (tx: Db, entries: { asset: Asset; log: DepositLog }[], head: bigint) => {
    let seen = 0;
    for (const { asset, log } of entries) {
      const depth = Number(head - log.blockNumber + 1n);
      if (await recordDepositLog(tx, { chainId, asset, required: confirmations, confirmations: depth, log })) seen++;
    }
    return { result: seen };
  };
  const quest = await scanEvents({
    ...options,
    subscription: {
      name: DEPOSIT_SUBSCRIPTION,
      address: vault,
      abi: depositVaultAbi,
      eventName: "Deposited",
      parse: depositLogOf,
      // The last `confirmations` blocks again: a reorg may have moved a deposit there.
      reread: confirmations,
      record: (tx, logs, { head }) =>
        record(
          tx,
          logs.map((log) => ({ asset, log })),
          head,
        ),
    },
  });
  const token =
    tokens.length === 0
      ? null
      : await scanEvents({
          ...options,
          subscription: {
            name: TOKEN_DEPOSIT_SUBSCRIPTION,
            address: vault,
            abi: depositVaultAbi,
            eventName: "TokenDeposited",
            parse: (raw) => tokenDepositLogOf(raw, chainId, tokens),
            reread: confirmations,
            record: (tx, entries, { head }) => record(tx, entries, head),
          },
        });
  // Pending deposits are judged against the lower of the two heads: neither run has read past it.
  const head = token && token.head < quest.head ? token.head : quest.head;
  const settled = await settlePending({ db, chainId, client, head });
  const seen = [...quest.results, ...(token?.results ?? [])].reduce((sum, count) => sum + count, 0);
  return { seen, ...settled };
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
