import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hex, type PublicClient } from "viem";
import type { ErrorContext } from "./contract-errors";
import { describeRevert } from "./revert-decode";
import type { TxStatusAnswer } from "./tx-machine";

/**
 * Where a transaction stands: mined (success, or reverted with its reason in words, found by
 * replaying the call on the state before its block), pending, or unknown to the node. Throws when
 * the node does not answer.
 */
export async function transactionStatus(client: PublicClient, hash: Hex, context: () => Promise<ErrorContext>): Promise<TxStatusAnswer> {
  const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  });
  if (!receipt) {
    const known = await client.getTransaction({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionNotFoundError) return null;
      throw error;
    });
    return { status: known ? "pending" : "unknown" };
  }
  if (receipt.status === "success") return { status: "success" };
  const tx = await client.getTransaction({ hash });
  try {
    await client.call({ account: tx.from, to: tx.to, data: tx.input, value: tx.value, gas: tx.gas, blockNumber: receipt.blockNumber - 1n });
    return { status: "reverted", reason: "The transaction failed on the network (it ran out of gas, or the state changed before it was included)." };
  } catch (error) {
    return { status: "reverted", reason: describeRevert(error, await context()) ?? "The contract refused the transaction." };
  }
}
