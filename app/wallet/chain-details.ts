import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";

/**
 * The rest of what Questline knows of each chain of the list (`chains.ts`, by id), apart from it so
 * that the pages' first load does not carry it (`chains.test.ts` checks both hold the same chains
 * and that each says what viem's own chain object says):
 * - `viem`: the chain's export name in `viem/chains` (and `@reown/appkit/networks`); `anvil` for a
 *   local chain, whose id is its own;
 * - its block explorer (none for a local chain) and whether it is a testnet;
 * - the blocks an event needs (its own included) before it counts, unless CONFIRMATIONS says otherwise;
 * - each node provider's endpoint pattern (`{key}` is the provider's key).
 */
export type NodeProvider = "ankr" | "infura" | "blast";

export type ChainDetails = {
  viem: string;
  /** The block explorer's address, without a trailing slash; null where there is none. */
  explorer: string | null;
  testnet: boolean;
  confirmations: number;
  endpoints: Partial<Record<NodeProvider, string>>;
};

export const CHAIN_DETAILS: Readonly<Record<number, ChainDetails>> = {
  1: {
    viem: "mainnet",
    explorer: "https://etherscan.io",
    testnet: false,
    confirmations: 12,
    endpoints: { ankr: "https://rpc.ankr.com/eth/{key}", infura: "https://mainnet.infura.io/v3/{key}", blast: "https://eth-mainnet.blastapi.io/{key}" },
  },
  8453: {
    viem: "base",
    explorer: "https://basescan.org",
    testnet: false,
    confirmations: 10,
    endpoints: { ankr: "https://rpc.ankr.com/base/{key}", infura: "https://base-mainnet.infura.io/v3/{key}", blast: "https://base-mainnet.blastapi.io/{key}" },
  },
  42161: {
    viem: "arbitrum",
    explorer: "https://arbiscan.io",
    testnet: false,
    confirmations: 10,
    endpoints: {
      ankr: "https://rpc.ankr.com/arbitrum/{key}",
      infura: "https://arbitrum-mainnet.infura.io/v3/{key}",
      blast: "https://arbitrum-one.blastapi.io/{key}",
    },
  },
  10: {
    viem: "optimism",
    explorer: "https://optimistic.etherscan.io",
    testnet: false,
    confirmations: 10,
    endpoints: {
      ankr: "https://rpc.ankr.com/optimism/{key}",
      infura: "https://optimism-mainnet.infura.io/v3/{key}",
      blast: "https://optimism-mainnet.blastapi.io/{key}",
    },
  },
  137: {
    viem: "polygon",
    explorer: "https://polygonscan.com",
    testnet: false,
    confirmations: 64,
    endpoints: {
      ankr: "https://rpc.ankr.com/polygon/{key}",
      infura: "https://polygon-mainnet.infura.io/v3/{key}",
      blast: "https://polygon-mainnet.blastapi.io/{key}",
    },
  },
  56: {
    viem: "bsc",
    explorer: "https://bscscan.com",
    testnet: false,
    confirmations: 15,
    endpoints: { ankr: "https://rpc.ankr.com/bsc/{key}", infura: "https://bsc-mainnet.infura.io/v3/{key}", blast: "https://bsc-mainnet.blastapi.io/{key}" },
  },
  11155111: {
    viem: "sepolia",
    explorer: "https://sepolia.etherscan.io",
    testnet: true,
    confirmations: 6,
    endpoints: { ankr: "https://rpc.ankr.com/eth_sepolia/{key}", infura: "https://sepolia.infura.io/v3/{key}", blast: "https://eth-sepolia.blastapi.io/{key}" },
  },
  84532: {
    viem: "baseSepolia",
    explorer: "https://sepolia.basescan.org",
    testnet: true,
    confirmations: 6,
    endpoints: {
      ankr: "https://rpc.ankr.com/base_sepolia/{key}",
      infura: "https://base-sepolia.infura.io/v3/{key}",
      blast: "https://base-sepolia.blastapi.io/{key}",
    },
  },
  421614: {
    viem: "arbitrumSepolia",
    explorer: "https://sepolia.arbiscan.io",
    testnet: true,
    confirmations: 6,
    endpoints: {
      ankr: "https://rpc.ankr.com/arbitrum_sepolia/{key}",
      infura: "https://arbitrum-sepolia.infura.io/v3/{key}",
      blast: "https://arbitrum-sepolia.blastapi.io/{key}",
    },
  },
  97: {
    viem: "bscTestnet",
    explorer: "https://testnet.bscscan.com",
    testnet: true,
    confirmations: 6,
    endpoints: { ankr: "https://rpc.ankr.com/bsc_testnet_chapel/{key}", blast: "https://bsc-testnet.blastapi.io/{key}" },
  },
  [LOCAL_CHAIN_ID]: {
    viem: "anvil",
    explorer: null,
    testnet: true,
    confirmations: 1,
    endpoints: {},
  },
  [SECOND_LOCAL_CHAIN_ID]: {
    viem: "anvil",
    explorer: null,
    testnet: true,
    confirmations: 1,
    endpoints: {},
  },
};

/** The explorer's page of a transaction, or null where there is no explorer. */
export function explorerTxUrl(chainId: number, hash: string): string | null {
  const base = CHAIN_DETAILS[chainId]?.explorer;
  return base ? `${base}/tx/${hash}` : null;
}
