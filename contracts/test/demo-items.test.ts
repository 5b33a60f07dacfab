import { parseEventLogs, zeroAddress, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoItemsAbi } from "../generated/demo-items.ts";
import { revertOf, startTestChain, type TestChain } from "./test-chain.ts";

let chain: TestChain;
let items: Address;

beforeAll(async () => {
  chain = await startTestChain(import.meta.filename);
  items = await chain.created(await chain.wallets[0]!.deployContract({ abi: demoItemsAbi, bytecode: chain.bytecode.DemoItems }));
});
afterAll(() => chain.stop());

describe("DemoItems", () => {
  it("is the ERC-1155 Questline Items: anyone mints 1 to 10 of items 1, 2 and 3, free", async () => {
    const read = { address: items, abi: demoItemsAbi } as const;
    expect(await chain.publicClient.readContract({ ...read, functionName: "name" })).toBe("Questline Items");
    expect(await chain.publicClient.readContract({ ...read, functionName: "symbol" })).toBe("QLI");
    expect(await chain.publicClient.readContract({ ...read, functionName: "uri", args: [1n] })).toBe("");

    const member = chain.wallets[1]!;
    const receipt = await chain.mined(await member.writeContract({ ...read, functionName: "mint", args: [1n, 10n] }));
    const [transfer] = parseEventLogs({ abi: demoItemsAbi, logs: receipt.logs, eventName: "TransferSingle" });
    expect(transfer!.args).toMatchObject({ operator: member.account.address, from: zeroAddress, to: member.account.address, id: 1n, value: 10n });
    await chain.mined(await member.writeContract({ ...read, functionName: "mint", args: [3n, 1n] }));
    await chain.mined(await member.writeContract({ ...read, functionName: "mint", args: [3n, 2n] }));
    const owner = member.account.address;
    expect(
      await chain.publicClient.readContract({
        ...read,
        functionName: "balanceOfBatch",
        args: [
          [owner, owner, owner],
          [1n, 2n, 3n],
        ],
      }),
    ).toEqual([10n, 0n, 3n]);
  });

  it("refuses an item other than 1 to 3, and an amount of 0 or above 10, by name", async () => {
    const member = chain.wallets[2]!;
    const mint = (id: bigint, amount: bigint) =>
      chain.publicClient.simulateContract({ address: items, abi: demoItemsAbi, functionName: "mint", args: [id, amount], account: member.account });
    expect(await revertOf(mint(0n, 1n), demoItemsAbi)).toEqual({ name: "UnknownItem", args: [0n] });
    expect(await revertOf(mint(4n, 1n), demoItemsAbi)).toEqual({ name: "UnknownItem", args: [4n] });
    expect(await revertOf(mint(2n, 0n), demoItemsAbi)).toEqual({ name: "InvalidAmount", args: [0n] });
    expect(await revertOf(mint(2n, 11n), demoItemsAbi)).toEqual({ name: "InvalidAmount", args: [11n] });
  });
});
