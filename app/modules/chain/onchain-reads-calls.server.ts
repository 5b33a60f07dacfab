import {
  erc20Abi,
  formatUnits,
  getAddress,
  hexToBigInt,
  isAddressEqual,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type PublicClient,
  type Transaction,
  type TransactionReceipt,
} from "viem";
import type { ChainEvidence } from "./chain-evidence";
import { fromNode } from "./node-errors.server";

// A contract call as a task's evidence (issue #37): a pasted transaction hash checked here, or
// "Find my transaction" looking through the chain's recent blocks (onchain-reads-find.server.ts). Reads only through the client given;
// a node that cannot answer throws ChainUnreachable.

export type CallMatch = {
  /** The member's linked wallets: the transaction's sender must be one. */
  from: readonly Address[];
  /** The contract called. */
  to: Address;
  /** 4-byte selectors accepted (the calldata's first 4 bytes); none: any call to `to`. */
  selectors: readonly Hex[];
  /** Native value sent, at least. */
  minValue: bigint | null;
  /** ERC-20 moved: the sum of the token's Transfer logs in the receipt from or to the sender, at least. */
  transfer: { token: Address; minAmount: bigint } | null;
  /** The transaction's block timestamp inside [from, to). */
  window: { from: Date | null; to: Date | null };
};

export type TxCheck =
  | { kind: "found"; evidence: ChainEvidence }
  /** A sentence for the member saying why this transaction does not count. */
  | { kind: "refused"; message: string }
  /** Mined but not deep enough yet (its own block counts as one confirmation). */
  | { kind: "waiting"; confirmations: number; needed: number }
  /** No such transaction on this chain, or not mined yet. */
  | { kind: "not_found" };

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

const short = (hex: string) => `${hex.slice(0, 6)}…${hex.slice(-4)}`;
const when = (date: Date) =>
  date
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");

/** Why the transaction itself (not yet its receipt) does not match, or null. */
export function transactionRefusal(tx: Pick<Transaction, "from" | "to" | "input" | "value">, match: CallMatch): string | null {
  if (!match.from.some((wallet) => isAddressEqual(wallet, tx.from))) {
    return `This transaction was sent from ${short(getAddress(tx.from))}, which is not one of your linked wallets`;
  }
  if (!tx.to || !isAddressEqual(tx.to, match.to)) return "This transaction called another contract";
  const selector = tx.input.slice(0, 10).toLowerCase();
  if (match.selectors.length > 0 && !match.selectors.some((accepted) => accepted.toLowerCase() === selector)) {
    return "This transaction called another function of the contract";
  }
  if (match.minValue !== null && tx.value < match.minValue) {
    return `This transaction sent ${formatUnits(tx.value, 18)} of the chain's coin; the task asks for ${formatUnits(match.minValue, 18)}`;
  }
  return null;
}

/** Why the block's time is outside the window, or null. */
export function windowRefusal(timestamp: bigint, match: CallMatch): string | null {
  const at = new Date(Number(timestamp) * 1000);
  if (match.window.from && at < match.window.from) return `This transaction was sent before the task opened (${when(match.window.from)})`;
  if (match.window.to && at >= match.window.to) return `This transaction was sent after the task closed (${when(match.window.to)})`;
  return null;
}

/** The token moved from or to `sender` in the receipt's Transfer logs of `token`. */
function transferred(receipt: TransactionReceipt, token: Address, sender: Address): bigint {
  let sum = 0n;
  for (const log of receipt.logs) {
    // ERC-20's Transfer has 3 topics (ERC-721's, with an indexed id, has 4).
    if (!isAddressEqual(log.address, token) || log.topics[0] !== TRANSFER_TOPIC || log.topics.length !== 3) continue;
    const from = getAddress(`0x${log.topics[1]!.slice(26)}`);
    const to = getAddress(`0x${log.topics[2]!.slice(26)}`);
    if (isAddressEqual(from, sender) || isAddressEqual(to, sender)) sum += log.data === "0x" ? 0n : hexToBigInt(log.data);
  }
  return sum;
}

/** Why the receipt does not count, or null; the amounts moved go in `values`. */
export async function receiptRefusal(
  client: PublicClient,
  receipt: TransactionReceipt,
  match: CallMatch,
  values: Record<string, string>,
): Promise<string | null> {
  if (receipt.status !== "success") return "This transaction failed on chain (reverted)";
  if (!match.transfer) return null;
  const moved = transferred(receipt, match.transfer.token, receipt.from);
  values.transferred = moved.toString();
  if (moved >= match.transfer.minAmount) return null;
  const decimals = await fromNode(() => client.readContract({ address: match.transfer!.token, abi: erc20Abi, functionName: "decimals" })).catch(() => 0);
  return `This transaction moved ${formatUnits(moved, decimals)} of the token; the task asks for ${formatUnits(match.transfer.minAmount, decimals)}`;
}

export function evidenceOf(chainId: number, tx: Transaction, receipt: TransactionReceipt, values: Record<string, string>): ChainEvidence {
  return {
    kind: "chain",
    chainId,
    blockNumber: receipt.blockNumber.toString(),
    blockHash: receipt.blockHash,
    txHash: receipt.transactionHash,
    wallet: getAddress(tx.from),
    values: { value: tx.value.toString(), ...values },
  };
}

/** Confirmations of a block at `blockNumber` when the head is `head` (its own block counts). */
export const depth = (head: bigint, blockNumber: bigint) => Number(head - blockNumber + 1n);

/**
 * Checks a pasted transaction hash against `match`: the sender one of the member's wallets, `to`
 * and the selector, the native value, a successful receipt, the ERC-20 moved, the block's time in
 * the window and `confirmations` deep. Three reads at once (transaction, receipt, head), then the
 * block's time when the task has a window.
 */
export async function checkContractCall({
  client,
  chainId,
  confirmations,
  hash,
  match,
}: {
  client: PublicClient;
  chainId: number;
  confirmations: number;
  hash: Hex;
  match: CallMatch;
}): Promise<TxCheck> {
  const [tx, receipt, head] = await fromNode(() =>
    Promise.all([
      client.getTransaction({ hash }).catch((error: unknown) => {
        if (error instanceof TransactionNotFoundError) return null;
        throw error;
      }),
      client.getTransactionReceipt({ hash }).catch((error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) return null;
        throw error;
      }),
      client.getBlockNumber({ cacheTime: 0 }),
    ]),
  );
  // The receipt says it is in a block: a node may still answer the transaction itself as pending
  // for a moment after (anvil did, in CI), which changes nothing read from it here.
  if (!tx || !receipt) return { kind: "not_found" };
  const refusal = transactionRefusal(tx, match);
  if (refusal) return { kind: "refused", message: refusal };
  const values: Record<string, string> = {};
  const failed = await receiptRefusal(client, receipt, match, values);
  if (failed) return { kind: "refused", message: failed };
  if (match.window.from || match.window.to) {
    const block = await fromNode(() => client.getBlock({ blockHash: receipt.blockHash }));
    const outside = windowRefusal(block.timestamp, match);
    if (outside) return { kind: "refused", message: outside };
  }
  const deep = depth(head, receipt.blockNumber);
  if (deep < confirmations) return { kind: "waiting", confirmations: deep, needed: confirmations };
  return { kind: "found", evidence: evidenceOf(chainId, tx, receipt, values) };
}
