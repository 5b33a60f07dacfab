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
/** Another ERC-20 token (a project's, or a stablecoin), for the allow-list. */
let other: Address;
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
  other = await chain.created(
    await admin.deployContract({
      abi: questTokenAbi,
      bytecode: chain.bytecode.QuestToken,
      args: ["Project", "PRJ", parseEther("1000000"), admin.account.address],
    }),
  );
  vault = await chain.created(await deployVault(token, address(ADMIN), address(OPERATOR)));
  await chain.mined(await admin.writeContract({ address: token, abi: questTokenAbi, functionName: "mint", args: [address(MEMBER), parseEther("1000")] }));
  await chain.mined(await admin.writeContract({ address: other, abi: questTokenAbi, functionName: "mint", args: [address(MEMBER), parseEther("1000")] }));
});
afterAll(() => chain.stop());
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(async () => {
  await chain.revert(snapshot);
});

const balanceOf = (account: Address, of: Address = token) =>
  chain.publicClient.readContract({ address: of, abi: questTokenAbi, functionName: "balanceOf", args: [account] });
const approve = async (walletIndex: number, amount: bigint, of: Address = token) =>
  chain.mined(await chain.wallets[walletIndex]!.writeContract({ address: of, abi: questTokenAbi, functionName: "approve", args: [vault, amount] }));
const tokenAllowed = (of: Address) => chain.publicClient.readContract({ address: vault, abi: depositVaultAbi, functionName: "tokenAllowed", args: [of] });
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

describe("DepositVault allow-list", () => {
  it("lists the vault's own token from the start, and only it", async () => {
    expect(await tokenAllowed(token)).toBe(true);
    expect(await tokenAllowed(other)).toBe(false);
    const events = await chain.publicClient.getContractEvents({ address: vault, abi: depositVaultAbi, eventName: "TokenAllowListed", fromBlock: 0n });
    expect(events.map((event) => event.args)).toEqual([{ token: getAddress(token), allowed: true, operator: getAddress(address(ADMIN)) }]);
  });

  it("is kept by the operator, with an event on each change", async () => {
    const listed = await call(OPERATOR, "setTokenAllowed", [other, true]);
    expect(await tokenAllowed(other)).toBe(true);
    expect(parseEventLogs({ abi: depositVaultAbi, logs: listed.logs, eventName: "TokenAllowListed" })[0]!.args).toEqual({
      token: getAddress(other),
      allowed: true,
      operator: getAddress(address(OPERATOR)),
    });
    const unlisted = await call(OPERATOR, "setTokenAllowed", [other, false]);
    expect(await tokenAllowed(other)).toBe(false);
    expect(parseEventLogs({ abi: depositVaultAbi, logs: unlisted.logs, eventName: "TokenAllowListed" })[0]!.args.allowed).toBe(false);
  });

  it("refuses anyone but the operator, the zero address and the vault's own token", async () => {
    expect((await attempt(ADMIN, "setTokenAllowed", [other, true])).name).toBe("AccessControlUnauthorizedAccount");
    expect((await attempt(MEMBER, "setTokenAllowed", [other, true])).name).toBe("AccessControlUnauthorizedAccount");
    expect((await attempt(OPERATOR, "setTokenAllowed", [zeroAddress, true])).name).toBe("ZeroAddress");
    expect((await attempt(OPERATOR, "setTokenAllowed", [token, false])).name).toBe("VaultTokenAlwaysAllowed");
    expect((await attempt(OPERATOR, "setTokenAllowed", [token, true])).name).toBe("VaultTokenAlwaysAllowed");
    expect(await tokenAllowed(token)).toBe(true);
  });
});

describe("DepositVault.depositToken", () => {
  beforeEach(async () => {
    await call(OPERATOR, "setTokenAllowed", [other, true]);
  });

  it("takes a listed token for the member reference, with an event naming the token", async () => {
    await approve(MEMBER, parseEther("100"), other);
    const receipt = await call(MEMBER, "depositToken", [other, parseEther("100"), ref]);
    expect(await balanceOf(vault, other)).toBe(parseEther("100"));
    expect(await balanceOf(address(MEMBER), other)).toBe(parseEther("900"));
    expect(await balanceOf(vault)).toBe(0n);
    const [event] = parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "TokenDeposited" });
    expect(event!.args).toEqual({ token: getAddress(other), from: getAddress(address(MEMBER)), ref, amount: parseEther("100") });
    // The vault's own token's event is left to `deposit`: the scanner reading `Deposited` never sees this one twice.
    expect(parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "Deposited" })).toEqual([]);
  });

  it("takes the vault's own token too", async () => {
    await approve(MEMBER, parseEther("7"));
    const receipt = await call(MEMBER, "depositToken", [token, parseEther("7"), ref]);
    expect(await balanceOf(vault)).toBe(parseEther("7"));
    expect(parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "TokenDeposited" })[0]!.args.token).toBe(getAddress(token));
  });

  it("refuses a token not on the list, or taken off it", async () => {
    await approve(MEMBER, 1n, other);
    await call(OPERATOR, "setTokenAllowed", [other, false]);
    expect(await attempt(MEMBER, "depositToken", [other, 1n, ref])).toEqual({ name: "TokenNotAllowed", args: [getAddress(other)] });
    expect(await attempt(MEMBER, "depositToken", [address(OTHER), 1n, ref])).toEqual({ name: "TokenNotAllowed", args: [getAddress(address(OTHER))] });
  });

  it("refuses zero tokens, no allowance, and while paused", async () => {
    expect((await attempt(MEMBER, "depositToken", [other, 0n, ref])).name).toBe("ZeroAmount");
    expect((await attempt(MEMBER, "depositToken", [other, 1n, ref])).name).toBe("ERC20InsufficientAllowance");
    await approve(MEMBER, 1n, other);
    await call(ADMIN, "pause", []);
    expect((await attempt(MEMBER, "depositToken", [other, 1n, ref])).name).toBe("EnforcedPause");
  });
});

describe("DepositVault.withdrawToken", () => {
  beforeEach(async () => {
    await call(OPERATOR, "setTokenAllowed", [other, true]);
    await approve(MEMBER, parseEther("500"), other);
    await call(MEMBER, "depositToken", [other, parseEther("500"), ref]);
    await approve(MEMBER, parseEther("500"));
    await call(MEMBER, "deposit", [parseEther("500"), ref]);
  });

  it("pays the operator's withdrawal in a listed token, with an event naming it", async () => {
    const receipt = await call(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), parseEther("30")]);
    expect(await balanceOf(address(OTHER), other)).toBe(parseEther("30"));
    expect(await balanceOf(vault, other)).toBe(parseEther("470"));
    expect(await balanceOf(vault)).toBe(parseEther("500"));
    expect(await chain.publicClient.readContract({ address: vault, abi: depositVaultAbi, functionName: "withdrawalPaid", args: [withdrawalId(1)] })).toBe(true);
    const [event] = parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "TokenWithdrawn" });
    expect(event!.args).toEqual({
      withdrawalId: withdrawalId(1),
      token: getAddress(other),
      to: getAddress(address(OTHER)),
      amount: parseEther("30"),
      operator: getAddress(address(OPERATOR)),
    });
    expect(parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "Withdrawn" })).toEqual([]);
  });

  it("never pays an id twice, whichever token and whichever function paid it first", async () => {
    await call(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), parseEther("30")]);
    const again = { name: "WithdrawalAlreadyPaid", args: [withdrawalId(1)] };
    expect(await attempt(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), parseEther("30")])).toEqual(again);
    expect(await attempt(OPERATOR, "withdrawToken", [token, withdrawalId(1), address(OTHER), parseEther("30")])).toEqual(again);
    expect(await attempt(OPERATOR, "withdraw", [withdrawalId(1), address(OTHER), parseEther("30")])).toEqual(again);

    await call(OPERATOR, "withdraw", [withdrawalId(2), address(OTHER), parseEther("5")]);
    expect(await attempt(OPERATOR, "withdrawToken", [other, withdrawalId(2), address(OTHER), parseEther("5")])).toEqual({
      name: "WithdrawalAlreadyPaid",
      args: [withdrawalId(2)],
    });
    expect(await balanceOf(address(OTHER), other)).toBe(parseEther("30"));
    expect(await balanceOf(address(OTHER))).toBe(parseEther("5"));
  });

  it("pays the vault's own token too", async () => {
    await call(OPERATOR, "withdrawToken", [token, withdrawalId(1), address(OTHER), parseEther("2")]);
    expect(await balanceOf(address(OTHER))).toBe(parseEther("2"));
  });

  it("refuses a token taken off the list, and pays it again once listed", async () => {
    await call(OPERATOR, "setTokenAllowed", [other, false]);
    expect(await attempt(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), 1n])).toEqual({
      name: "TokenNotAllowed",
      args: [getAddress(other)],
    });
    await call(OPERATOR, "setTokenAllowed", [other, true]);
    await call(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), 1n]);
    expect(await balanceOf(address(OTHER), other)).toBe(1n);
  });

  it("refuses anyone but the operator, the zero address, zero tokens and more than the vault holds", async () => {
    expect((await attempt(ADMIN, "withdrawToken", [other, withdrawalId(1), address(OTHER), 1n])).name).toBe("AccessControlUnauthorizedAccount");
    expect((await attempt(OPERATOR, "withdrawToken", [other, withdrawalId(1), zeroAddress, 1n])).name).toBe("ZeroAddress");
    expect((await attempt(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), 0n])).name).toBe("ZeroAmount");
    expect((await attempt(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), parseEther("501")])).name).toBe("ERC20InsufficientBalance");
    expect(await chain.publicClient.readContract({ address: vault, abi: depositVaultAbi, functionName: "withdrawalPaid", args: [withdrawalId(1)] })).toBe(
      false,
    );
  });

  it("refuses while paused", async () => {
    await call(ADMIN, "pause", []);
    expect((await attempt(OPERATOR, "withdrawToken", [other, withdrawalId(1), address(OTHER), 1n])).name).toBe("EnforcedPause");
  });

  it("pays each distinct id once across both tokens and both functions, however often retried (property)", async () => {
    let base = await chain.snapshot();
    const pay = (id: number, inOther: boolean, viaWithdraw: boolean) =>
      viaWithdraw && !inOther
        ? (["withdraw", [withdrawalId(id), address(OTHER), parseEther("1")]] as const)
        : (["withdrawToken", [inOther ? other : token, withdrawalId(id), address(OTHER), parseEther("1")]] as const);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 8 }), async (tries) => {
        await chain.revert(base);
        base = await chain.snapshot();
        const paid = new Map<number, boolean>();
        for (const [id, inOther, viaWithdraw] of tries) {
          const [functionName, args] = pay(id, inOther, viaWithdraw);
          if (paid.has(id)) expect((await attempt(OPERATOR, functionName, args)).name).toBe("WithdrawalAlreadyPaid");
          else {
            await call(OPERATOR, functionName, args);
            paid.set(id, inOther);
          }
        }
        const inOther = [...paid.values()].filter(Boolean).length;
        expect(await balanceOf(address(OTHER), other)).toBe(parseEther("1") * BigInt(inOther));
        expect(await balanceOf(address(OTHER))).toBe(parseEther("1") * BigInt(paid.size - inOther));
      }),
      { numRuns: 10 },
    );
  });
});
