import { describe, expect, it } from "vitest";
import { checkAmount, costOf, formatAmount, MAX_TOKEN_UNITS, parseAmount, readTokenAmount, tokensFor } from "./token-amounts";

const E18 = 10n ** 18n;

describe("amounts", () => {
  it("parses plain decimals into 18-decimal units, and refuses anything else", () => {
    expect(parseAmount("1")).toBe(E18);
    expect(parseAmount(" 2.5 ")).toBe(25n * 10n ** 17n);
    expect(parseAmount(".5")).toBe(5n * 10n ** 17n);
    expect(parseAmount("1,000")).toBe(1000n * E18);
    expect(parseAmount("0.000000000000000001")).toBe(1n);
    for (const bad of ["", ".", "abc", "1e3", "-1", "1.2.3", "0x10", "0.0000000000000000001"]) expect(parseAmount(bad)).toBeNull();
  });

  it("parses and checks in a token's own decimals: 2.5 USDC is 2,500,000 units, and a seventh decimal is refused", () => {
    expect(parseAmount("2.5", 6)).toBe(2_500_000n);
    expect(parseAmount("1,000.000001", 6)).toBe(1_000_000_001n);
    expect(parseAmount("0.0000001", 6)).toBeNull();
    expect(readTokenAmount("0.000001", 6)).toBe(1n);
    expect(checkAmount("2.5", 6)).toEqual({ ok: true, units: 2_500_000n });
    expect(checkAmount("0.0000001", 6)).toEqual({ ok: false, code: "invalid", errors: { amount: "Enter a number, like 10 or 2.5 (at most 6 decimals)." } });
  });

  it("formats units with grouped thousands, trimmed decimals and a floor for tiny amounts", () => {
    expect(formatAmount(1234n * E18 + 5n * 10n ** 17n)).toBe("1,234.5");
    expect(formatAmount(0n)).toBe("0");
    expect(formatAmount(1n)).toBe("<0.0001");
    expect(formatAmount(123456789n * 10n ** 10n, { maxFraction: 8 })).toBe("1.23456789");
    expect(formatAmount(10_000n * E18, { group: false })).toBe("10000");
    // A token of 6 decimals (USDC) in its own units: 25.5 USDC is 25,500,000 units, not 18 decimals' dust.
    expect(formatAmount(25_500_000n, { decimals: 6 })).toBe("25.5");
    expect(formatAmount(1_234_000_001n, { decimals: 6, maxFraction: 6 })).toBe("1,234.000001");
    expect(formatAmount(1n, { decimals: 6 })).toBe("<0.0001");
    expect(formatAmount(7n, { decimals: 0 })).toBe("7");
  });

  it("converts between tokens and the native coin as the contracts do (cost rounded up, tokens down)", () => {
    const price = 10n ** 15n; // 0.001 per token
    expect(costOf(10n * E18, price)).toBe(10n ** 16n);
    expect(costOf(1n, price)).toBe(1n);
    expect(tokensFor(10n ** 16n, price)).toBe(10n * E18);
    const wei = 123_456_789n;
    expect(costOf(tokensFor(wei, 3n * 10n ** 14n), 3n * 10n ** 14n)).toBeLessThanOrEqual(wei);
    expect(tokensFor(1n, 0n)).toBe(0n);
  });

  it("checks typed amounts with one message each", () => {
    expect(checkAmount("")).toEqual({ ok: false, code: "invalid", errors: { amount: "Enter an amount." } });
    expect(checkAmount("ten")).toEqual({ ok: false, code: "invalid", errors: { amount: "Enter a number, like 10 or 2.5 (at most 18 decimals)." } });
    expect(checkAmount("0")).toEqual({ ok: false, code: "invalid", errors: { amount: "Enter an amount above 0." } });
    expect(checkAmount("-3")).toEqual({ ok: false, code: "invalid", errors: { amount: "Enter a number, like 10 or 2.5 (at most 18 decimals)." } });
    expect(checkAmount("3")).toEqual({ ok: true, units: 3n * E18 });
  });

  it("reads a token amount up to a uint256's units, and no further", () => {
    const most = formatAmount(MAX_TOKEN_UNITS, { maxFraction: 18, group: false });
    expect(readTokenAmount(most)).toBe(MAX_TOKEN_UNITS);
    expect(readTokenAmount(`${most}1`)).toBe("not-a-number");
    expect(readTokenAmount(formatAmount(MAX_TOKEN_UNITS + 1n, { maxFraction: 18, group: false }))).toBe("too-large");
    expect(readTokenAmount(`1${"0".repeat(80)}`)).toBe("too-large");
    expect(readTokenAmount("9".repeat(10_000))).toBe("too-large");
    expect(readTokenAmount("0")).toBe("not-positive");
    expect(checkAmount(`1${"0".repeat(80)}`)).toMatchObject({ ok: false, errors: { amount: expect.stringMatching(/^Enter an amount of at most 115,792,/) } });
  });
});
