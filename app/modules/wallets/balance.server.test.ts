import { createPublicClient, http, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { localRegistry } from "#tests/setup/local-registry";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { balanceReader } from "./balance.server";

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain();
});
afterAll(() => chain.stop());

describe("balanceReader", () => {
  it("reads a native balance on the local chain through our node", async () => {
    const owner = "0x3333333333333333333333333333333333333333";
    const client = createPublicClient({ transport: http(chain.url) });
    await client.request({ method: "anvil_setBalance" as "eth_chainId", params: [owner, `0x${parseEther("2").toString(16)}`] as never });
    const read = balanceReader(localRegistry({ url: chain.url }));
    expect(await read({ chainId: LOCAL_CHAIN_ID, tokenAddress: null, owner })).toBe(parseEther("2"));
    await expect(read({ chainId: 56, tokenAddress: null, owner })).rejects.toThrow("No node endpoint for chain 56");
  });
});
