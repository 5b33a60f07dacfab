import { describe, expect, it } from "vitest";
import { countdown, mintRefusal, saleClosedMessage, salePhase, saleRefusal, type SaleFacts } from "./checks";

const E18 = 10n ** 18n;
const mint = { open: true, price: 10n ** 15n, walletCap: 100n * E18, minted: 40n * E18, native: E18, token: "QUEST", coin: "ETH" };
const sale: SaleFacts = {
  now: 1000,
  startTime: 500,
  endTime: 2000,
  price: 5n * 10n ** 14n,
  hardCap: 1000n * E18,
  walletCap: 100n * E18,
  sold: 0n,
  bought: 0n,
  native: E18,
  token: "QUEST",
  coin: "ETH",
};

describe("pre-send checks", () => {
  it("mint: within the cap passes; over the cap, closed, or without the coin is refused", () => {
    expect(mintRefusal(60n * E18, mint)).toBeNull();
    expect(mintRefusal(61n * E18, mint)).toBe("That is over the limit of 100 QUEST per wallet: this wallet may mint 60 QUEST more.");
    expect(mintRefusal(1n, { ...mint, minted: 100n * E18 })).toBe("This wallet has minted its limit of 100 QUEST.");
    expect(mintRefusal(1n, { ...mint, open: false })).toBe("The public mint is closed right now.");
    expect(mintRefusal(0n, mint)).toBe("Enter an amount above 0.");
    expect(mintRefusal(10n * E18, { ...mint, native: 0n })).toBe("Not enough ETH: minting 10 QUEST costs 0.01 ETH, this wallet holds 0 ETH.");
  });

  it("sale: not started, ended, sold out, over the caps and without funds are each refused", () => {
    expect(saleRefusal(10n * E18, sale)).toBeNull();
    expect(saleRefusal(1n, { ...sale, now: 400 })).toBe("The sale has not started yet: it opens in 1m 40s.");
    expect(saleRefusal(1n, { ...sale, now: 2000 })).toBe("The sale has ended.");
    expect(saleRefusal(1n, { ...sale, sold: 1000n * E18 })).toBe("The sale is sold out.");
    expect(saleRefusal(20n * E18, { ...sale, sold: 990n * E18 })).toBe("Only 10 QUEST are left in the sale.");
    expect(saleRefusal(30n * E18, { ...sale, bought: 80n * E18 })).toBe("That is over the limit of 100 QUEST per wallet: this wallet may buy 20 QUEST more.");
    expect(saleRefusal(1n, { ...sale, bought: 100n * E18 })).toBe("This wallet has bought its limit of 100 QUEST.");
    expect(saleRefusal(10n * E18, { ...sale, native: 10n ** 15n })).toBe("Not enough ETH: 10 QUEST cost 0.005 ETH, this wallet holds 0.001 ETH.");
  });

  it("phases and countdowns", () => {
    expect(salePhase(sale)).toBe("live");
    expect(salePhase({ ...sale, now: 499 })).toBe("upcoming");
    expect(salePhase({ ...sale, now: 2000 })).toBe("ended");
    expect(saleClosedMessage(sale)).toBeNull();
    expect(countdown(93_784)).toBe("1d 2h 3m 4s");
    expect(countdown(59)).toBe("59s");
    expect(countdown(-5)).toBe("0s");
    expect(countdown(3600)).toBe("1h 0m 0s");
  });
});
