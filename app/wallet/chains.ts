import { defineChain } from "viem";
import { bsc, sepolia } from "viem/chains";
import { LOCAL_CHAIN_ID } from "./chain-config";

export const localChain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: "Questline Local",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
  testnet: true,
});

/** The networks members connect and sign in on: BNB Smart Chain and Sepolia, plus the local chain in development. */
export function walletChains({ local }: { local: boolean }) {
  return local ? ([bsc, sepolia, localChain] as const) : ([bsc, sepolia] as const);
}

export const CHAIN_NAMES: Record<number, string> = {
  [bsc.id]: "BNB Smart Chain",
  [sepolia.id]: "Sepolia",
  [LOCAL_CHAIN_ID]: "Questline Local",
};

/** SPEC.md §9: `0x` and the first 4 characters after it, an ellipsis, the last 4 of a 42-character address. */
export function shortAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  if (address.length !== 42) return address;
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** The native coin's symbol per network. */
export const NATIVE_SYMBOLS: Record<number, string> = {
  [bsc.id]: "BNB",
  [sepolia.id]: "ETH",
  [LOCAL_CHAIN_ID]: "ETH",
};

/** Block explorers of our networks; the local chain has none. */
export const EXPLORERS: Record<number, string> = {
  [bsc.id]: "https://bscscan.com",
  [sepolia.id]: "https://sepolia.etherscan.io",
};

/** The explorer's page of a transaction, or null where there is no explorer. */
export function explorerTxUrl(chainId: number, hash: string): string | null {
  const base = EXPLORERS[chainId];
  return base ? `${base}/tx/${hash}` : null;
}
