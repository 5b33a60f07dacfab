import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";

// Plain numbers rather than viem's chain objects: every page loads this module (the page shell
// names networks), and those objects would come with it.
const BSC_ID = 56;
const SEPOLIA_ID = 11155111;

export const CHAIN_NAMES: Record<number, string> = {
  [BSC_ID]: "BNB Smart Chain",
  [SEPOLIA_ID]: "Sepolia",
  [LOCAL_CHAIN_ID]: "Questline Local",
};

/** An address shortened for display: `0x` and the first 4 characters after it, an ellipsis, the last 4 of a 42-character address. */
export function shortAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  if (address.length !== 42) return address;
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** The native coin's symbol per network. */
export const NATIVE_SYMBOLS: Record<number, string> = {
  [BSC_ID]: "BNB",
  [SEPOLIA_ID]: "ETH",
  [LOCAL_CHAIN_ID]: "ETH",
};

/** Block explorers of our networks; the local chain has none. */
export const EXPLORERS: Record<number, string> = {
  [BSC_ID]: "https://bscscan.com",
  [SEPOLIA_ID]: "https://sepolia.etherscan.io",
};

/** The explorer's page of a transaction, or null where there is no explorer. */
export function explorerTxUrl(chainId: number, hash: string): string | null {
  const base = EXPLORERS[chainId];
  return base ? `${base}/tx/${hash}` : null;
}
