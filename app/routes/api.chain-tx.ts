import { createPublicClient, TransactionNotFoundError, TransactionReceiptNotFoundError, type Hex } from "viem";
import type { Route } from "./+types/api.chain-tx";
import { questTokenAbi } from "../../contracts/generated/quest-token.ts";
import { servicesContext } from "~/lib/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { describeRevert } from "~/modules/chain/revert-decode";
import type { TxStatusAnswer } from "~/modules/chain/tx-machine";
import { NATIVE_SYMBOLS } from "~/wallet/chains";

/**
 * GET /api/chain/tx?chainId=…&hash=… — where a transaction stands, read through the server's own
 * node endpoints (so a page can follow it after a reload, before the wallet reconnects). A
 * reverted transaction is replayed to tell its reason in words. 503 when the node does not answer.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const chainId = Number(url.searchParams.get("chainId"));
  const hash = url.searchParams.get("hash") ?? "";
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return Response.json({ message: "hash must be a transaction hash" }, { status: 400 });
  const transport = services.chains.transportFor(chainId);
  if (!transport) return Response.json({ message: `No node for chain ${chainId}` }, { status: 400 });
  const client = createPublicClient({ transport });
  try {
    const receipt = await client.getTransactionReceipt({ hash: hash as Hex }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    });
    if (!receipt) {
      const known = await client.getTransaction({ hash: hash as Hex }).catch((error: unknown) => {
        if (error instanceof TransactionNotFoundError) return null;
        throw error;
      });
      return Response.json({ status: known ? "pending" : "unknown" } satisfies TxStatusAnswer);
    }
    if (receipt.status === "success") return Response.json({ status: "success" } satisfies TxStatusAnswer);
    const token = services.contracts.get(chainId)?.QuestToken;
    const symbol = token ? await client.readContract({ address: token, abi: questTokenAbi, functionName: "symbol" }).catch(() => "tokens") : "tokens";
    const context = { token: symbol, coin: NATIVE_SYMBOLS[chainId] ?? "ETH" };
    let reason = "The contract refused the transaction.";
    try {
      const tx = await client.getTransaction({ hash: hash as Hex });
      await client.call({ account: tx.from, to: tx.to, data: tx.input, value: tx.value, blockNumber: receipt.blockNumber - 1n });
      reason = "The transaction failed on chain (it ran out of gas, or the state changed before it was included).";
    } catch (error) {
      reason = describeRevert(error, context) ?? reason;
    }
    return Response.json({ status: "reverted", reason } satisfies TxStatusAnswer);
  } catch (error) {
    services.logger.warn({ err: error, chainId }, "transaction status: the node did not answer");
    return Response.json({ message: "The network's node did not answer" }, { status: 503 });
  }
}
