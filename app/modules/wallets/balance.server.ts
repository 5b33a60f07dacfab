import { createPublicClient, erc20Abi, getAddress } from "viem";
import type { BalanceReader } from "~/modules/tasks/completions.server";
import type { ChainAccess } from "./chain-access.server";

/** Reads native or ERC-20 balances through the server's own transport for each chain. */
export function balanceReader(chains: Pick<ChainAccess, "transportFor">): BalanceReader {
  return async ({ chainId, tokenAddress, owner }) => {
    const transport = chains.transportFor(chainId);
    if (!transport) throw new Error(`No node endpoint for chain ${chainId}`);
    const client = createPublicClient({ transport });
    const address = getAddress(owner);
    if (!tokenAddress) return client.getBalance({ address });
    return client.readContract({ address: getAddress(tokenAddress), abi: erc20Abi, functionName: "balanceOf", args: [address] });
  };
}
