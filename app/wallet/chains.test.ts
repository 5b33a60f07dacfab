import * as viemChains from "viem/chains";
import type { Chain } from "viem";
import { describe, expect, it } from "vitest";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { CHAIN_DETAILS, explorerTxUrl } from "./chain-details";
import { localChainOf } from "./chain-config";
import { CHAIN_NAMES, KNOWN_CHAINS, knownChain, NATIVE_SYMBOLS } from "./chains";

describe("the list of chains", () => {
  it("says of each chain what viem's own chain object says", () => {
    for (const known of KNOWN_CHAINS) {
      const details = CHAIN_DETAILS[known.id]!;
      const chain = (viemChains as unknown as Record<string, Chain>)[details.viem];
      expect(chain, details.viem).toBeDefined();
      expect(known.nativeSymbol, details.viem).toBe(chain!.nativeCurrency.symbol);
      // A local chain is anvil under an id of its own, named by us, without an explorer.
      if (known.local) {
        expect([details.viem, details.explorer, details.testnet], String(known.id)).toEqual(["anvil", null, true]);
        expect(localChainOf(known.id)).toMatchObject({ id: known.id, name: known.name, nativeCurrency: { symbol: known.nativeSymbol } });
        continue;
      }
      expect(chain!.id, details.viem).toBe(known.id);
      expect(known.name, details.viem).toBe(chain!.name);
      expect(details.explorer, details.viem).toBe(chain!.blockExplorers?.default.url);
      expect(details.testnet, details.viem).toBe(Boolean(chain!.testnet));
    }
  });

  it("holds the six main networks, four testnets and two local chains, each once", () => {
    expect(KNOWN_CHAINS.map((chain) => CHAIN_DETAILS[chain.id]?.viem)).toEqual([
      "mainnet",
      "base",
      "arbitrum",
      "optimism",
      "polygon",
      "bsc",
      "sepolia",
      "baseSepolia",
      "arbitrumSepolia",
      "bscTestnet",
      "anvil",
      "anvil",
    ]);
    expect(KNOWN_CHAINS.filter((chain) => chain.local).map((chain) => [chain.id, chain.name])).toEqual([
      [LOCAL_CHAIN_ID, "Questline Local"],
      [SECOND_LOCAL_CHAIN_ID, "Questline Local B"],
    ]);
    expect(() => localChainOf(1)).toThrow("Chain 1 is not a local chain of the list");
    expect(new Set(KNOWN_CHAINS.map((chain) => chain.id)).size).toBe(KNOWN_CHAINS.length);
    // How each is reached and trusted is kept beside it, for exactly the same chains.
    expect(Object.keys(CHAIN_DETAILS).map(Number).sort()).toEqual(KNOWN_CHAINS.map((chain) => chain.id).sort());
  });

  it("names, coins and explorer links come from it", () => {
    expect(CHAIN_NAMES[8453]).toBe("Base");
    expect(NATIVE_SYMBOLS[137]).toBe("POL");
    expect(explorerTxUrl(42161, "0xabc")).toBe("https://arbiscan.io/tx/0xabc");
    expect(explorerTxUrl(LOCAL_CHAIN_ID, "0xabc")).toBeNull();
    expect(explorerTxUrl(SECOND_LOCAL_CHAIN_ID, "0xabc")).toBeNull();
    expect(knownChain(SECOND_LOCAL_CHAIN_ID)?.local).toBe(true);
    expect(knownChain(8453)?.local).toBeUndefined();
  });
});
