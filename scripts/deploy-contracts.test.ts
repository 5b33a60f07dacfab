import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createPublicClient, createWalletClient, getAddress, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { testStablecoinAbi, testStablecoinBytecode } from "#contracts/generated/test-stablecoin";
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

  it("deploys the stand-in USDC on a local chain, lists it on the vault and writes it as the file's tokens", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "questline-deploy-"));
    const { stdout } = await run({ RPC_URL: chain.url, DEPLOYMENTS_DIR: dir });
    const { contracts, tokens } = readDeployments({ dir, overrides: new Map() }).get(31337)!;
    expect(tokens).toEqual([{ symbol: "USDC", address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), decimals: 6 }]);
    expect(stdout).toContain(tokens[0]!.address);
    expect(await allowed(chain.url, contracts.DepositVault, tokens[0]!.address)).toBe(true);
  });

  it("with --token, allow-lists an existing token on a testnet's vault, its symbol and decimals read from the chain", async () => {
    // A stand-in for Base Sepolia (84532) holding a real stablecoin deployed before ours.
    const testnet = await startLocalChain({ chainId: 84532 });
    try {
      const usdc = await existingStablecoin(testnet.url);
      const dir = mkdtempSync(path.join(tmpdir(), "questline-deploy-"));
      const env = { DEPLOYMENTS_DIR: dir, RPC_URL_84532: testnet.url, DEPLOYER_PRIVATE_KEY: DEV_PRIVATE_KEYS[1] };
      await run(env, ["--chain", "84532", "--token", usdc.toLowerCase()]);
      const { contracts, tokens } = readDeployments({ dir, overrides: new Map() }).get(84532)!;
      expect(tokens).toEqual([{ symbol: "USDC", address: usdc, decimals: 6 }]);
      expect(await allowed(testnet.url, contracts.DepositVault, usdc)).toBe(true);

      // An address that is no token, or QUEST itself: said in words, before anything is deployed.
      await expect(run(env, ["--chain", "84532", "--token", "0x000000000000000000000000000000000000dEaD"])).rejects.toThrow(
        "--token 0x000000000000000000000000000000000000dEaD: the chain gives no ERC-20 symbol() there",
      );
      await expect(run(env, ["--chain", "84532", "--token", contracts.QuestToken])).rejects.toThrow("must not name QUEST");
      await expect(run(env, ["--chain", "84532", "--token", "0x12"])).rejects.toThrow("--token must be a 0x address of 40 hex digits, not 0x12");
    } finally {
      await testnet.stop();
    }
  }, 180_000);

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

/** Whether the vault at `vault` takes `token`. */
const allowed = (url: string, vault: Address, token: Address) =>
  createPublicClient({ transport: http(url) }).readContract({ address: vault, abi: depositVaultAbi, functionName: "tokenAllowed", args: [token] });

/** Deploys a TestStablecoin ("USDC", 6 decimals) on the node at `url`, as a chain's existing stablecoin. */
async function existingStablecoin(url: string): Promise<Address> {
  const client = createPublicClient({ transport: http(url), pollingInterval: 10 });
  const wallet = createWalletClient({ transport: http(url), account: privateKeyToAccount(DEV_PRIVATE_KEYS[2]) });
  const hash = await wallet.deployContract({ abi: testStablecoinAbi, bytecode: testStablecoinBytecode, args: [wallet.account.address, 0n], chain: null });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return getAddress(receipt.contractAddress!);
}
