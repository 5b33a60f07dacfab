import { getAddress } from "viem";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { readTokenBalance } from "~/modules/chain/onchain-reads.server";

/** Reads a native (`tokenAddress` null) or ERC-20 balance of `owner` on a chain. */
export type BalanceReader = (args: { chainId: number; tokenAddress: string | null; owner: string }) => Promise<bigint>;

/**
 * Reads native or ERC-20 balances through the registry's page client of each chain (the read is
 * readTokenBalance's; a node that cannot answer throws ChainUnreachable).
 */
export function balanceReader(chains: Pick<ChainRegistry, "get">): BalanceReader {
  return async ({ chainId, tokenAddress, owner }) => {
    const client = chains.get(chainId)?.pageClient;
    if (!client) throw new Error(`No node endpoint for chain ${chainId}`);
    return readTokenBalance({ client, token: tokenAddress ? getAddress(tokenAddress) : null, owner: getAddress(owner) });
  };
}
