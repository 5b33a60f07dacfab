import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";

/**
 * How each chain of the list (`chains.ts`, by id) is reached and trusted: each node provider's
 * endpoint pattern (`{key}` is the provider's key) and the blocks an event needs (its own
 * included) before it counts, unless CONFIRMATIONS says otherwise. Apart from the list so that
 * pages do not load it; `chains.test.ts` checks both hold the same chains.
 */
export type NodeProvider = "ankr" | "infura" | "blast";

export type ChainNodes = { confirmations: number; endpoints: Partial<Record<NodeProvider, string>> };

export const CHAIN_NODES: Readonly<Record<number, ChainNodes>> = {
  // mainnet
  1: {
    confirmations: 12,
    endpoints: { ankr: "https://rpc.ankr.com/eth/{key}", infura: "https://mainnet.infura.io/v3/{key}", blast: "https://eth-mainnet.blastapi.io/{key}" },
  },
  // base
  8453: {
    confirmations: 10,
    endpoints: { ankr: "https://rpc.ankr.com/base/{key}", infura: "https://base-mainnet.infura.io/v3/{key}", blast: "https://base-mainnet.blastapi.io/{key}" },
  },
  // arbitrum
  42161: {
    confirmations: 10,
    endpoints: {
      ankr: "https://rpc.ankr.com/arbitrum/{key}",
      infura: "https://arbitrum-mainnet.infura.io/v3/{key}",
      blast: "https://arbitrum-one.blastapi.io/{key}",
    },
  },
  // optimism
  10: {
    confirmations: 10,
    endpoints: {
      ankr: "https://rpc.ankr.com/optimism/{key}",
      infura: "https://optimism-mainnet.infura.io/v3/{key}",
      blast: "https://optimism-mainnet.blastapi.io/{key}",
    },
  },
  // polygon
  137: {
    confirmations: 64,
    endpoints: {
      ankr: "https://rpc.ankr.com/polygon/{key}",
      infura: "https://polygon-mainnet.infura.io/v3/{key}",
      blast: "https://polygon-mainnet.blastapi.io/{key}",
    },
  },
  // bsc
  56: {
    confirmations: 15,
    endpoints: { ankr: "https://rpc.ankr.com/bsc/{key}", infura: "https://bsc-mainnet.infura.io/v3/{key}", blast: "https://bsc-mainnet.blastapi.io/{key}" },
  },
  // sepolia
  11155111: {
    confirmations: 6,
    endpoints: { ankr: "https://rpc.ankr.com/eth_sepolia/{key}", infura: "https://sepolia.infura.io/v3/{key}", blast: "https://eth-sepolia.blastapi.io/{key}" },
  },
  // baseSepolia
  84532: {
    confirmations: 6,
    endpoints: {
      ankr: "https://rpc.ankr.com/base_sepolia/{key}",
      infura: "https://base-sepolia.infura.io/v3/{key}",
      blast: "https://base-sepolia.blastapi.io/{key}",
    },
  },
  // arbitrumSepolia
  421614: {
    confirmations: 6,
    endpoints: {
      ankr: "https://rpc.ankr.com/arbitrum_sepolia/{key}",
      infura: "https://arbitrum-sepolia.infura.io/v3/{key}",
      blast: "https://arbitrum-sepolia.blastapi.io/{key}",
    },
  },
  // bscTestnet
  97: { confirmations: 6, endpoints: { ankr: "https://rpc.ankr.com/bsc_testnet_chapel/{key}", blast: "https://bsc-testnet.blastapi.io/{key}" } },
  // anvil
  [LOCAL_CHAIN_ID]: { confirmations: 1, endpoints: {} },
};
