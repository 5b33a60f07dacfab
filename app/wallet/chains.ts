import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";

/**
 * Every chain Questline knows, in one list: each entry is what viem's own chain object
 * (`viem/chains`, by the entry's `viem` name) says of it — id, name, native coin, explorer,
 * testnet — written out as plain values, because every page loads this module (the page shell
 * names networks) and viem's objects would come with it (a test checks each entry against
 * viem's). What a deployment configures for each chain (nodes, contracts, confirmations) is added
 * by the server's chain registry (app/modules/chain/chain-registry.server.ts). Adding a chain is
 * one entry here, plus a deployment file where it should carry money.
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
  /** Blocks an event needs (its own included) before it counts, unless CONFIRMATIONS says otherwise. */
  confirmations: number;
  /** Each node provider's endpoint on this chain; `{key}` is the provider's key. */
  endpoints: Partial<Record<NodeProvider, string>>;
};

export type NodeProvider = "ankr" | "infura" | "blast";

export const KNOWN_CHAINS: readonly KnownChain[] = [
  {
    id: 1,
    viem: "mainnet",
    name: "Ethereum",
    nativeSymbol: "ETH",
    explorer: "https://etherscan.io",
    testnet: false,
    confirmations: 12,
    endpoints: { ankr: "https://rpc.ankr.com/eth/{key}", infura: "https://mainnet.infura.io/v3/{key}", blast: "https://eth-mainnet.blastapi.io/{key}" },
  },
  {
    id: 8453,
    viem: "base",
    name: "Base",
    nativeSymbol: "ETH",
    explorer: "https://basescan.org",
    testnet: false,
    confirmations: 10,
    endpoints: { ankr: "https://rpc.ankr.com/base/{key}", infura: "https://base-mainnet.infura.io/v3/{key}", blast: "https://base-mainnet.blastapi.io/{key}" },
  },
  {
    id: 42161,
    viem: "arbitrum",
    name: "Arbitrum One",
    nativeSymbol: "ETH",
    explorer: "https://arbiscan.io",
    testnet: false,
    confirmations: 10,
    endpoints: {
      ankr: "https://rpc.ankr.com/arbitrum/{key}",
      infura: "https://arbitrum-mainnet.infura.io/v3/{key}",
      blast: "https://arbitrum-one.blastapi.io/{key}",
    },
  },
  {
    id: 10,
    viem: "optimism",
    name: "OP Mainnet",
    nativeSymbol: "ETH",
    explorer: "https://optimistic.etherscan.io",
    testnet: false,
    confirmations: 10,
    endpoints: {
      ankr: "https://rpc.ankr.com/optimism/{key}",
      infura: "https://optimism-mainnet.infura.io/v3/{key}",
      blast: "https://optimism-mainnet.blastapi.io/{key}",
    },
  },
  {
    id: 137,
    viem: "polygon",
    name: "Polygon",
    nativeSymbol: "POL",
    explorer: "https://polygonscan.com",
    testnet: false,
    confirmations: 64,
    endpoints: {
      ankr: "https://rpc.ankr.com/polygon/{key}",
      infura: "https://polygon-mainnet.infura.io/v3/{key}",
      blast: "https://polygon-mainnet.blastapi.io/{key}",
    },
  },
  {
    id: 56,
    viem: "bsc",
    name: "BNB Smart Chain",
    nativeSymbol: "BNB",
    explorer: "https://bscscan.com",
    testnet: false,
    confirmations: 15,
    endpoints: { ankr: "https://rpc.ankr.com/bsc/{key}", infura: "https://bsc-mainnet.infura.io/v3/{key}", blast: "https://bsc-mainnet.blastapi.io/{key}" },
  },
  {
    id: 11155111,
    viem: "sepolia",
    name: "Sepolia",
    nativeSymbol: "ETH",
    explorer: "https://sepolia.etherscan.io",
    testnet: true,
    confirmations: 6,
    endpoints: { ankr: "https://rpc.ankr.com/eth_sepolia/{key}", infura: "https://sepolia.infura.io/v3/{key}", blast: "https://eth-sepolia.blastapi.io/{key}" },
  },
  {
    id: 84532,
    viem: "baseSepolia",
    name: "Base Sepolia",
    nativeSymbol: "ETH",
    explorer: "https://sepolia.basescan.org",
    testnet: true,
    confirmations: 6,
    endpoints: {
      ankr: "https://rpc.ankr.com/base_sepolia/{key}",
      infura: "https://base-sepolia.infura.io/v3/{key}",
      blast: "https://base-sepolia.blastapi.io/{key}",
    },
  },
  {
    id: 421614,
    viem: "arbitrumSepolia",
    name: "Arbitrum Sepolia",
    nativeSymbol: "ETH",
    explorer: "https://sepolia.arbiscan.io",
    testnet: true,
    confirmations: 6,
    endpoints: {
      ankr: "https://rpc.ankr.com/arbitrum_sepolia/{key}",
      infura: "https://arbitrum-sepolia.infura.io/v3/{key}",
      blast: "https://arbitrum-sepolia.blastapi.io/{key}",
    },
  },
  {
    id: 97,
    viem: "bscTestnet",
    name: "BNB Smart Chain Testnet",
    nativeSymbol: "tBNB",
    explorer: "https://testnet.bscscan.com",
    testnet: true,
    confirmations: 6,
    endpoints: { ankr: "https://rpc.ankr.com/bsc_testnet_chapel/{key}", blast: "https://bsc-testnet.blastapi.io/{key}" },
  },
  {
    id: LOCAL_CHAIN_ID,
    viem: "anvil",
    name: "Questline Local",
    nativeSymbol: "ETH",
    explorer: null,
    testnet: true,
    confirmations: 1,
    endpoints: {},
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
