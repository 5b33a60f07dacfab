import { getAddress, parseEther, parseEventLogs, zeroAddress, zeroHash, type Address, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { airdropDistributorAbi } from "../generated/airdrop-distributor.ts";
import { questTokenAbi } from "../generated/quest-token.ts";
import { airdropTree, type AirdropEntry } from "../merkle.ts";
import { revertOf, startTestChain, type TestChain } from "./test-chain.ts";

const abis = [...airdropDistributorAbi, ...questTokenAbi];
const ADMIN = 0;
const OTHER = 5;

let chain: TestChain;
let token: Address;
let distributor: Address;
let snapshot: Hex;
let entries: AirdropEntry[];
let tree: { root: Hex; proofs: Hex[][] };
let deadline: bigint;

const address = (index: number) => chain.wallets[index]!.account.address;
const deployDistributor = (tokenAddress: Address, admin: Address, operator = admin) =>
  chain.wallets[ADMIN]!.deployContract({ abi: airdropDistributorAbi, bytecode: chain.bytecode.AirdropDistributor, args: [tokenAddress, admin, operator] });
const call = async (walletIndex: number, functionName: string, args: readonly unknown[]) =>
  chain.mined(await chain.wallets[walletIndex]!.writeContract({ address: distributor, abi: airdropDistributorAbi, functionName, args } as never));
const attempt = (walletIndex: number, functionName: string, args: readonly unknown[]) =>
  revertOf(chain.wallets[walletIndex]!.writeContract({ address: distributor, abi: airdropDistributorAbi, functionName, args } as never), abis);
const balanceOf = (account: Address) => chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [account] });
const claimArgs = (round: bigint, i: number) => [round, entries[i]!.index, entries[i]!.account, entries[i]!.amount, tree.proofs[i]!] as const;

beforeAll(async () => {
  chain = await startTestChain(import.meta.filename);
  const admin = chain.wallets[ADMIN]!;
  token = await chain.created(
    await admin.deployContract({
      abi: questTokenAbi,
      bytecode: chain.bytecode.QuestToken,
      args: ["Questline", "QUEST", parseEther("1000000"), admin.account.address],
    }),
  );
  distributor = await chain.created(await deployDistributor(token, address(ADMIN)));
  await chain.mined(await admin.writeContract({ address: token, abi: questTokenAbi, functionName: "mint", args: [address(ADMIN), parseEther("10000")] }));
  await chain.mined(await admin.writeContract({ address: token, abi: questTokenAbi, functionName: "approve", args: [distributor, parseEther("10000")] }));
  // Five entries: an odd count exercises the carried-up node of the tree.
  entries = [1, 2, 3, 4, 5].map((wallet, i) => ({ index: BigInt(i), account: address(wallet), amount: parseEther(String(10 * (i + 1))) }));
  tree = airdropTree(entries);
  deadline = (await chain.now()) + 7n * 86_400n;
});
afterAll(() => chain.stop());
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(async () => {
  await chain.revert(snapshot);
});

const TOTAL = parseEther("150");
const createRound = (total = TOTAL, root = tree.root, until = deadline) => call(ADMIN, "createRound", [root, total, until]);

describe("AirdropDistributor deployment", () => {
  it("refuses a zero token, admin or operator", async () => {
    expect((await revertOf(deployDistributor(zeroAddress, address(ADMIN)), abis)).name).toBe("ZeroAddress");
    expect((await revertOf(deployDistributor(token, zeroAddress, address(ADMIN)), abis)).name).toBe("ZeroAddress");
    expect((await revertOf(deployDistributor(token, address(ADMIN), zeroAddress), abis)).name).toBe("ZeroAddress");
  });

  it("gives the admin role and the operator role to whom it is told", async () => {
    const separate = await chain.created(await deployDistributor(token, address(ADMIN), address(OTHER)));
    const read = (functionName: "DEFAULT_ADMIN_ROLE" | "OPERATOR_ROLE") =>
      chain.publicClient.readContract({ address: separate, abi: airdropDistributorAbi, functionName });
    const [adminRole, operatorRole] = await Promise.all([read("DEFAULT_ADMIN_ROLE"), read("OPERATOR_ROLE")]);
    const has = (role: Hex, account: Address) =>
      chain.publicClient.readContract({ address: separate, abi: airdropDistributorAbi, functionName: "hasRole", args: [role, account] });
    expect([await has(adminRole, address(ADMIN)), await has(operatorRole, address(ADMIN))]).toEqual([true, false]);
    expect([await has(adminRole, address(OTHER)), await has(operatorRole, address(OTHER))]).toEqual([false, true]);
  });

  it("holds the token and starts with no rounds", async () => {
    expect(await chain.publicClient.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "token" })).toBe(getAddress(token));
    expect(await chain.publicClient.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "roundCount" })).toBe(0n);
  });
});

describe("AirdropDistributor.createRound", () => {
  it("pulls the round's tokens and numbers rounds from zero, with an event", async () => {
    const receipt = await createRound();
    await createRound(parseEther("1"));
    expect(await balanceOf(distributor)).toBe(TOTAL + parseEther("1"));
    const [event] = parseEventLogs({ abi: airdropDistributorAbi, logs: receipt.logs, eventName: "RoundCreated" });
    expect(event!.args).toEqual({ roundId: 0n, merkleRoot: tree.root, total: TOTAL, deadline });
    const round = await chain.publicClient.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "round", args: [1n] });
    expect(round).toEqual({ merkleRoot: tree.root, deadline, swept: false, total: parseEther("1"), claimed: 0n });
    expect(await chain.publicClient.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "roundCount" })).toBe(2n);
  });

  it("refuses an empty root, no tokens or a past deadline", async () => {
    expect((await attempt(ADMIN, "createRound", [zeroHash, TOTAL, deadline])).name).toBe("InvalidRound");
    expect((await attempt(ADMIN, "createRound", [tree.root, 0n, deadline])).name).toBe("InvalidRound");
    expect((await attempt(ADMIN, "createRound", [tree.root, TOTAL, (await chain.now()) - 1n])).name).toBe("InvalidRound");
  });

  it("refuses anyone but an operator", async () => {
    expect((await attempt(OTHER, "createRound", [tree.root, TOTAL, deadline])).name).toBe("AccessControlUnauthorizedAccount");
  });

  it("refuses a round the operator cannot fund", async () => {
    expect((await attempt(ADMIN, "createRound", [tree.root, parseEther("10001"), deadline])).name).toBe("ERC20InsufficientAllowance");
  });
});

describe("AirdropDistributor.claim", () => {
  beforeEach(async () => {
    await createRound();
  });

  it("pays every entry once, whoever submits it, with an event", async () => {
    for (let i = 0; i < entries.length; i++) {
      const receipt = await call(OTHER, "claim", claimArgs(0n, i));
      const [event] = parseEventLogs({ abi: airdropDistributorAbi, logs: receipt.logs, eventName: "Claimed" });
      expect(event!.args).toEqual({ roundId: 0n, index: BigInt(i), account: getAddress(entries[i]!.account), amount: entries[i]!.amount });
      expect(await balanceOf(entries[i]!.account)).toBe(entries[i]!.amount);
    }
    expect(await chain.publicClient.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "isClaimed", args: [0n, 2n] })).toBe(true);
    expect(await balanceOf(distributor)).toBe(0n);
  });

  it("refuses a second claim of an index", async () => {
    await call(OTHER, "claim", claimArgs(0n, 1));
    expect(await attempt(OTHER, "claim", claimArgs(0n, 1))).toEqual({ name: "AlreadyClaimed", args: [0n, 1n] });
  });

  it("refuses a proof that does not match", async () => {
    const [round, index, account, amount, proof] = claimArgs(0n, 1);
    expect((await attempt(OTHER, "claim", [round, index, account, amount + 1n, proof])).name).toBe("InvalidProof");
    expect((await attempt(OTHER, "claim", [round, index, address(OTHER), amount, proof])).name).toBe("InvalidProof");
    expect((await attempt(OTHER, "claim", [round, index, account, amount, tree.proofs[0]])).name).toBe("InvalidProof");
  });

  it("refuses an unknown round", async () => {
    expect(await attempt(OTHER, "claim", claimArgs(1n, 0))).toEqual({ name: "UnknownRound", args: [1n] });
    expect(
      (await revertOf(chain.publicClient.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "round", args: [9n] }), abis)).name,
    ).toBe("UnknownRound");
  });

  it("refuses at and after the deadline", async () => {
    await chain.setNextTimestamp(deadline);
    expect(await attempt(OTHER, "claim", claimArgs(0n, 0))).toEqual({ name: "ClaimWindowClosed", args: [0n, deadline] });
  });

  it("never pays out more than the round holds", async () => {
    // A second round funded with less than its tree promises.
    await createRound(parseEther("25"));
    await call(OTHER, "claim", claimArgs(1n, 0)); // 10
    expect(await attempt(OTHER, "claim", claimArgs(1n, 1))).toEqual({ name: "RoundExhausted", args: [1n] }); // 20 > 15 left
    expect(await chain.publicClient.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "isClaimed", args: [1n, 1n] })).toBe(false);
  });
});

describe("AirdropDistributor.sweep", () => {
  beforeEach(async () => {
    await createRound();
    await call(OTHER, "claim", claimArgs(0n, 0));
  });

  it("sends the unclaimed rest after the deadline, once, with an event", async () => {
    await chain.setNextTimestamp(deadline);
    const receipt = await call(ADMIN, "sweep", [0n, address(OTHER)]);
    expect(await balanceOf(address(OTHER))).toBe(TOTAL - entries[0]!.amount);
    const [event] = parseEventLogs({ abi: airdropDistributorAbi, logs: receipt.logs, eventName: "Swept" });
    expect(event!.args).toEqual({ roundId: 0n, to: getAddress(address(OTHER)), amount: TOTAL - entries[0]!.amount });
    expect(await attempt(ADMIN, "sweep", [0n, address(OTHER)])).toEqual({ name: "AlreadySwept", args: [0n] });
  });

  it("refuses before the deadline", async () => {
    expect(await attempt(ADMIN, "sweep", [0n, address(OTHER)])).toEqual({ name: "RoundStillOpen", args: [0n, deadline] });
  });

  it("refuses an unknown round, the zero address and anyone but the operator", async () => {
    await chain.setNextTimestamp(deadline);
    expect((await attempt(ADMIN, "sweep", [3n, address(OTHER)])).name).toBe("UnknownRound");
    expect((await attempt(ADMIN, "sweep", [0n, zeroAddress])).name).toBe("ZeroAddress");
    expect((await attempt(OTHER, "sweep", [0n, address(OTHER)])).name).toBe("AccessControlUnauthorizedAccount");
  });
});
