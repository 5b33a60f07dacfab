import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testStablecoinAbi } from "../generated/test-stablecoin.ts";
import { startTestChain, type TestChain } from "./test-chain.ts";

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain(import.meta.filename);
});
afterAll(() => chain.stop());

describe("TestStablecoin", () => {
  it("is a 6-decimal USDC stand-in that anyone may mint", async () => {
    const [deployer, member] = chain.wallets;
    const token = await chain.created(
      await deployer!.deployContract({ abi: testStablecoinAbi, bytecode: chain.bytecode.TestStablecoin, args: [deployer!.account.address, 1_000_000n] }),
    );
    const read = <Name extends "decimals" | "symbol">(functionName: Name) =>
      chain.publicClient.readContract({ address: token, abi: testStablecoinAbi, functionName });
    expect(await read("decimals")).toBe(6);
    expect(await read("symbol")).toBe("USDC");
    expect(
      await chain.publicClient.readContract({ address: token, abi: testStablecoinAbi, functionName: "balanceOf", args: [deployer!.account.address] }),
    ).toBe(1_000_000n);
    await chain.mined(
      await member!.writeContract({ address: token, abi: testStablecoinAbi, functionName: "mint", args: [member!.account.address, 2_500_000n] }),
    );
    expect(await chain.publicClient.readContract({ address: token, abi: testStablecoinAbi, functionName: "balanceOf", args: [member!.account.address] })).toBe(
      2_500_000n,
    );
  });
});
