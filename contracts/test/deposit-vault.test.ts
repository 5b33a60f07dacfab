import fc from "fast-check";
import { getAddress, keccak256, parseEther, parseEventLogs, stringToHex, zeroAddress, type Address, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { depositVaultAbi } from "../generated/deposit-vault.ts";
import { questTokenAbi } from "../generated/quest-token.ts";
import { signPermit } from "./permit.ts";
import { revertOf, startTestChain, type TestChain } from "./test-chain.ts";

const abis = [...depositVaultAbi, ...questTokenAbi];
const ADMIN = 0;
const OPERATOR = 1;
const MEMBER = 2;
const OTHER = 3;
const ref = keccak256(stringToHex("member:42"));
const withdrawalId = (n: number) => keccak256(stringToHex(`withdrawal:${n}`));

let chain: TestChain;
let token: Address;
let vault: Address;
let snapshot: Hex;

const address = (index: number) => chain.wallets[index]!.account.address;
const deployVault = (tokenAddress: Address, admin: Address, operator: Address) =>
  chain.wallets[ADMIN]!.deployContract({ abi: depositVaultAbi, bytecode: chain.bytecode.DepositVault, args: [tokenAddress, admin, operator] });

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
  vault = await chain.created(await deployVault(token, address(ADMIN), address(OPERATOR)));
  await chain.mined(await admin.writeContract({ address: token, abi: questTokenAbi, functionName: "mint", args: [address(MEMBER), parseEther("1000")] }));
});
afterAll(() => chain.stop());
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(async () => {
  await chain.revert(snapshot);
});

const balanceOf = (account: Address) => chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [account] });
const approve = async (walletIndex: number, amount: bigint) =>
  chain.mined(await chain.wallets[walletIndex]!.writeContract({ address: token, abi: questTokenAbi, functionName: "approve", args: [vault, amount] }));
const call = async (walletIndex: number, functionName: string, args: readonly unknown[]) =>
  chain.mined(await chain.wallets[walletIndex]!.writeContract({ address: vault, abi: depositVaultAbi, functionName, args } as never));
const attempt = (walletIndex: number, functionName: string, args: readonly unknown[]) =>
  revertOf(chain.wallets[walletIndex]!.writeContract({ address: vault, abi: depositVaultAbi, functionName, args } as never), abis);
const role = (name: "OPERATOR_ROLE" | "PAUSER_ROLE" | "DEFAULT_ADMIN_ROLE") =>
  chain.publicClient.readContract({ address: vault, abi: depositVaultAbi, functionName: name });

describe("DepositVault deployment", () => {
  it("holds the token and hands out the roles", async () => {
    const at = { address: vault, abi: depositVaultAbi } as const;
    expect(await chain.publicClient.readContract({ ...at, functionName: "token" })).toBe(getAddress(token));
    expect(await chain.publicClient.readContract({ ...at, functionName: "hasRole", args: [await role("DEFAULT_ADMIN_ROLE"), address(ADMIN)] })).toBe(true);
    expect(await chain.publicClient.readContract({ ...at, functionName: "hasRole", args: [await role("PAUSER_ROLE"), address(ADMIN)] })).toBe(true);
    expect(await chain.publicClient.readContract({ ...at, functionName: "hasRole", args: [await role("OPERATOR_ROLE"), address(OPERATOR)] })).toBe(true);
    expect(await chain.publicClient.readContract({ ...at, functionName: "hasRole", args: [await role("OPERATOR_ROLE"), address(ADMIN)] })).toBe(false);
  });

  it("refuses a zero token, admin or operator", async () => {
    expect((await revertOf(deployVault(zeroAddress, address(ADMIN), address(OPERATOR)), abis)).name).toBe("ZeroAddress");
    expect((await revertOf(deployVault(token, zeroAddress, address(OPERATOR)), abis)).name).toBe("ZeroAddress");
    expect((await revertOf(deployVault(token, address(ADMIN), zeroAddress), abis)).name).toBe("ZeroAddress");
  });
});

describe("DepositVault.deposit", () => {
  it("takes the tokens for the member reference, with an event", async () => {
    await approve(MEMBER, parseEther("100"));
    const receipt = await call(MEMBER, "deposit", [parseEther("100"), ref]);
    expect(await balanceOf(vault)).toBe(parseEther("100"));
    expect(await balanceOf(address(MEMBER))).toBe(parseEther("900"));
    const [event] = parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "Deposited" });
    expect(event!.args).toEqual({ from: getAddress(address(MEMBER)), ref, amount: parseEther("100") });
  });

  it("refuses zero tokens", async () => {
    expect((await attempt(MEMBER, "deposit", [0n, ref])).name).toBe("ZeroAmount");
  });

  it("refuses without an allowance", async () => {
    expect((await attempt(MEMBER, "deposit", [1n, ref])).name).toBe("ERC20InsufficientAllowance");
  });

  it("refuses while paused", async () => {
    await approve(MEMBER, 1n);
    await call(ADMIN, "pause", []);
    expect((await attempt(MEMBER, "deposit", [1n, ref])).name).toBe("EnforcedPause");
  });
});

describe("DepositVault.depositWithPermit", () => {
  it("needs one signature and no approval", async () => {
    const amount = parseEther("40");
    const { deadline, v, r, s } = await signPermit({ chain, walletIndex: MEMBER, token, spender: vault, value: amount, deadline: (await chain.now()) + 3600n });
    const receipt = await call(MEMBER, "depositWithPermit", [amount, ref, deadline, v, r, s]);
    expect(await balanceOf(vault)).toBe(amount);
    expect(parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "Deposited" })).toHaveLength(1);
  });

  it("goes on when someone submitted the permit first", async () => {
    const amount = parseEther("40");
    const { deadline, v, r, s } = await signPermit({ chain, walletIndex: MEMBER, token, spender: vault, value: amount, deadline: (await chain.now()) + 3600n });
    await chain.mined(
      await chain.wallets[OTHER]!.writeContract({
        address: token,
        abi: questTokenAbi,
        functionName: "permit",
        args: [address(MEMBER), vault, amount, deadline, v, r, s],
      }),
    );
    await call(MEMBER, "depositWithPermit", [amount, ref, deadline, v, r, s]);
    expect(await balanceOf(vault)).toBe(amount);
  });

  it("refuses a bad permit when there is no allowance either", async () => {
    const { deadline, v, r, s } = await signPermit({ chain, walletIndex: OTHER, token, spender: vault, value: 5n, deadline: (await chain.now()) + 3600n });
    expect((await attempt(MEMBER, "depositWithPermit", [5n, ref, deadline, v, r, s])).name).toBe("PermitFailed");
  });
});

describe("DepositVault.withdraw", () => {
  beforeEach(async () => {
    await approve(MEMBER, parseEther("500"));
    await call(MEMBER, "deposit", [parseEther("500"), ref]);
  });

  it("pays the operator's withdrawal, with an event", async () => {
    const receipt = await call(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), parseEther("30")]);
    expect(await balanceOf(address(OTHER))).toBe(parseEther("30"));
    expect(await balanceOf(vault)).toBe(parseEther("470"));
    expect(await chain.publicClient.readContract({ address: vault, abi: depositVaultAbi, functionName: "withdrawalPaid", args: [withdrawalId(1)] })).toBe(true);
    const [event] = parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "Withdrawn" });
    expect(event!.args).toEqual({
      withdrawalId: withdrawalId(1),
      to: getAddress(address(OTHER)),
      amount: parseEther("30"),
      operator: getAddress(address(OPERATOR)),
    });
  });

  it("never pays a withdrawal id twice", async () => {
    await call(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), parseEther("30")]);
    expect(await attempt(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), parseEther("30")])).toEqual({
      name: "WithdrawalAlreadyPaid",
      args: [withdrawalId(1)],
    });
    expect(await balanceOf(address(OTHER))).toBe(parseEther("30"));
  });

  it("refuses anyone but the operator", async () => {
    expect((await attempt(ADMIN, "withdraw", [withdrawalId(1), address(OTHER), 1n])).name).toBe("AccessControlUnauthorizedAccount");
  });

  it("refuses the zero address and zero tokens", async () => {
    expect((await attempt(OPERATOR, "withdraw", [withdrawalId(1), zeroAddress, 1n])).name).toBe("ZeroAddress");
    expect((await attempt(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), 0n])).name).toBe("ZeroAmount");
  });

  it("refuses more than the vault holds", async () => {
    expect((await attempt(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), parseEther("501")])).name).toBe("ERC20InsufficientBalance");
  });

  it("refuses while paused and pays again once resumed", async () => {
    const pauseReceipt = await call(ADMIN, "pause", []);
    expect(parseEventLogs({ abi: depositVaultAbi, logs: pauseReceipt.logs, eventName: "Paused" })).toHaveLength(1);
    expect(await chain.publicClient.readContract({ address: vault, abi: depositVaultAbi, functionName: "paused" })).toBe(true);
    expect((await attempt(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), 1n])).name).toBe("EnforcedPause");
    await call(ADMIN, "unpause", []);
    await call(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), 1n]);
  });

  it("pays each distinct id once, however often withdrawals are retried (property)", async () => {
    let base = await chain.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 8 }), async (ids) => {
        await chain.revert(base);
        base = await chain.snapshot();
        const paid = new Set<number>();
        for (const id of ids) {
          if (paid.has(id))
            expect((await attempt(OPERATOR, "withdraw", [withdrawalId(id), address(OTHER), parseEther("1")])).name).toBe("WithdrawalAlreadyPaid");
          else await call(OPERATOR, "withdraw", [withdrawalId(id), address(OTHER), parseEther("1")]);
          paid.add(id);
        }
        expect(await balanceOf(address(OTHER))).toBe(parseEther("1") * BigInt(paid.size));
      }),
      { numRuns: 10 },
    );
  });
});

describe("DepositVault pause", () => {
  it("is for the pauser only", async () => {
    expect((await attempt(OPERATOR, "pause", [])).name).toBe("AccessControlUnauthorizedAccount");
    await call(ADMIN, "pause", []);
    expect((await attempt(OPERATOR, "unpause", [])).name).toBe("AccessControlUnauthorizedAccount");
  });

  it("refuses to unpause what is not paused", async () => {
    expect((await attempt(ADMIN, "unpause", [])).name).toBe("ExpectedPause");
  });
});
