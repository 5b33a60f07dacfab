import { getAddress, parseEther, parseEventLogs, type Address, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { demoSwapAbi } from "../generated/demo-swap.ts";
import { questTokenAbi } from "../generated/quest-token.ts";
import { testStablecoinAbi } from "../generated/test-stablecoin.ts";
import { revertOf, startTestChain, type TestChain } from "./test-chain.ts";

/** 1 QUEST = 0.01 USDC: 10**14 QUEST units per USDC unit. */
const RATE = 10n ** 14n;
const USDC = (whole: bigint) => whole * 10n ** 6n;
const abis = [...demoSwapAbi, ...questTokenAbi];

let chain: TestChain;
let quest: Address;
let usdc: Address;
let swap: Address;
let snapshot: Hex;

beforeAll(async () => {
  chain = await startTestChain(import.meta.filename);
  const admin = chain.wallets[0]!;
  quest = await chain.created(
    await admin.deployContract({
      abi: questTokenAbi,
      bytecode: chain.bytecode.QuestToken,
      args: ["Questline", "QUEST", parseEther("1000000000"), admin.account.address],
    }),
  );
  usdc = await chain.created(
    await admin.deployContract({ abi: testStablecoinAbi, bytecode: chain.bytecode.TestStablecoin, args: [admin.account.address, 0n] }),
  );
  swap = await chain.created(await admin.deployContract({ abi: demoSwapAbi, bytecode: chain.bytecode.DemoSwap, args: [quest, usdc, RATE] }));
  [quest, usdc, swap] = [getAddress(quest), getAddress(usdc), getAddress(swap)];
  // Reserves: 1,000 QUEST and 5 USDC; the member holds 10,000 QUEST and 100 USDC, and has approved the swap for both.
  await chain.mined(await admin.writeContract({ address: quest, abi: questTokenAbi, functionName: "mint", args: [swap, parseEther("1000")] }));
  await chain.mined(await admin.writeContract({ address: usdc, abi: testStablecoinAbi, functionName: "mint", args: [swap, USDC(5n)] }));
  const member = chain.wallets[1]!;
  await chain.mined(
    await admin.writeContract({ address: quest, abi: questTokenAbi, functionName: "mint", args: [member.account.address, parseEther("10000")] }),
  );
  await chain.mined(await member.writeContract({ address: usdc, abi: testStablecoinAbi, functionName: "mint", args: [member.account.address, USDC(100n)] }));
  for (const token of [quest, usdc]) {
    await chain.mined(await member.writeContract({ address: token, abi: questTokenAbi, functionName: "approve", args: [swap, 2n ** 256n - 1n] }));
  }
});
afterAll(() => chain.stop());
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(async () => {
  await chain.revert(snapshot);
});

const balanceOf = (token: Address, owner: Address) =>
  chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [owner] });

describe("DemoSwap", () => {
  it("swaps QUEST for USDC at 1 QUEST = 0.01 USDC, as Uniswap V2's router is called: Transfer logs, a Swap event, [in, out]", async () => {
    const member = chain.wallets[1]!;
    const receiver = chain.wallets[2]!.account.address;
    const deadline = (await chain.now()) + 600n;
    const args = [parseEther("150"), USDC(1n), [quest, usdc], receiver, deadline] as const;
    const { result } = await chain.publicClient.simulateContract({
      address: swap,
      abi: demoSwapAbi,
      functionName: "swapExactTokensForTokens",
      args,
      account: member.account,
    });
    expect(result).toEqual([parseEther("150"), 1_500_000n]);
    const receipt = await chain.mined(await member.writeContract({ address: swap, abi: demoSwapAbi, functionName: "swapExactTokensForTokens", args }));

    const transfers = parseEventLogs({ abi: questTokenAbi, logs: receipt.logs, eventName: "Transfer" });
    expect(transfers.map((log) => [log.address, log.args.from, log.args.to, log.args.value])).toEqual([
      [quest.toLowerCase(), member.account.address, swap, parseEther("150")],
      [usdc.toLowerCase(), swap, receiver, 1_500_000n],
    ]);
    const [swapped] = parseEventLogs({ abi: demoSwapAbi, logs: receipt.logs, eventName: "Swap" });
    expect(swapped!.args).toEqual({
      sender: member.account.address,
      to: receiver,
      tokenIn: quest,
      tokenOut: usdc,
      amountIn: parseEther("150"),
      amountOut: 1_500_000n,
    });
    expect(await balanceOf(usdc, receiver)).toBe(1_500_000n);
    expect(await balanceOf(quest, swap)).toBe(parseEther("1150"));
  });

  it("swaps USDC for QUEST the other way at the same rate (0.01 USDC a QUEST), and quotes nothing for a token outside the pair", async () => {
    const member = chain.wallets[1]!;
    const owner = member.account.address;
    const before = await balanceOf(quest, owner);
    await chain.mined(
      await member.writeContract({
        address: swap,
        abi: demoSwapAbi,
        functionName: "swapExactTokensForTokens",
        args: [USDC(2n), parseEther("200"), [usdc, quest], owner, (await chain.now()) + 60n],
      }),
    );
    expect((await balanceOf(quest, owner)) - before).toBe(parseEther("200"));
    expect(await balanceOf(usdc, swap)).toBe(USDC(7n));
    const read = { address: swap, abi: demoSwapAbi } as const;
    expect(await chain.publicClient.readContract({ ...read, functionName: "quote", args: [swap, 1n] })).toBe(0n);
    expect(await chain.publicClient.readContract({ ...read, functionName: "rate" })).toBe(RATE);
    expect(await chain.publicClient.readContract({ ...read, functionName: "tokenA" })).toBe(quest);
    expect(await chain.publicClient.readContract({ ...read, functionName: "tokenB" })).toBe(usdc);
  });

  it("refuses, by name, an expired deadline, a path that is not the pair, too little out, and a reserve too small", async () => {
    const member = chain.wallets[1]!;
    const to = member.account.address;
    const now = await chain.now();
    const swapWith = (amountIn: bigint, amountOutMin: bigint, path: Address[], deadline = now + 600n) =>
      chain.publicClient.simulateContract({
        address: swap,
        abi: demoSwapAbi,
        functionName: "swapExactTokensForTokens",
        args: [amountIn, amountOutMin, path, to, deadline],
        account: member.account,
      });
    const one = parseEther("1");
    expect(await revertOf(swapWith(one, 0n, [quest, usdc], now - 1n), abis)).toEqual({ name: "Expired", args: [now - 1n, expect.any(BigInt)] });
    for (const path of [[quest], [quest, usdc, quest], [quest, quest], [usdc, usdc], [swap, usdc], [quest, swap]]) {
      expect(await revertOf(swapWith(one, 0n, path), abis)).toEqual({ name: "InvalidPath", args: [] });
    }
    // 10**13 QUEST units are worth less than one USDC unit: nothing would be paid.
    expect(await revertOf(swapWith(10n ** 13n, 0n, [quest, usdc]), abis)).toEqual({ name: "InsufficientOutputAmount", args: [0n, 0n] });
    expect(await revertOf(swapWith(one, 10_001n, [quest, usdc]), abis)).toEqual({ name: "InsufficientOutputAmount", args: [10_000n, 10_001n] });
    // The reserve holds 5 USDC; 600 QUEST would take 6.
    expect(await revertOf(swapWith(parseEther("600"), 0n, [quest, usdc]), abis)).toEqual({ name: "InsufficientReserve", args: [USDC(5n), USDC(6n)] });
    // A member who has not approved the swap: the token refuses the pull.
    const stranger = chain.wallets[3]!;
    await chain.mined(
      await stranger.writeContract({ address: usdc, abi: testStablecoinAbi, functionName: "mint", args: [stranger.account.address, USDC(1n)] }),
    );
    const unapproved = chain.publicClient.simulateContract({
      address: swap,
      abi: demoSwapAbi,
      functionName: "swapExactTokensForTokens",
      args: [USDC(1n), 0n, [usdc, quest], stranger.account.address, now + 600n],
      account: stranger.account,
    });
    expect(await revertOf(unapproved, [...abis, ...testStablecoinAbi])).toMatchObject({ name: "ERC20InsufficientAllowance" });
  });

  it("refuses a rate of zero at deployment", async () => {
    const admin = chain.wallets[0]!;
    expect(await revertOf(admin.deployContract({ abi: demoSwapAbi, bytecode: chain.bytecode.DemoSwap, args: [quest, usdc, 0n] }), demoSwapAbi)).toEqual({
      name: "InvalidRate",
      args: [],
    });
  });
});
