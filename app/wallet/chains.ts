import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";

/**
 * Every chain Questline knows, in one list: each entry is what viem's own chain object
 * (`viem/chains`, by the entry's `viem` name) says of it — id, name, native coin, explorer,
 * testnet — written out as plain values, because every page loads this module (the page shell
 * names networks) and viem's objects would come with it (a test checks each entry against
 * viem's). How each is reached and trusted (providers' endpoints, default confirmations) is
 * `chain-nodes.ts`, keyed by the same ids and kept out of the pages' first load; what a
 * deployment configures (nodes, contracts) is added by the server's chain registry
 * (app/modules/chain/chain-registry.server.ts). Adding a chain is one entry here and one there,
 * plus a deployment file where it should carry money.
 */
export type KnownChain = {
  id: number;
  /** The chain's export name in `viem/chains` (and `@reown/appkit/networks`). */
  viem: string;
  name: string;
  nativeSymbol: string;
  /** The block explorer's address, without a trailing slash; null where there is none. */
  explorer: string | null;
  testnet: boolean;
};

export const KNOWN_CHAINS: readonly KnownChain[] = [
  {
    id: 1,
    viem: "mainnet",
    name: "Ethereum",
    nativeSymbol: "ETH",
    explorer: "https://etherscan.io",
    testnet: false,
  },
  {
    id: 8453,
    viem: "base",
    name: "Base",
    nativeSymbol: "ETH",
    explorer: "https://basescan.org",
    testnet: false,
  },
  {
    id: 42161,
    viem: "arbitrum",
    name: "Arbitrum One",
    nativeSymbol: "ETH",
    explorer: "https://arbiscan.io",
    testnet: false,
  },
  {
    id: 10,
    viem: "optimism",
    name: "OP Mainnet",
    nativeSymbol: "ETH",
    explorer: "https://optimistic.etherscan.io",
    testnet: false,
  },
  {
    id: 137,
    viem: "polygon",
    name: "Polygon",
    nativeSymbol: "POL",
    explorer: "https://polygonscan.com",
    testnet: false,
  },
  {
    id: 56,
    viem: "bsc",
    name: "BNB Smart Chain",
    nativeSymbol: "BNB",
    explorer: "https://bscscan.com",
    testnet: false,
  },
  {
    id: 11155111,
    viem: "sepolia",
    name: "Sepolia",
    nativeSymbol: "ETH",
    explorer: "https://sepolia.etherscan.io",
    testnet: true,
  },
  {
    id: 84532,
    viem: "baseSepolia",
    name: "Base Sepolia",
    nativeSymbol: "ETH",
    explorer: "https://sepolia.basescan.org",
    testnet: true,
  },
  {
    id: 421614,
    viem: "arbitrumSepolia",
    name: "Arbitrum Sepolia",
    nativeSymbol: "ETH",
    explorer: "https://sepolia.arbiscan.io",
    testnet: true,
  },
  {
    id: 97,
    viem: "bscTestnet",
    name: "BNB Smart Chain Testnet",
    nativeSymbol: "tBNB",
    explorer: "https://testnet.bscscan.com",
    testnet: true,
  },
  {
    id: LOCAL_CHAIN_ID,
    viem: "anvil",
    name: "Questline Local",
    nativeSymbol: "ETH",
    explorer: null,
    testnet: true,
  },
];

const BY_ID = new Map(KNOWN_CHAINS.map((chain) => [chain.id, chain]));

/** The known chain with this id, if any. */
export const knownChain = (chainId: number): KnownChain | undefined => BY_ID.get(chainId);

/** Each known chain's name by id. */
export const CHAIN_NAMES: Readonly<Record<number, string>> = Object.fromEntries(KNOWN_CHAINS.map((chain) => [chain.id, chain.name]));

/** The native coin's symbol per known chain. */
export const NATIVE_SYMBOLS: Readonly<Record<number, string>> = Object.fromEntries(KNOWN_CHAINS.map((chain) => [chain.id, chain.nativeSymbol]));

/** An address shortened for display: `0x` and the first 4 characters after it, an ellipsis, the last 4 of a 42-character address. */
export function shortAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  if (address.length !== 42) return address;
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** The explorer's page of a transaction, or null where there is no explorer. */
export function explorerTxUrl(chainId: number, hash: string): string | null {
  const base = knownChain(chainId)?.explorer;
  return base ? `${base}/tx/${hash}` : null;
}
