import { z } from "zod";
import { formatAmount } from "~/lib/token-amounts";

/**
 * An asset the ledger keeps: a token symbol and the chain it lives on, written `QUEST:31337`.
 * The same token on two chains is two assets: a deposit on one chain is withdrawn on that chain.
 */
export type Asset = `${string}:${number}`;

export const assetSchema = z
  .string()
  .regex(/^[A-Z][A-Z0-9]{1,11}:[1-9]\d{0,11}$/, "must be a token symbol and chain id, e.g. QUEST:31337")
  .transform((value) => value as Asset);

/** Questline's token: 18 decimals on every chain. */
export const QUEST_DECIMALS = 18;

/** A token's asset on one chain: `assetOf("USDC", 31337)` is `USDC:31337`. */
export const assetOf = (symbol: string, chainId: number): Asset => `${symbol}:${chainId}`;

export const questAsset = (chainId: number): Asset => assetOf("QUEST", chainId);

export function assetParts(asset: Asset): { symbol: string; chainId: number } {
  const [symbol, chainId] = asset.split(":");
  return { symbol: symbol!, chainId: Number(chainId) };
}

/**
 * "1,250.5 QUEST": an amount of an asset in words, exact to its last base unit, in the asset's
 * `decimals` (QUEST's 18 unless given: the chain entry's token names them, USDC's 6).
 */
export const assetAmount = (units: bigint, asset: Asset, decimals = QUEST_DECIMALS) =>
  `${formatAmount(units, { maxFraction: decimals, decimals })} ${assetParts(asset).symbol}`;
