import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";

/**
 * Every chain Questline knows, in one list: its id, name and native coin as viem's own chain object
 * (`viem/chains`) gives them, written out as plain values because every page loads this module
 * (the page shell names networks) and viem's objects would come with it. The rest of what
 * Questline knows of each — viem's export name, explorer, testnet, default confirmations, the node
 * providers' endpoints — is `chain-details.ts`, by the same ids, out of the pages' first load
 * (`chains.test.ts` checks both against viem's objects). What a deployment configures (nodes,
 * contracts) is added by the server's chain registry (app/modules/chain/chain-registry.server.ts).
 * Adding a chain is one entry here and one there, plus a deployment file where it should carry money.
 */
export type KnownChain = {
  id: number;
  name: string;
  nativeSymbol: string;
  /**
   * A local development chain (anvil): not a public network, so it is offered (sign-in, money)
   * only where this deployment runs a node for it, and viem's `anvil` object stands for it.
   */
  local?: true;
};

export const KNOWN_CHAINS: readonly KnownChain[] = [
  {
    id: 1,
    name: "Ethereum",
    nativeSymbol: "ETH",
  },
  {
    id: 8453,
    name: "Base",
    nativeSymbol: "ETH",
  },
  {
    id: 42161,
    name: "Arbitrum One",
    nativeSymbol: "ETH",
  },
  {
    id: 10,
    name: "OP Mainnet",
    nativeSymbol: "ETH",
  },
  {
    id: 137,
    name: "Polygon",
    nativeSymbol: "POL",
  },
  {
    id: 56,
    name: "BNB Smart Chain",
    nativeSymbol: "BNB",
  },
  {
    id: 11155111,
    name: "Sepolia",
    nativeSymbol: "ETH",
  },
  {
    id: 84532,
    name: "Base Sepolia",
    nativeSymbol: "ETH",
  },
  {
    id: 421614,
    name: "Arbitrum Sepolia",
    nativeSymbol: "ETH",
  },
  {
    id: 97,
    name: "BNB Smart Chain Testnet",
    nativeSymbol: "tBNB",
  },
  {
    id: LOCAL_CHAIN_ID,
    name: "Questline Local",
    nativeSymbol: "ETH",
    local: true,
  },
  {
    id: SECOND_LOCAL_CHAIN_ID,
    name: "Questline Local B",
    nativeSymbol: "ETH",
    local: true,
  },
];

const BY_ID = /* @__PURE__ */ new Map(KNOWN_CHAINS.map((chain) => [chain.id, chain]));

/** The known chain with this id, if any. */
export const knownChain = (chainId: number): KnownChain | undefined => BY_ID.get(chainId);

/** Each known chain's name by id. */
export const CHAIN_NAMES: Readonly<Record<number, string>> = /* @__PURE__ */ Object.fromEntries(KNOWN_CHAINS.map((chain) => [chain.id, chain.name]));

/** The native coin's symbol per known chain. */
export const NATIVE_SYMBOLS: Readonly<Record<number, string>> = /* @__PURE__ */ Object.fromEntries(KNOWN_CHAINS.map((chain) => [chain.id, chain.nativeSymbol]));

/** An address shortened for display: `0x` and the first 4 characters after it, an ellipsis, the last 4 of a 42-character address. */
export function shortAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  if (address.length !== 42) return address;
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
