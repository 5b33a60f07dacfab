import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { readContractAddresses } from "~/modules/chain/contract-addresses.server";

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain();
});
afterAll(() => chain.stop());

const run = (env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [path.resolve(import.meta.dirname, "deploy-contracts.ts")], { env: { ...process.env, ...env } });

describe("scripts/deploy-contracts.ts", () => {
  it("deploys and writes deployments/<chainId>.json that the app reads", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "questline-deploy-"));
    const { stdout } = await run({ RPC_URL: chain.url, DEPLOYMENTS_DIR: dir });
    expect(stdout).toContain("Deployed to chain 31337");
    const addresses = readContractAddresses({ dir, overrides: new Map() }).get(31337)!;
    expect(stdout).toContain(addresses.DepositVault);
  });

  it("asks for a deployer key outside the local chain's defaults", async () => {
    await expect(run({ RPC_URL: chain.url, DEPLOYMENTS_DIR: tmpdir(), DEPLOYER_PRIVATE_KEY: "0x12" })).rejects.toThrow(
      "DEPLOYER_PRIVATE_KEY must be 0x and 64 hex digits",
    );
  });
});
