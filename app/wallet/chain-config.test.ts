import { describe, expect, it } from "vitest";
import { arbitrum, base, blast, bsc, linea, sepolia } from "viem/chains";
import { chainTransport, ENDPOINT_CHAIN_IDS, LOCAL_CHAIN_ID, nodeEndpoints, RANK_INTERVAL_MS, RETRY_COUNT } from "./chain-config";
import { shortAddress } from "./chains";

const none = { rpc: null, ankr: null, infura: null, blast: null };

describe("node endpoints", () => {
  it("cover the six chains of SPEC.md §9", () => {
    expect([...ENDPOINT_CHAIN_IDS].sort()).toEqual([sepolia.id, bsc.id, arbitrum.id, base.id, linea.id, blast.id].sort());
  });

  it("come from every provider with a key, each URL keyed by its {key}", () => {
    const endpoints = nodeEndpoints({ ...none, ankr: "A1", infura: "I1" });
    expect(endpoints.get(bsc.id)).toEqual(["https://rpc.ankr.com/bsc/A1", "https://bsc-mainnet.infura.io/v3/I1"]);
    expect(endpoints.get(sepolia.id)).toEqual(["https://rpc.ankr.com/eth_sepolia/A1", "https://sepolia.infura.io/v3/I1"]);
    expect(endpoints.has(LOCAL_CHAIN_ID)).toBe(false);
  });

  it("include the local chain's RPC and nothing for providers without a key", () => {
    const endpoints = nodeEndpoints({ ...none, rpc: "http://127.0.0.1:8545" });
    expect([...endpoints]).toEqual([[LOCAL_CHAIN_ID, ["http://127.0.0.1:8545"]]]);
  });

  it("warn about and skip a chain a configured provider has no endpoint for", () => {
    const warnings: string[] = [];
    const endpoints = nodeEndpoints({ ...none, blast: "B1" }, (m) => warnings.push(m));
    expect(warnings).toEqual([`No blast endpoint for chain ${blast.id}; skipped`]);
    expect(endpoints.has(blast.id)).toBe(false);
    expect(endpoints.get(base.id)).toEqual(["https://base-mainnet.blastapi.io/B1"]);
  });

  it("are de-duplicated", () => {
    const table = { ankr: { [bsc.id]: "https://node.example/{key}" }, infura: { [bsc.id]: "https://node.example/{key}" }, blast: {} };
    const endpoints = nodeEndpoints({ ...none, ankr: "same", infura: "same" }, () => {}, table);
    expect(endpoints.get(bsc.id)).toEqual(["https://node.example/same"]);
  });

  it("escape keys", () => {
    expect(nodeEndpoints({ ...none, ankr: "a/b?c" }).get(bsc.id)).toEqual(["https://rpc.ankr.com/bsc/a%2Fb%3Fc"]);
  });
});

describe("chain transports", () => {
  it("rank the endpoints every 60 s and retry twice", () => {
    const transport = chainTransport(["http://127.0.0.1:1", "http://127.0.0.1:2"])({ chain: bsc });
    expect(transport.config.type).toBe("fallback");
    expect(transport.config.retryCount).toBe(RETRY_COUNT);
    expect(RANK_INTERVAL_MS).toBe(60_000);
    expect((transport.value as { transports: unknown[] }).transports).toHaveLength(2);
  });
});

describe("shortAddress", () => {
  it("keeps 0x and 4 characters, an ellipsis and the last 4 (SPEC.md §9)", () => {
    expect(shortAddress("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
    expect(shortAddress("")).toBeNull();
    expect(shortAddress(null)).toBeNull();
    expect(shortAddress(undefined)).toBeNull();
  });
});
