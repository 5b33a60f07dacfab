import { erc20Abi, getAddress } from "viem";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";

/** Reads a native (`tokenAddress` null) or ERC-20 balance of `owner` on a chain. */
export type BalanceReader = (args: { chainId: number; tokenAddress: string | null; owner: string }) => Promise<bigint>;

/** Reads native or ERC-20 balances through the registry's client for each chain. */
export function balanceReader(chains: Pick<ChainRegistry, "get">): BalanceReader {
  return async ({ chainId, tokenAddress, owner }) => {
    const client = chains.get(chainId)?.pageClient;
    if (!client) throw new Error(`No node endpoint for chain ${chainId}`);
    const address = getAddress(owner);
    if (!tokenAddress) return client.getBalance({ address });
    return client.readContract({ address: getAddress(tokenAddress), abi: erc20Abi, functionName: "balanceOf", args: [address] });
  };
}
