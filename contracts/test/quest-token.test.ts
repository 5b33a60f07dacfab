import { getAddress, parseEther, parseEventLogs, zeroAddress, type Address, type Hex } from "viem";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { questTokenAbi } from "../generated/quest-token.ts";
import { signPermit } from "./permit.ts";
import { revertOf, startTestChain, type TestChain } from "./test-chain.ts";

const CAP = parseEther("1000000");
const PRICE = parseEther("0.001");

let chain: TestChain;
let token: Address;
let snapshot: Hex;

beforeAll(async () => {
  chain = await startTestChain(import.meta.filename);
  const [admin] = chain.wallets;
  token = await chain.created(
    await admin!.deployContract({ abi: questTokenAbi, bytecode: chain.bytecode.QuestToken, args: ["Questline", "QUEST", CAP, admin!.account.address] }),
  );
});
afterAll(() => chain.stop());
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(async () => {
  await chain.revert(snapshot);
});

const read = <F extends "balanceOf" | "publicMinted" | "allowance" | "nonces" | "publicMintCost" | "totalSupply">(functionName: F, args: readonly unknown[]) =>
  chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName, args } as never) as Promise<bigint>;

async function write(walletIndex: number, functionName: string, args: readonly unknown[], value?: bigint) {
  const wallet = chain.wallets[walletIndex]!;
  const hash = await wallet.writeContract({ address: token, abi: questTokenAbi, functionName, args, value } as never);
  return chain.mined(hash);
}

function attempt(walletIndex: number, functionName: string, args: readonly unknown[], value?: bigint) {
  const wallet = chain.wallets[walletIndex]!;
  return revertOf(wallet.writeContract({ address: token, abi: questTokenAbi, functionName, args, value } as never), questTokenAbi);
}

const address = (index: number) => chain.wallets[index]!.account.address;

describe("QuestToken deployment", () => {
  it("has its name, symbol, cap and gives the admin both roles", async () => {
    const client = chain.publicClient;
    const at = { address: token, abi: questTokenAbi } as const;
    expect(await client.readContract({ ...at, functionName: "name" })).toBe("Questline");
    expect(await client.readContract({ ...at, functionName: "symbol" })).toBe("QUEST");
    expect(await client.readContract({ ...at, functionName: "decimals" })).toBe(18);
    expect(await client.readContract({ ...at, functionName: "cap" })).toBe(CAP);
    const minter = await client.readContract({ ...at, functionName: "MINTER_ROLE" });
    const admin = await client.readContract({ ...at, functionName: "DEFAULT_ADMIN_ROLE" });
    expect(await client.readContract({ ...at, functionName: "hasRole", args: [minter, address(0)] })).toBe(true);
    expect(await client.readContract({ ...at, functionName: "hasRole", args: [admin, address(0)] })).toBe(true);
    expect(await client.readContract({ ...at, functionName: "hasRole", args: [minter, address(1)] })).toBe(false);
    expect(await client.readContract({ ...at, functionName: "publicMintOpen" })).toBe(false);
  });

  it("refuses a zero admin", async () => {
    const error = await revertOf(
      chain.wallets[0]!.deployContract({ abi: questTokenAbi, bytecode: chain.bytecode.QuestToken, args: ["Q", "Q", CAP, zeroAddress] }),
      questTokenAbi,
    );
    expect(error.name).toBe("ZeroAddress");
  });
});

describe("QuestToken.mint", () => {
  it("mints for a minter, up to the cap", async () => {
    await write(0, "mint", [address(1), CAP - 1n]);
    expect(await read("balanceOf", [address(1)])).toBe(CAP - 1n);
    await write(0, "mint", [address(2), 1n]);
    expect(await read("totalSupply", [])).toBe(CAP);
  });

  it("refuses a mint past the cap", async () => {
    await write(0, "mint", [address(1), CAP]);
    const error = await attempt(0, "mint", [address(1), 1n]);
    expect(error).toEqual({ name: "ERC20ExceededCap", args: [CAP + 1n, CAP] });
  });

  it("refuses an account without the minter role", async () => {
    const error = await attempt(1, "mint", [address(1), 1n]);
    expect(error.name).toBe("AccessControlUnauthorizedAccount");
  });
});

describe("QuestToken public mint", () => {
  const open = (walletCap = parseEther("100"), price = PRICE, isOpen = true) => write(0, "configurePublicMint", [isOpen, price, walletCap]);

  it("lets the admin configure it, with an event", async () => {
    const receipt = await open();
    const [event] = parseEventLogs({ abi: questTokenAbi, logs: receipt.logs, eventName: "PublicMintConfigured" });
    expect(event!.args).toEqual({ open: true, price: PRICE, walletCap: parseEther("100") });
    expect(await chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "publicMintPrice" })).toBe(PRICE);
    expect(await chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "publicMintWalletCap" })).toBe(parseEther("100"));
  });

  it("refuses configuration by a non-admin", async () => {
    expect((await attempt(1, "configurePublicMint", [true, 1n, 1n])).name).toBe("AccessControlUnauthorizedAccount");
  });

  it("prices by the whole token, rounding up", async () => {
    await open();
    expect(await read("publicMintCost", [parseEther("2")])).toBe(2n * PRICE);
    expect(await read("publicMintCost", [1n])).toBe(1n);
  });

  it("sells at the price and counts per wallet", async () => {
    await open();
    const receipt = await write(1, "publicMint", [parseEther("60")], 60n * PRICE);
    const [event] = parseEventLogs({ abi: questTokenAbi, logs: receipt.logs, eventName: "PublicMinted" });
    expect(event!.args).toEqual({ wallet: getAddress(address(1)), amount: parseEther("60"), paid: 60n * PRICE });
    expect(await read("balanceOf", [address(1)])).toBe(parseEther("60"));
    expect(await read("publicMinted", [address(1)])).toBe(parseEther("60"));
    expect(await chain.publicClient.getBalance({ address: token })).toBe(60n * PRICE);
  });

  it("refuses while closed", async () => {
    await open(parseEther("100"), PRICE, false);
    expect((await attempt(1, "publicMint", [1n], 1n)).name).toBe("PublicMintClosed");
  });

  it("refuses zero tokens", async () => {
    await open();
    expect((await attempt(1, "publicMint", [0n], 0n)).name).toBe("ZeroAmount");
  });

  it("refuses a payment that is not the price", async () => {
    await open();
    expect(await attempt(1, "publicMint", [parseEther("1")], PRICE - 1n)).toEqual({ name: "WrongPayment", args: [PRICE, PRICE - 1n] });
    expect(await attempt(1, "publicMint", [parseEther("1")], PRICE + 1n)).toEqual({ name: "WrongPayment", args: [PRICE, PRICE + 1n] });
  });

  it("refuses past the wallet cap and says what is left", async () => {
    await open();
    await write(1, "publicMint", [parseEther("60")], 60n * PRICE);
    expect(await attempt(1, "publicMint", [parseEther("41")], 41n * PRICE)).toEqual({ name: "WalletCapExceeded", args: [parseEther("40")] });
    // Another wallet has its own allowance.
    await write(2, "publicMint", [parseEther("100")], 100n * PRICE);
  });

  it("says nothing is left when the admin lowered the cap below what a wallet took", async () => {
    await open();
    await write(1, "publicMint", [parseEther("60")], 60n * PRICE);
    await open(parseEther("50"));
    expect(await attempt(1, "publicMint", [1n], 1n)).toEqual({ name: "WalletCapExceeded", args: [0n] });
  });

  it("never passes the token cap", async () => {
    await open(CAP * 2n, 0n);
    await write(0, "mint", [address(0), CAP - 5n]);
    expect((await attempt(1, "publicMint", [6n], 0n)).name).toBe("ERC20ExceededCap");
  });
});

describe("QuestToken.withdrawProceeds", () => {
  beforeEach(async () => {
    await write(0, "configurePublicMint", [true, PRICE, parseEther("100")]);
    await write(1, "publicMint", [parseEther("10")], 10n * PRICE);
  });

  it("sends the whole balance to the admin's choice, with an event", async () => {
    const to = address(3);
    const before = await chain.publicClient.getBalance({ address: to });
    const receipt = await write(0, "withdrawProceeds", [to]);
    expect(await chain.publicClient.getBalance({ address: to })).toBe(before + 10n * PRICE);
    expect(await chain.publicClient.getBalance({ address: token })).toBe(0n);
    const [event] = parseEventLogs({ abi: questTokenAbi, logs: receipt.logs, eventName: "ProceedsWithdrawn" });
    expect(event!.args).toEqual({ to: getAddress(to), amount: 10n * PRICE });
  });

  it("refuses a non-admin", async () => {
    expect((await attempt(1, "withdrawProceeds", [address(1)])).name).toBe("AccessControlUnauthorizedAccount");
  });

  it("refuses the zero address", async () => {
    expect((await attempt(0, "withdrawProceeds", [zeroAddress])).name).toBe("ZeroAddress");
  });

  it("reports a recipient that refuses the coin", async () => {
    // The token itself has no receive function.
    expect((await attempt(0, "withdrawProceeds", [token])).name).toBe("ProceedsTransferFailed");
  });
});

describe("QuestToken permit", () => {
  it("sets an allowance from a signature, once", async () => {
    const owner = chain.wallets[1]!;
    const spender = address(2);
    const deadline = (await chain.now()) + 3600n;
    const value = parseEther("5");
    const { v, r, s } = await signPermit({ chain, walletIndex: 1, token, spender, value, deadline });
    await write(3, "permit", [owner.account.address, spender, value, deadline, v, r, s]);
    expect(await read("allowance", [owner.account.address, spender])).toBe(value);
    expect(await read("nonces", [owner.account.address])).toBe(1n);
    expect((await attempt(3, "permit", [owner.account.address, spender, value, deadline, v, r, s])).name).toBe("ERC2612InvalidSigner");
  });
});
