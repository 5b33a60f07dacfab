import { BaseError, getAddress, type Address, type Hex, type PublicClient } from "viem";
import { firstBlockWhere } from "./block-search.server";
import { fromNode, isHistoricalStateUnavailable } from "./node-errors.server";
import { hasCode, readWalletHistory } from "./onchain-reads.server";

// The funding graph of one wallet on one chain (issue #38): who first sent it coin, where it last
// swept its coin, its first activity and transactions sent. Read for the sybil defence's wallet
// profiles (app/modules/trust/wallet-signals.server.ts); nothing here judges the wallet.

/** The last transactions a wallet sent that are looked at for a sweep. */
export const SWEEP_LOOKBACK = 3;
/** A sweep moved at least this share (in percent) of what the wallet held just before. */
export const SWEEP_SHARE_PERCENT = 80n;

/** Who first sent the wallet native coin, or why no one can be named. */
export type Funding = { funder: Address; txHash: Hex; blockNumber: bigint; timestamp: Date; value: bigint } | { funder: null; reason: string };

/** A plain transfer that moved most of the wallet's coin to an address without code. */
export type Sweep = { to: Address; txHash: Hex; blockNumber: bigint; value: bigint; heldBefore: bigint };

export type WalletFunding =
  | {
      status: "known";
      /** Transactions the wallet sent: its nonce at `head`. */
      txCount: number;
      head: { number: bigint; hash: Hex };
      /** The first block where it held coin or had sent a transaction; null: never active. */
      firstActivity: { blockNumber: bigint; timestamp: Date } | null;
      /** null: never active (nothing funded it). */
      funding: Funding | null;
      /** null: none of its last SWEEP_LOOKBACK sent transactions was a sweep. */
      sweep: Sweep | null;
    }
  | {
      /** The node keeps no state this old: the signal is unknown, never suspicious. */
      status: "historical_unavailable";
      txCount: number;
      head: { number: bigint; hash: Hex };
      reason: string;
    };

const UNAVAILABLE = "The node keeps no state this old (a full or pruned node); an archive node is needed to read this wallet's history";

type BlockWithTransactions = Awaited<ReturnType<typeof blockWithTransactions>>;
const blockWithTransactions = (client: PublicClient, blockNumber: bigint) => fromNode(() => client.getBlock({ blockNumber, includeTransactions: true }));
const same = (a: Address | null | undefined, b: Address) => Boolean(a) && a!.toLowerCase() === b.toLowerCase();

/**
 * One wallet's funding on the chain `client` reads (a registry's `client`): its first activity and
 * transactions sent (readWalletHistory's binary search over historical state), its funder (the
 * sender of the transaction in the first-activity block that sent it native coin; null with a
 * reason when the coin came another way: a contract's internal transfer, a withdrawal, a genesis
 * or block reward) and its sweep (the newest of its last SWEEP_LOOKBACK sent transactions that was
 * a plain value transfer to an address without code moving at least SWEEP_SHARE_PERCENT % of what it
 * held just before; each such transaction's block is found by bisecting its nonce).
 *
 * The node kind: the search reads balances and nonces at old blocks, so a chain's node must keep
 * the state of every block since the wallet's first activity: an archive node (a full geth node
 * keeps the last 128 blocks, reth and erigon what they are told). anvil keeps all. A node that
 * refuses old state gives `historical_unavailable`; a node that fails throws ChainUnreachable.
 *
 * Node calls, bounded: with L = ⌈log2(head + 1)⌉, at most 5·L + 15 per wallet (about 140 on a chain
 * of 20 million blocks): the head and its nonce (2, and 2 more for a wallet that sent nothing);
 * the first activity (2 per step of L, and its block); the funding block with its transactions
 * (1); per looked-at transaction, its nonce's bisection (≤ L), its block (1, or none when already
 * read), the balance before it (1) and the target's code (1).
 */
export async function readFunding({ client, address }: { client: PublicClient; address: Address }): Promise<WalletFunding> {
  const wallet = getAddress(address);
  const history = await readWalletHistory({ client, address: wallet, needFirstActivity: true });
  const { txCount, head } = history;
  if (history.firstActivity === "historical_unavailable") return { status: "historical_unavailable", txCount, head, reason: UNAVAILABLE };
  const { firstActivity } = history;
  if (firstActivity === null) return { status: "known", txCount, head, firstActivity: null, funding: null, sweep: null };
  try {
    const blocks = new Map<bigint, BlockWithTransactions>();
    const blockAt = async (blockNumber: bigint) => {
      const block = blocks.get(blockNumber) ?? (await blockWithTransactions(client, blockNumber));
      blocks.set(blockNumber, block);
      return block;
    };
    const funding = fundingIn(await blockAt(firstActivity.blockNumber), wallet, firstActivity.timestamp);
    const sweep = await lastSweep({ client, wallet, txCount, from: firstActivity.blockNumber, to: head.number, blockAt });
    return { status: "known", txCount, head, firstActivity, funding, sweep };
  } catch (error) {
    if (isHistoricalStateUnavailable(error)) return { status: "historical_unavailable", txCount, head, reason: UNAVAILABLE };
    throw error;
  }
}

/** The first transaction of the first-activity block that sent the wallet native coin, or why there is none. */
function fundingIn(block: BlockWithTransactions, wallet: Address, timestamp: Date): Funding {
  const funding = block.transactions.find((tx) => same(tx.to, wallet) && tx.value > 0n && !same(tx.from, wallet));
  if (funding) return { funder: getAddress(funding.from), txHash: funding.hash, blockNumber: block.number, timestamp, value: funding.value };
  if (block.transactions.some((tx) => same(tx.from, wallet))) {
    return { funder: null, reason: `Its first activity (block ${block.number}) was a transaction it sent, not coin it received` };
  }
  return {
    funder: null,
    reason: `No transaction in block ${block.number} sent it coin directly: it arrived by a contract's internal transfer, a withdrawal or a reward`,
  };
}

/**
 * The newest of the wallet's last SWEEP_LOOKBACK sent transactions that swept its coin. The
 * transaction with nonce n is in the first block at which the wallet's nonce is above n; each
 * older one is looked for at or below the block of the newer.
 */
async function lastSweep({
  client,
  wallet,
  txCount,
  from,
  to,
  blockAt,
}: {
  client: PublicClient;
  wallet: Address;
  txCount: number;
  from: bigint;
  to: bigint;
  blockAt: (blockNumber: bigint) => Promise<BlockWithTransactions>;
}): Promise<Sweep | null> {
  let high = to;
  for (let nonce = txCount - 1; nonce >= Math.max(0, txCount - SWEEP_LOOKBACK); nonce--) {
    const sentAt = await firstBlockWhere({
      low: from,
      high,
      holds: async (blockNumber) => (await fromNode(() => client.getTransactionCount({ address: wallet, blockNumber }))) > nonce,
    });
    high = sentAt;
    const block = await blockAt(sentAt);
    const tx = block.transactions.find((t) => same(t.from, wallet) && t.nonce === nonce);
    if (!tx || !tx.to || tx.input !== "0x" || tx.value === 0n || same(tx.to, wallet)) continue;
    // What it held before the block (its own earlier transactions in the same block aside).
    const heldBefore = sentAt === 0n ? 0n : await fromNode(() => client.getBalance({ address: wallet, blockNumber: sentAt - 1n }));
    if (heldBefore === 0n || tx.value * 100n < heldBefore * SWEEP_SHARE_PERCENT) continue;
    if (await hasCode({ client, address: tx.to })) continue;
    return { to: getAddress(tx.to), txHash: tx.hash, blockNumber: sentAt, value: tx.value, heldBefore };
  }
  return null;
}

/** The node's own words for an error, for a profile's "unknown" reason (never a stack). */
export function nodeWords(error: unknown): string {
  const details = error instanceof BaseError ? error.details || error.shortMessage : error instanceof Error ? error.message : String(error);
  return details.slice(0, 200);
}
