import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { base, bsc, bscTestnet, sepolia } from "viem/chains";
import { chainTransport, ENDPOINT_CHAIN_IDS, nodeEndpoints, RANK_INTERVAL_MS, RETRY_COUNT, walletFeatures } from "./chain-config";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { hasWalletCloud, LOCAL_PROJECT_ID } from "./wallet-cloud";
import { KNOWN_CHAINS, shortAddress } from "./chains";

const none = { localRpcs: {}, ankr: null, infura: null, blast: null };

describe("node endpoints", () => {
  it("cover every chain in the list but the local ones", () => {
    expect(ENDPOINT_CHAIN_IDS).toEqual(KNOWN_CHAINS.filter((chain) => !chain.local).map((chain) => chain.id));
    expect(ENDPOINT_CHAIN_IDS).toHaveLength(10);
  });

  it("come from every provider with a key, each URL keyed by its {key}", () => {
    const endpoints = nodeEndpoints({ ...none, ankr: "A1", infura: "I1" });
    expect(endpoints.get(bsc.id)).toEqual(["https://rpc.ankr.com/bsc/A1", "https://bsc-mainnet.infura.io/v3/I1"]);
    expect(endpoints.get(sepolia.id)).toEqual(["https://rpc.ankr.com/eth_sepolia/A1", "https://sepolia.infura.io/v3/I1"]);
    expect(endpoints.has(LOCAL_CHAIN_ID)).toBe(false);
  });

  it("include the local chain's RPC and nothing for providers without a key", () => {
    const endpoints = nodeEndpoints({ ...none, localRpcs: { 31337: "http://127.0.0.1:8545" } });
    expect([...endpoints]).toEqual([[LOCAL_CHAIN_ID, ["http://127.0.0.1:8545"]]]);
  });

  it("warn about and skip a chain a configured provider has no endpoint for", () => {
    const warnings: string[] = [];
    const endpoints = nodeEndpoints({ ...none, infura: "I1" }, (m) => warnings.push(m));
    expect(warnings).toEqual([`No infura endpoint for chain ${bscTestnet.id}; skipped`]);
    expect(endpoints.has(bscTestnet.id)).toBe(false);
    expect(endpoints.get(base.id)).toEqual(["https://base-mainnet.infura.io/v3/I1"]);
    expect(nodeEndpoints({ ...none, blast: "B1" }).get(base.id)).toEqual(["https://base-mainnet.blastapi.io/B1"]);
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
  it("retry twice through a fallback of every endpoint", () => {
    const transport = chainTransport(["http://127.0.0.1:1", "http://127.0.0.1:2"])({ chain: bsc });
    expect(transport.config.type).toBe("fallback");
    expect(transport.config.retryCount).toBe(RETRY_COUNT);
    expect(RETRY_COUNT).toBe(2);
    expect((transport.value as { transports: unknown[] }).transports).toHaveLength(2);
  });

  it("rank the endpoints by pinging each of them every 60 s", async () => {
    const pings = [0, 0];
    const servers = await Promise.all(pings.map((_, i) => rpcServer(() => pings[i]!++)));
    // Only timers are faked (the ranking waits with setTimeout); the HTTP round trips are real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      chainTransport(servers.map((s) => s.url))({ chain: bsc });
      await until(() => pings.every((n) => n === 1));
      await vi.advanceTimersByTimeAsync(RANK_INTERVAL_MS - 1);
      await settle();
      expect(pings).toEqual([1, 1]);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => pings.every((n) => n === 2));
      expect(RANK_INTERVAL_MS).toBe(60_000);
    } finally {
      vi.useRealTimers();
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

/** A JSON-RPC endpoint on loopback that answers `net_listening` and counts the calls. */
async function rpcServer(onPing: () => void) {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      if (method === "net_listening") onPing();
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ jsonrpc: "2.0", id, result: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

async function until(condition: () => boolean) {
  for (let i = 0; i < 2_000 && !condition(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

describe("wallet modal features", () => {
  it("offer e-mail, social sign-in, on-ramp and swaps with a real project id", () => {
    expect(walletFeatures({ projectId: "2f05ae7f1116030fde2d36508f472bfb" })).toEqual({
      email: true,
      socials: ["google", "x", "github", "discord", "apple", "facebook", "farcaster"],
      onramp: true,
      swaps: true,
      analytics: false,
    });
  });

  it("offer none of the cloud's features without one", () => {
    expect(hasWalletCloud({ projectId: LOCAL_PROJECT_ID })).toBe(false);
    expect(walletFeatures({ projectId: LOCAL_PROJECT_ID })).toEqual({ email: false, socials: false, onramp: false, swaps: false, analytics: false });
  });
});

describe("shortAddress", () => {
  it("keeps 0x and 4 characters, an ellipsis and the last 4", () => {
    expect(shortAddress("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
    expect(shortAddress("")).toBeNull();
    expect(shortAddress(null)).toBeNull();
    expect(shortAddress(undefined)).toBeNull();
  });
});
