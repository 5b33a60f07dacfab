import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { createLogger } from "~/lib/logger.server";
import { loadEnv } from "~/services/env.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { createChainRegistry } from "./chain-registry.server";

let chain: LocalChain;
let database: Database;
beforeAll(async () => {
  [chain, database] = await Promise.all([startLocalChain(), createTestDatabase()]);
});
afterAll(async () => {
  await chain.stop();
  await database.close();
});

describe("the local chain's contracts, with several processes on one database", () => {
  it("are deployed once on a fresh chain when processes start together, and every process uses the same ones", async () => {
    // No addresses known beforehand: an empty deployments folder, none in the environment.
    const env = loadEnv({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-agree-")),
      DEPLOYMENTS_DIR: mkdtempSync(path.join(tmpdir(), "questline-deployments-")),
      LOCAL_CHAIN: "off",
    });
    const start = () => createChainRegistry({ env, localChainUrls: new Map([[LOCAL_CHAIN_ID, chain.url]]), logger: createLogger("silent"), database });
    const registries = await Promise.all(Array.from({ length: 4 }, start));
    const contracts = registries.map((registry) => registry.get(LOCAL_CHAIN_ID)!.contracts);
    expect(new Set(contracts.map((addresses) => JSON.stringify(addresses))).size).toBe(1);

    // The vault's tokens: QUEST first, then the stand-in USDC, the same in every process.
    const tokens = registries.map((registry) => registry.get(LOCAL_CHAIN_ID)!.tokens);
    expect(tokens[0]!.map(({ symbol, decimals }) => ({ symbol, decimals }))).toEqual([
      { symbol: "QUEST", decimals: 18 },
      { symbol: "USDC", decimals: 6 },
    ]);
    expect(tokens[0]![0]!.address).toBe(contracts[0]!.QuestToken);
    for (const list of tokens) expect(list).toEqual(tokens[0]);

    // A process started later finds them recorded and keeps them, tokens too.
    const later = await start();
    expect(later.get(LOCAL_CHAIN_ID)!.contracts).toEqual(contracts[0]);
    expect(later.get(LOCAL_CHAIN_ID)!.tokens).toEqual(tokens[0]);

    // A deployment file naming those addresses but no tokens (a long-lived node): the recorded USDC is kept.
    const deployments = mkdtempSync(path.join(tmpdir(), "questline-deployments-"));
    writeFileSync(path.join(deployments, `${LOCAL_CHAIN_ID}.json`), JSON.stringify({ chainId: LOCAL_CHAIN_ID, contracts: contracts[0] }));
    const withFile = await createChainRegistry({
      env: { ...env, DEPLOYMENTS_DIR: deployments },
      localChainUrls: new Map([[LOCAL_CHAIN_ID, chain.url]]),
      logger: createLogger("silent"),
      database,
    });
    expect(withFile.get(LOCAL_CHAIN_ID)!.contracts).toEqual(contracts[0]);
    expect(withFile.get(LOCAL_CHAIN_ID)!.tokens).toEqual(tokens[0]);
    // Its new heads are followed over anvil's own WebSocket, on the same port.
    expect(later.get(LOCAL_CHAIN_ID)!.webSocket).toBe(chain.url.replace("http://", "ws://"));
  });
});
