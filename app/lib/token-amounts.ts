/**
 * Token and native-coin amounts, kept as bigint units: 18 decimals unless a token's own are given
 * (USDC's 6). No viem here: this runs in page bundles.
 */
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";

const DECIMALS = 18;
const ONE = 10n ** BigInt(DECIMALS);

const NUMBER = /^(\d+)?(?:\.(\d*))?$/;

/**
 * "2.5" → 2.5 × 10¹⁸ units (2.5 × 10⁶ with `decimals` 6); null for anything that is not a plain
 * decimal number with at most that many decimals.
 */
export function parseAmount(text: string, decimals = DECIMALS): bigint | null {
  const trimmed = text.trim().replace(/,/g, "");
  const match = NUMBER.exec(trimmed);
  if (!match || trimmed === "" || trimmed === ".") return null;
  const [, whole = "", fraction = ""] = match;
  if (fraction.length > decimals) return null;
  return BigInt(whole || "0") * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
}

/**
 * 2.5 × 10¹⁸ units → "2.5"; `maxFraction` digits at most (rounded down), thousands grouped. A token
 * of other `decimals` (USDC's 6) gives its own: 2.5 × 10⁶ units of 6 decimals → "2.5".
 */
export function formatAmount(
  units: bigint,
  { maxFraction = 4, group = true, decimals = DECIMALS }: { maxFraction?: number; group?: boolean; decimals?: number } = {},
): string {
  const sign = units < 0n ? "-" : "";
  const abs = units < 0n ? -units : units;
  const one = 10n ** BigInt(decimals);
  const whole = abs / one;
  const fraction = (abs % one).toString().padStart(decimals, "0").slice(0, maxFraction).replace(/0+$/, "");
  if (abs !== 0n && whole === 0n && !fraction) return `${sign}<${maxFraction > 0 ? `0.${"0".repeat(maxFraction - 1)}1` : "1"}`;
  const wholeText = group ? whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",") : whole.toString();
  return `${sign}${wholeText}${fraction ? `.${fraction}` : ""}`;
}

/** Wei to pay for `amount` token units at `price` wei per whole token, rounded up (the contracts' `cost`). */
export function costOf(amount: bigint, price: bigint): bigint {
  const product = amount * price;
  return product / ONE + (product % ONE === 0n ? 0n : 1n);
}

/** Token units `wei` buys at `price` wei per whole token, rounded down, so that `costOf(result) ≤ wei`. */
export function tokensFor(wei: bigint, price: bigint): bigint {
  if (price === 0n) return 0n;
  return (wei * ONE) / price;
}

/** The most units one token amount can be: a `uint256`, the contracts' type (the ledger's `numeric(78, 0)` holds more). */
export const MAX_TOKEN_UNITS = 2n ** 256n - 1n;
/** `MAX_TOKEN_UNITS` in whole tokens, as a form's message shows it. */
export const MAX_TOKENS_TEXT = formatAmount(MAX_TOKEN_UNITS, { maxFraction: 0 });

/** What is wrong with a token amount: not a number, not above 0, or more than a token can count. */
export type TokenAmountProblem = "not-a-number" | "not-positive" | "too-large";

/**
 * A positive token amount as typed ("2.5", "1,000"), as units no larger than a `uint256`, or what is
 * wrong with it. Every form that takes a token amount reads it here, so none lets through an amount
 * the chain or the ledger cannot hold.
 */
export function readTokenAmount(text: string, decimals = DECIMALS): bigint | TokenAmountProblem {
  const units = parseAmount(text, decimals);
  if (units === null) return "not-a-number";
  if (units <= 0n) return "not-positive";
  if (units > MAX_TOKEN_UNITS) return "too-large";
  return units;
}

/** The words for the larger-than-a-token refusal, after "Enter …: ". */
export const TOO_LARGE_WORDS = `at most ${MAX_TOKENS_TEXT}, the most a token can count`;

/**
 * A positive amount typed by the member, as token (or native-coin) units, or the first thing wrong
 * with it (on the `amount` field; a screen whose field has another name shows `failureMessage`).
 * `decimals`: the token's own (18 unless given).
 */
export function checkAmount(text: string, decimals = DECIMALS): Ok<{ units: bigint }> | FieldFailure {
  if (text.trim() === "") return invalid("amount", "Enter an amount.");
  const units = readTokenAmount(text, decimals);
  if (units === "not-a-number") return invalid("amount", `Enter a number, like 10 or 2.5 (at most ${decimals} decimals).`);
  if (units === "not-positive") return invalid("amount", "Enter an amount above 0.");
  if (units === "too-large") return invalid("amount", `Enter an amount of ${TOO_LARGE_WORDS}.`);
  return ok({ units });
}
