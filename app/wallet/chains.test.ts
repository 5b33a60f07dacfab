import * as viemChains from "viem/chains";
import type { Chain } from "viem";
import { describe, expect, it } from "vitest";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { CHAIN_DETAILS, explorerTxUrl } from "./chain-details";
import { CHAIN_NAMES, KNOWN_CHAINS, NATIVE_SYMBOLS } from "./chains";

describe("the list of chains", () => {
  it("says of each chain what viem's own chain object says", () => {
    for (const known of KNOWN_CHAINS) {
      const details = CHAIN_DETAILS[known.id]!;
      const chain = (viemChains as unknown as Record<string, Chain>)[details.viem];
      expect(chain, details.viem).toBeDefined();
      expect(chain!.id, details.viem).toBe(known.id);
      expect(known.nativeSymbol, details.viem).toBe(chain!.nativeCurrency.symbol);
      if (known.id === LOCAL_CHAIN_ID) continue;
      expect(known.name, details.viem).toBe(chain!.name);
      expect(details.explorer, details.viem).toBe(chain!.blockExplorers?.default.url);
      expect(details.testnet, details.viem).toBe(Boolean(chain!.testnet));
    }
  });

  it("holds the six main networks, four testnets and the local chain, each once", () => {
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
    ]);
    expect(new Set(KNOWN_CHAINS.map((chain) => chain.id)).size).toBe(KNOWN_CHAINS.length);
    // How each is reached and trusted is kept beside it, for exactly the same chains.
    expect(Object.keys(CHAIN_DETAILS).map(Number).sort()).toEqual(KNOWN_CHAINS.map((chain) => chain.id).sort());
  });

  it("names, coins and explorer links come from it", () => {
    expect(CHAIN_NAMES[8453]).toBe("Base");
    expect(NATIVE_SYMBOLS[137]).toBe("POL");
    expect(explorerTxUrl(42161, "0xabc")).toBe("https://arbiscan.io/tx/0xabc");
    expect(explorerTxUrl(LOCAL_CHAIN_ID, "0xabc")).toBeNull();
  });
});
