import fc from "fast-check";
import { getAddress, parseEther, parseEventLogs, zeroAddress, type Address, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { questTokenAbi } from "../generated/quest-token.ts";
import { tokenSaleAbi } from "../generated/token-sale.ts";
import { revertOf, startTestChain, type TestChain } from "./test-chain.ts";

const PRICE = parseEther("0.0005");
const HARD_CAP = parseEther("1000");
const WALLET_CAP = parseEther("300");
const abis = [...tokenSaleAbi, ...questTokenAbi];

let chain: TestChain;
let token: Address;
let sale: Address;
let start: bigint;
let end: bigint;
let snapshot: Hex;

async function deploySale(args: { token?: Address; start?: bigint; end?: bigint; hardCap?: bigint; walletCap?: bigint; owner?: Address }) {
  const owner = chain.wallets[0]!;
  return owner.deployContract({
    abi: tokenSaleAbi,
    bytecode: chain.bytecode.TokenSale,
    args: [
      args.token ?? token,
      PRICE,
      args.start ?? start,
      args.end ?? end,
      args.hardCap ?? HARD_CAP,
      args.walletCap ?? WALLET_CAP,
      args.owner ?? owner.account.address,
    ],
  });
}

beforeAll(async () => {
  chain = await startTestChain(import.meta.filename);
  const admin = chain.wallets[0]!;
  token = await chain.created(
    await admin.deployContract({
      abi: questTokenAbi,
      bytecode: chain.bytecode.QuestToken,
      args: ["Questline", "QUEST", parseEther("1000000"), admin.account.address],
    }),
  );
  start = (await chain.now()) + 1000n;
  end = start + 86_400n;
  sale = await chain.created(await deploySale({}));
  const minter = await chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "MINTER_ROLE" });
  await chain.mined(await admin.writeContract({ address: token, abi: questTokenAbi, functionName: "grantRole", args: [minter, sale] }));
});
afterAll(() => chain.stop());
beforeEach(async () => {
  snapshot = await chain.snapshot();
});
afterEach(async () => {
  await chain.revert(snapshot);
});

const address = (index: number) => chain.wallets[index]!.account.address;
const cost = (amount: bigint) => (amount * PRICE + parseEther("1") - 1n) / parseEther("1");
const buy = async (walletIndex: number, amount: bigint, value = cost(amount)) =>
  chain.mined(await chain.wallets[walletIndex]!.writeContract({ address: sale, abi: tokenSaleAbi, functionName: "buy", args: [amount], value }));
const attemptBuy = (walletIndex: number, amount: bigint, value = cost(amount)) =>
  revertOf(chain.wallets[walletIndex]!.writeContract({ address: sale, abi: tokenSaleAbi, functionName: "buy", args: [amount], value }), abis);
const readSale = <F extends "sold" | "bought" | "cost">(functionName: F, args: readonly unknown[] = []) =>
  chain.publicClient.readContract({ address: sale, abi: tokenSaleAbi, functionName, args } as never) as Promise<bigint>;
const balanceOf = (account: Address) => chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [account] });
const open = () => chain.setNextTimestamp(start);

describe("TokenSale deployment", () => {
  it("keeps its terms", async () => {
    const at = { address: sale, abi: tokenSaleAbi } as const;
    const client = chain.publicClient;
    expect(await client.readContract({ ...at, functionName: "token" })).toBe(getAddress(token));
    expect(await client.readContract({ ...at, functionName: "price" })).toBe(PRICE);
    expect(await client.readContract({ ...at, functionName: "startTime" })).toBe(start);
    expect(await client.readContract({ ...at, functionName: "endTime" })).toBe(end);
    expect(await client.readContract({ ...at, functionName: "hardCap" })).toBe(HARD_CAP);
    expect(await client.readContract({ ...at, functionName: "walletCap" })).toBe(WALLET_CAP);
    expect(await client.readContract({ ...at, functionName: "owner" })).toBe(getAddress(address(0)));
  });

  it("refuses a zero token or owner", async () => {
    expect((await revertOf(deploySale({ token: zeroAddress }), abis)).name).toBe("ZeroAddress");
    expect((await revertOf(deploySale({ owner: zeroAddress }), abis)).name).toBe("OwnableInvalidOwner");
  });

  it("refuses an empty window", async () => {
    expect(await revertOf(deploySale({ end: start }), abis)).toEqual({ name: "InvalidWindow", args: [start, start] });
    expect((await revertOf(deploySale({ end: start - 1n }), abis)).name).toBe("InvalidWindow");
  });

  it("refuses a zero wallet cap or one above the hard cap", async () => {
    expect(await revertOf(deploySale({ walletCap: 0n }), abis)).toEqual({ name: "InvalidCaps", args: [HARD_CAP, 0n] });
    expect(await revertOf(deploySale({ walletCap: HARD_CAP + 1n }), abis)).toEqual({ name: "InvalidCaps", args: [HARD_CAP, HARD_CAP + 1n] });
    await chain.created(await deploySale({ walletCap: HARD_CAP }));
  });
});

describe("TokenSale.buy", () => {
  it("delivers the tokens at once and records the purchase", async () => {
    await open();
    const amount = parseEther("100");
    const receipt = await buy(1, amount);
    expect(await balanceOf(address(1))).toBe(amount);
    expect(await readSale("sold")).toBe(amount);
    expect(await readSale("bought", [address(1)])).toBe(amount);
    expect(await chain.publicClient.getBalance({ address: sale })).toBe(cost(amount));
    const [event] = parseEventLogs({ abi: tokenSaleAbi, logs: receipt.logs, eventName: "Purchased" });
    expect(event!.args).toEqual({ buyer: getAddress(address(1)), amount, paid: cost(amount) });
  });

  it("prices by the whole token, rounding up", async () => {
    expect(await readSale("cost", [parseEther("2")])).toBe(2n * PRICE);
    expect(await readSale("cost", [1n])).toBe(1n);
  });

  it("refuses before the start", async () => {
    expect(await attemptBuy(1, 1n)).toEqual({ name: "SaleNotStarted", args: [start] });
  });

  it("refuses after the end", async () => {
    await chain.setNextTimestamp(end + 1n);
    expect(await attemptBuy(1, 1n)).toEqual({ name: "SaleEnded", args: [end] });
  });

  it("refuses zero tokens", async () => {
    await open();
    expect((await attemptBuy(1, 0n)).name).toBe("ZeroAmount");
  });

  it("refuses a payment that is not the price", async () => {
    await open();
    expect(await attemptBuy(1, parseEther("1"), PRICE - 1n)).toEqual({ name: "WrongPayment", args: [PRICE, PRICE - 1n] });
    expect(await attemptBuy(1, parseEther("1"), PRICE + 1n)).toEqual({ name: "WrongPayment", args: [PRICE, PRICE + 1n] });
  });

  it("refuses past the wallet cap and says what the wallet has left", async () => {
    await open();
    await buy(1, parseEther("250"));
    expect(await attemptBuy(1, parseEther("51"))).toEqual({ name: "WalletCapExceeded", args: [parseEther("50")] });
    await buy(1, parseEther("50"));
  });

  it("refuses past the hard cap and says what the sale has left", async () => {
    await open();
    for (const wallet of [1, 2, 3]) await buy(wallet, WALLET_CAP);
    expect(await attemptBuy(4, parseEther("101"))).toEqual({ name: "HardCapExceeded", args: [parseEther("100")] });
    await buy(4, parseEther("100"));
    expect(await readSale("sold")).toBe(HARD_CAP);
  });

  it("fails when the sale may not mint", async () => {
    await open();
    const minter = await chain.publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "MINTER_ROLE" });
    await chain.mined(await chain.wallets[0]!.writeContract({ address: token, abi: questTokenAbi, functionName: "revokeRole", args: [minter, sale] }));
    expect((await attemptBuy(1, 1n)).name).toBe("AccessControlUnauthorizedAccount");
  });

  it("never sells past either cap, whatever the purchases (property)", async () => {
    await open();
    // anvil drops a snapshot when it reverts to it: each run takes it again.
    let base = await chain.snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ wallet: fc.integer({ min: 1, max: 5 }), amount: fc.bigInt({ min: 1n, max: WALLET_CAP + 10n }) }), { minLength: 1, maxLength: 8 }),
        async (purchases) => {
          await chain.revert(base);
          base = await chain.snapshot();
          const expected = new Map<number, bigint>();
          let sold = 0n;
          for (const { wallet, amount } of purchases) {
            const mine = expected.get(wallet) ?? 0n;
            const fits = sold + amount <= HARD_CAP && mine + amount <= WALLET_CAP;
            if (fits) {
              await buy(wallet, amount);
              sold += amount;
              expected.set(wallet, mine + amount);
            } else {
              const error = await attemptBuy(wallet, amount);
              expect(["HardCapExceeded", "WalletCapExceeded"]).toContain(error.name);
            }
          }
          expect(await readSale("sold")).toBe(sold);
          expect(sold).toBeLessThanOrEqual(HARD_CAP);
          for (const [wallet, amount] of expected) expect(await balanceOf(address(wallet))).toBe(amount);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe("TokenSale.withdraw", () => {
  beforeEach(async () => {
    await open();
    await buy(1, parseEther("10"));
  });

  it("sends the proceeds to the owner's choice, with an event", async () => {
    const before = await chain.publicClient.getBalance({ address: address(5) });
    const receipt = await chain.mined(
      await chain.wallets[0]!.writeContract({ address: sale, abi: tokenSaleAbi, functionName: "withdraw", args: [address(5)] }),
    );
    expect(await chain.publicClient.getBalance({ address: address(5) })).toBe(before + cost(parseEther("10")));
    const [event] = parseEventLogs({ abi: tokenSaleAbi, logs: receipt.logs, eventName: "ProceedsWithdrawn" });
    expect(event!.args).toEqual({ to: getAddress(address(5)), amount: cost(parseEther("10")) });
  });

  const attemptWithdraw = (walletIndex: number, to: Address) =>
    revertOf(chain.wallets[walletIndex]!.writeContract({ address: sale, abi: tokenSaleAbi, functionName: "withdraw", args: [to] }), abis);

  it("refuses anyone but the owner", async () => {
    expect((await attemptWithdraw(1, address(1))).name).toBe("OwnableUnauthorizedAccount");
  });

  it("refuses the zero address", async () => {
    expect((await attemptWithdraw(0, zeroAddress)).name).toBe("ZeroAddress");
  });

  it("reports a recipient that refuses the coin", async () => {
    expect((await attemptWithdraw(0, token)).name).toBe("ProceedsTransferFailed");
  });
});
