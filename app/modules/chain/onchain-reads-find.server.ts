import { isAddressEqual, type Address, type Block, type PublicClient } from "viem";
import { fromNode, isHistoricalStateUnavailable } from "./node-errors.server";
import { depth, evidenceOf, receiptRefusal, transactionRefusal, windowRefusal, type CallMatch, type TxCheck } from "./onchain-reads-calls.server";

/** Blocks asked for at once while scanning (a few JSON-RPC batches in flight on a batching transport). */
const BLOCKS_AT_ONCE = 200;

type FullBlock = Block<bigint, true>;

/**
 * "Find my transaction": the newest transaction in the last `blocks` blocks matching `match` and
 * not in `exclude` (hashes already used for the task), confirmed `confirmations` deep.
 *
 * The sender must be one of the member's wallets, and a wallet's nonce grows by one with each
 * transaction it sends; so where the node keeps historical state (an archive node, anvil), the
 * blocks holding the wallets' transactions are found by bisecting the sum of their nonces over
 * the range (about log2(blocks) reads for each such block), newest first, and only those blocks
 * are read. Where it keeps no state that old (a full node), every block is read instead, newest
 * first, BLOCKS_AT_ONCE at a time. Either way the search stops at the first confirmed match or at
 * a block older than the window, and only candidates' receipts are read. Without a confirmed
 * match: a match still too shallow is "waiting"; else the newest near miss (a transaction from
 * the member's wallet to the contract) says why it does not count; else "not_found".
 */
export async function findContractCall({
  client,
  chainId,
  confirmations,
  match,
  blocks,
  exclude,
}: {
  client: PublicClient;
  chainId: number;
  confirmations: number;
  match: CallMatch;
  blocks: number;
  exclude: ReadonlySet<string>;
}): Promise<TxCheck> {
  const head = await fromNode(() => client.getBlockNumber({ cacheTime: 0 }));
  const oldest = head - BigInt(blocks) + 1n > 0n ? head - BigInt(blocks) + 1n : 0n;
  const excluded = new Set([...exclude].map((hash) => hash.toLowerCase()));
  let waiting: TxCheck | null = null;
  let nearMiss: TxCheck | null = null;

  /** Looks at one block's transactions, newest first: a confirmed match ends the search, as does a block before the window. */
  const inspect = async (block: FullBlock): Promise<TxCheck | "older" | null> => {
    if (match.window.from && block.timestamp * 1000n < BigInt(match.window.from.getTime())) return "older";
    if (windowRefusal(block.timestamp, match)) return null;
    for (const tx of [...block.transactions].reverse()) {
      if (excluded.has(tx.hash.toLowerCase()) || !tx.to || !isAddressEqual(tx.to, match.to)) continue;
      if (!match.from.some((wallet) => isAddressEqual(wallet, tx.from))) continue;
      const refusal = transactionRefusal(tx, match);
      if (refusal) {
        nearMiss ??= { kind: "refused", message: refusal };
        continue;
      }
      const receipt = await fromNode(() => client.getTransactionReceipt({ hash: tx.hash }));
      const values: Record<string, string> = {};
      const failed = await receiptRefusal(client, receipt, match, values);
      if (failed) {
        nearMiss ??= { kind: "refused", message: failed };
        continue;
      }
      const deep = depth(head, receipt.blockNumber);
      if (deep >= confirmations) return { kind: "found", evidence: evidenceOf(chainId, tx, receipt, values) };
      waiting ??= { kind: "waiting", confirmations: deep, needed: confirmations };
    }
    return null;
  };
  const search = async (chunks: AsyncIterable<FullBlock[]>): Promise<TxCheck> => {
    for await (const chunk of chunks) {
      for (const block of chunk) {
        const outcome = await inspect(block);
        if (outcome === "older") return waiting ?? nearMiss ?? { kind: "not_found" };
        if (outcome) return outcome;
      }
    }
    return waiting ?? nearMiss ?? { kind: "not_found" };
  };

  try {
    const sent = await blocksSentFrom(client, match.from, oldest, head);
    if (sent) return await search(sent);
  } catch (error) {
    if (!isHistoricalStateUnavailable(error)) throw error;
    // The node dropped old state meanwhile: every block is read instead.
    waiting = null;
    nearMiss = null;
  }
  return search(everyBlock(client, oldest, head));
}

/** Every block of [oldest, head], newest first, BLOCKS_AT_ONCE at a time. */
async function* everyBlock(client: PublicClient, oldest: bigint, head: bigint): AsyncGenerator<FullBlock[]> {
  for (let top = head; top >= oldest; top -= BigInt(BLOCKS_AT_ONCE)) {
    const numbers: bigint[] = [];
    for (let n = top; n >= oldest && n > top - BigInt(BLOCKS_AT_ONCE); n--) numbers.push(n);
    yield (await fromNode(() => Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true }))))) as FullBlock[];
  }
}

/**
 * The blocks of [oldest, head] in which any of `wallets` sent a transaction, newest first, each read
 * when the search reaches it: the sum of the wallets' nonces is bisected (a block where it grows
 * holds one). Null when the node keeps no state as old as the block before `oldest`.
 */
async function blocksSentFrom(client: PublicClient, wallets: readonly Address[], oldest: bigint, head: bigint): Promise<AsyncGenerator<FullBlock[]> | null> {
  const sentBy = async (blockNumber: bigint) => {
    if (blockNumber < 0n) return 0;
    const nonces = await fromNode(() => Promise.all(wallets.map((address) => client.getTransactionCount({ address, blockNumber }))));
    return nonces.reduce((sum, nonce) => sum + nonce, 0);
  };
  let ends: [number, number];
  try {
    ends = await Promise.all([sentBy(oldest - 1n), sentBy(head)]);
  } catch (error) {
    if (isHistoricalStateUnavailable(error)) return null;
    throw error;
  }
  /** Blocks of [low, high] with transactions of the wallets: `before` sent by the end of low - 1, `after` by the end of high. */
  async function* within(low: bigint, high: bigint, before: number, after: number): AsyncGenerator<FullBlock[]> {
    if (before === after) return;
    if (low === high) {
      yield [(await fromNode(() => client.getBlock({ blockNumber: low, includeTransactions: true }))) as FullBlock];
      return;
    }
    const middle = (low + high) / 2n;
    const byMiddle = await sentBy(middle);
    yield* within(middle + 1n, high, byMiddle, after);
    yield* within(low, middle, before, byMiddle);
  }
  return within(oldest, head, ends[0], ends[1]);
}
