import type { Hex } from "viem";
import { z } from "zod";
import type { Route } from "./+types/api.chain-tx";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { transactionStatus } from "~/modules/chain/tx-status.server";
import { NATIVE_SYMBOLS } from "~/wallet/chains";

const querySchema = z.object({
  chainId: z.coerce.number("chainId must be a chain id").int("chainId must be a chain id").positive("chainId must be a chain id"),
  hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "hash must be a transaction hash"),
});

/**
 * GET /api/chain/tx?chainId=…&hash=… — where a transaction stands (TxStatusAnswer), read through
 * the server's own node endpoints, so a page follows it after a reload too, before the wallet
 * reconnects. 503 when the node does not answer.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const services = context.get(servicesContext);
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return Response.json({ message: query.error.issues[0]!.message }, { status: 400 });
  const { chainId, hash } = query.data;
  const chain = services.chains.get(chainId);
  if (!chain) return Response.json({ message: `No node for chain ${chainId}` }, { status: 400 });
  const client = chain.pageClient;
  const token = chain.contracts?.QuestToken;
  const errorContext = async () => ({
    token: token ? await client.readContract({ address: token, abi: questTokenAbi, functionName: "symbol" }).catch(() => "tokens") : "tokens",
    coin: NATIVE_SYMBOLS[chainId] ?? "ETH",
  });
  try {
    return Response.json(await transactionStatus(client, hash as Hex, errorContext));
  } catch (error) {
    services.logger.warn({ err: error, chainId }, "transaction status: the node did not answer");
    return Response.json({ message: "The network's node did not answer" }, { status: 503 });
  }
}
