import { parseEventLogs, zeroAddress, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCollectionAbi } from "../generated/demo-collection.ts";
import { startTestChain, type TestChain } from "./test-chain.ts";

let chain: TestChain;
let collection: Address;

beforeAll(async () => {
  chain = await startTestChain(import.meta.filename);
  collection = await chain.created(await chain.wallets[0]!.deployContract({ abi: demoCollectionAbi, bytecode: chain.bytecode.DemoCollection }));
});
afterAll(() => chain.stop());

describe("DemoCollection", () => {
  it("is the ERC-721 Questline Explorers (QLX), which anyone mints free, ids from 1 in order", async () => {
    const read = { address: collection, abi: demoCollectionAbi } as const;
    expect(await chain.publicClient.readContract({ ...read, functionName: "name" })).toBe("Questline Explorers");
    expect(await chain.publicClient.readContract({ ...read, functionName: "symbol" })).toBe("QLX");
    expect(await chain.publicClient.readContract({ ...read, functionName: "totalMinted" })).toBe(0n);

    const [, first, second] = chain.wallets;
    const { result } = await chain.publicClient.simulateContract({ ...read, functionName: "mint", account: first!.account });
    expect(result).toBe(1n);
    const minted = [];
    for (const wallet of [first!, second!, first!]) {
      const receipt = await chain.mined(await wallet.writeContract({ ...read, functionName: "mint" }));
      const [transfer] = parseEventLogs({ abi: demoCollectionAbi, logs: receipt.logs, eventName: "Transfer" });
      expect(transfer!.args).toMatchObject({ from: zeroAddress, to: wallet.account.address });
      minted.push(transfer!.args.tokenId);
    }
    expect(minted).toEqual([1n, 2n, 3n]);
    expect(await chain.publicClient.readContract({ ...read, functionName: "totalMinted" })).toBe(3n);
    expect(await chain.publicClient.readContract({ ...read, functionName: "ownerOf", args: [2n] })).toBe(second!.account.address);
    expect(await chain.publicClient.readContract({ ...read, functionName: "balanceOf", args: [first!.account.address] })).toBe(2n);
  });
});
