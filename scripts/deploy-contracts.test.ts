import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { readDeployments } from "~/modules/chain/contract-addresses.server";

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain();
});
afterAll(() => chain.stop());

const run = (env: Record<string, string>, args: string[] = []) =>
  promisify(execFile)(
    process.execPath,
    ["--import", path.resolve(import.meta.dirname, "app-paths.ts"), path.resolve(import.meta.dirname, "deploy-contracts.ts"), ...args],
    { env: { ...process.env, ...env } },
  );

describe("scripts/deploy-contracts.ts", () => {
  it("deploys and writes deployments/<chainId>.json that the app reads", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "questline-deploy-"));
    const { stdout } = await run({ RPC_URL: chain.url, DEPLOYMENTS_DIR: dir });
    expect(stdout).toContain("Deployed to chain 31337");
    const { contracts, codeHashes } = readDeployments({ dir, overrides: new Map() }).get(31337)!;
    expect(stdout).toContain(contracts.DepositVault);
    // Each contract's runtime code hash, which the app compares with the chain's code at start.
    expect(Object.keys(codeHashes)).toEqual(["QuestToken", "TokenSale", "DepositVault", "AirdropDistributor"]);
  });

  it("with --chain, reaches the chain through the node the app would use and checks it is that chain", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "questline-deploy-"));
    await expect(run({ DEPLOYMENTS_DIR: dir, RPC_URL_84532: chain.url }, ["--chain", "84532"])).rejects.toThrow(
      "The node answered with chain id 31337, not 84532: check RPC_URL_84532",
    );
    await expect(run({ DEPLOYMENTS_DIR: dir, ANKR_KEY: "", INFURA_KEY: "", BLAST_KEY: "" }, ["--chain", "8453"])).rejects.toThrow(
      "No node for chain 8453: set RPC_URL_8453, or ANKR_KEY, INFURA_KEY or BLAST_KEY",
    );
    await expect(run({ DEPLOYMENTS_DIR: dir }, ["--chain", "424242"])).rejects.toThrow(/--chain must name a chain of the list: 1 \(Ethereum\)/);
  });

  it("asks for a deployer key outside the local chain's defaults", async () => {
    await expect(run({ RPC_URL: chain.url, DEPLOYMENTS_DIR: tmpdir(), DEPLOYER_PRIVATE_KEY: "0x12" })).rejects.toThrow(
      "DEPLOYER_PRIVATE_KEY must be 0x and 64 hex digits",
    );
  });
});
