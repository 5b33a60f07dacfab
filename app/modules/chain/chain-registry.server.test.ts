import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, http, keccak256, zeroAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { deployQuestline } from "#contracts/deploy";
import { writeDeploymentFile } from "#contracts/deployment-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/lib/db.server";
import { DEV_ADDRESSES, DEV_OPERATOR_PRIVATE_KEY, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { createLogger } from "~/lib/logger.server";
import { loadEnv } from "~/services/env.server";
import type { ContractAddresses } from "~/modules/chain/contract-addresses.server";
import { withdrawalChainsOf } from "~/modules/withdrawals/withdrawal-chain.server";
import { drawChainsFrom } from "~/modules/rewards/draw-chains.server";
import { LOCAL_PROJECT_ID } from "~/wallet/wallet-cloud";
import { KNOWN_CHAINS } from "~/wallet/chains";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { createTestDatabase } from "#tests/setup/test-db";
import { rpc } from "#tests/setup/withdrawal-chain";
import { startLocalChain } from "~/lib/local-chain.server";
import { buildChainRegistry, createChainRegistry, type ChainSetup } from "./chain-registry.server";
import { ensureLocalContracts } from "./contracts.server";

const addresses = (vault: `0x${string}`): ContractAddresses => ({
  QuestToken: zeroAddress,
  TokenSale: zeroAddress,
  DepositVault: vault,
  AirdropDistributor: zeroAddress,
});
const VAULT = "0x00000000000000000000000000000000000000AA";
const HASHES = { QuestToken: keccak256("0x01"), TokenSale: keccak256("0x02"), DepositVault: keccak256("0x03"), AirdropDistributor: keccak256("0x04") };
const transport = http("http://127.0.0.1:9");
const config = { localRpcs: { 31337: "http://127.0.0.1:9" }, ankr: null, infura: null, blast: null, projectId: LOCAL_PROJECT_ID, chainIds: [31337] };

function registry(chains: ChainSetup[]) {
  return buildChainRegistry({ config, chainIds: [56, 11155111, 31337], chains, logger: createLogger("silent") });
}

describe("buildChainRegistry", () => {
  it("signs with anvil's dev account 9 on the local chain and leaves other chains without a wallet when no key is set", () => {
    expect(privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY).address).toBe(DEV_ADDRESSES[9]);
    const chains = registry([
      { id: 31337, transport, contracts: addresses(VAULT), confirmations: 1 },
      { id: 56, transport, contracts: addresses(VAULT), confirmations: 15 },
      { id: 11155111, transport, confirmations: 6 },
    ]);
    const result = withdrawalChainsOf(chains);
    expect([...result.keys()]).toEqual([31337, 56]);
    expect(result.get(31337)).toMatchObject({ vault: VAULT, confirmations: 1 });
    expect(result.get(31337)!.operator!.account.address).toBe(DEV_ADDRESSES[9]);
    expect(result.get(56)).toMatchObject({ operator: null, confirmations: 15 });
    // The withdrawal job reads the registry's own entry; the deposit scanners and the raffle draws read the same clients.
    expect(result.get(56)).toBe(chains.vaultChains()[1]);
    expect(withdrawalChainsOf(chains, { forPage: true }).get(56)!.client).toBe(chains.get(56)!.pageClient);
    expect(chains.vaultChains().map((chain) => chain.client)).toEqual([chains.get(31337)!.client, chains.get(56)!.client]);
    expect([...drawChainsFrom(chains).keys()]).toEqual([31337, 56, 11155111]);
  });

  it("signs with OPERATOR_PRIVATE_KEY on every chain when it is set", () => {
    const key = `0x${"11".repeat(32)}` as const;
    const chains = registry([
      { id: 31337, transport, contracts: addresses(VAULT), confirmations: 1, operatorKey: key },
      { id: 56, transport, contracts: addresses(VAULT), confirmations: 15, operatorKey: key },
    ]);
    const operator = privateKeyToAccount(key).address;
    expect([...withdrawalChainsOf(chains).values()].map((chain) => chain.operator?.account.address)).toEqual([operator, operator]);
  });

  it("keeps a chain without a confirmation count out of deposits, withdrawals and draws", () => {
    const chains = registry([{ id: 56, transport, contracts: addresses(VAULT), confirmations: null }]);
    expect(chains.get(56)?.contracts?.DepositVault).toBe(VAULT);
    expect(chains.vaultChains()).toEqual([]);
    expect(drawChainsFrom(chains).size).toBe(0);
  });
});

describe("createChainRegistry", () => {
  it("registers the chains this server has a node for, with their contracts, confirmations and start blocks", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "questline-registry-"));
    const deployments = mkdtempSync(path.join(tmpdir(), "questline-deployments-"));
    writeFileSync(path.join(deployments, "56.json"), JSON.stringify({ chainId: 56, contracts: addresses(VAULT), codeHashes: HASHES }));
    writeFileSync(path.join(deployments, "424242.json"), JSON.stringify({ chainId: 424242, contracts: addresses(VAULT) }));
    const env = loadEnv({
      DATA_DIR: dataDir,
      DEPLOYMENTS_DIR: deployments,
      ANKR_KEY: "key",
      RPC_URL_8453: "https://base.node.example/rpc",
      RPC_WS_URL_8453: "wss://base.node.example/ws",
      DEPOSIT_START_BLOCKS: "56:41000000",
      LOCAL_CHAIN: "off",
    });
    const database = await createTestDatabase();
    const chains = await createChainRegistry({ env, localChainUrls: new Map(), logger: createLogger("silent"), database });
    await database.close();
    // Chain 424242 has contracts but no node: it is not registered, so nothing tries to read it.
    expect(chains.list.map((chain) => chain.id)).toEqual(KNOWN_CHAINS.filter((chain) => !chain.local).map((chain) => chain.id));
    expect(chains.get(424242)).toBeUndefined();
    // New heads are followed where a WebSocket is configured; the other chains are only polled.
    expect(chains.get(8453)).toMatchObject({ name: "Base", contracts: null, confirmations: 10, webSocket: "wss://base.node.example/ws" });
    expect(chains.get(56)).toMatchObject({
      name: "BNB Smart Chain",
      contracts: { DepositVault: VAULT },
      confirmations: 15,
      startBlock: 41000000n,
      operator: null,
    });
    expect(chains.get(11155111)).toMatchObject({ contracts: null, startBlock: null, webSocket: null });
    // Demo contracts only ever on a local chain.
    expect(chains.list.filter((chain) => chain.demo !== null)).toEqual([]);
    expect(chains.vaultChains().map((chain) => chain.id)).toEqual([56]);
    // Members sign in on every chain in the list; money moves only where there are contracts.
    // (A local chain only where this server has its node: none here.)
    expect(chains.chainIds).toEqual(KNOWN_CHAINS.filter((chain) => !chain.local).map((chain) => chain.id));
    expect(chains.config).toMatchObject({ localRpcs: {}, ankr: "key" });
  });
});

describe("a deployment checked against its chain at start", () => {
  const CODE = "0x6000600055";
  const deployed: ContractAddresses = {
    QuestToken: "0x00000000000000000000000000000000000000a1",
    TokenSale: "0x00000000000000000000000000000000000000a2",
    DepositVault: "0x00000000000000000000000000000000000000a3",
    AirdropDistributor: "0x00000000000000000000000000000000000000a4",
  };
  const codeHashes = { QuestToken: keccak256(CODE), TokenSale: keccak256(CODE), DepositVault: keccak256(CODE), AirdropDistributor: keccak256(CODE) };
  // Only the local chain's deployment uses the database (none runs here): one for every start.
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  async function registryWith(node: string, chainId: number, file: object = { chainId, contracts: deployed, codeHashes }, more: Record<string, string> = {}) {
    const deployments = mkdtempSync(path.join(tmpdir(), "questline-deployments-"));
    writeFileSync(path.join(deployments, `${chainId}.json`), JSON.stringify(file));
    const env = loadEnv({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-registry-")),
      DEPLOYMENTS_DIR: deployments,
      [`RPC_URL_${chainId}`]: node,
      LOCAL_CHAIN: "off",
      ...more,
    });
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
    const chains = await createChainRegistry({ env, localChainUrls: new Map(), logger, database });
    return { chain: chains.get(chainId)!, lines: lines.map((line) => JSON.parse(line) as { msg: string }).map((line) => line.msg) };
  }

  it("keeps a chain's contracts where each address holds code; refuses them, in one line, where not or where the node is another chain's", async () => {
    const node = await startLocalChain({ chainId: 84532 });
    try {
      const empty = await registryWith(node.url, 84532);
      expect(empty.chain.contracts).toBeNull();
      expect(empty.lines).toContain(
        "Base Sepolia: the deployment names QuestToken, TokenSale, DepositVault, AirdropDistributor where the chain holds no code, so no money moves on it; deploy again (npm run deploy:contracts -- --chain 84532) or fix the addresses",
      );

      for (const address of Object.values(deployed)) await rpc(node.url, "anvil_setCode", [address, CODE]);
      const kept = (await registryWith(node.url, 84532)).chain.contracts;
      expect(Object.fromEntries(Object.entries(kept ?? {}).map(([key, address]) => [key, address.toLowerCase()]))).toEqual(deployed);

      const elsewhere = await registryWith(node.url, 8453);
      expect(elsewhere.chain).toMatchObject({ id: 8453, contracts: null });
      expect(elsewhere.lines).toContain("Base: its node answers as chain 84532, so no money moves on it; point its node setting at chain 8453");
    } finally {
      await node.stop();
    }
  });

  it("compares each contract's code with the hash its deployment recorded, and refuses a chain whose code differs or whose hash is missing, in one line", async () => {
    const node = await startLocalChain({ chainId: 84532 });
    try {
      const transport = http(node.url);
      const chain = { ...anvil, id: 84532 };
      const publicClient = createPublicClient({ chain, transport, pollingInterval: 10 });
      const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) });
      const deployment = await deployQuestline({ wallet, publicClient, settings: { pollingInterval: 10 } });
      // The file the deploy script writes: the chain's own code, so the chain keeps its money.
      const dir = mkdtempSync(path.join(tmpdir(), "questline-deployed-"));
      const written = JSON.parse(readFileSync(writeDeploymentFile(dir, deployment), "utf8")) as {
        contracts: ContractAddresses;
        codeHashes: Record<string, Hex>;
      };
      expect(written.codeHashes).toEqual(deployment.codeHashes);
      const kept = await registryWith(node.url, 84532, written, { CONFIRMATIONS: "84532:1" });
      expect(kept.chain.contracts).toEqual(deployment.contracts);
      expect(kept.lines.filter((line) => line.startsWith("Base Sepolia"))).toEqual([]);

      // The deployment names another contract's address as the vault: code is there, but not the vault's.
      const swapped = await registryWith(node.url, 84532, {
        ...written,
        contracts: { ...written.contracts, DepositVault: deployment.contracts.AirdropDistributor },
      });
      expect(swapped.chain.contracts).toBeNull();
      expect(swapped.lines).toContain(
        `Base Sepolia: the code at DepositVault (${deployment.contracts.AirdropDistributor}) is not the code its deployment recorded (the code hash differs), so no money moves on it; deploy again (npm run deploy:contracts -- --chain 84532) or fix deployments/84532.json`,
      );

      // A hash edited by hand.
      const edited = await registryWith(node.url, 84532, { ...written, codeHashes: { ...written.codeHashes, TokenSale: keccak256("0x00") } });
      expect(edited.chain.contracts).toBeNull();
      expect(edited.lines.filter((line) => line.startsWith("Base Sepolia"))).toEqual([
        `Base Sepolia: the code at TokenSale (${deployment.contracts.TokenSale}) is not the code its deployment recorded (the code hash differs), so no money moves on it; deploy again (npm run deploy:contracts -- --chain 84532) or fix deployments/84532.json`,
      ]);

      // A file from before code hashes, and an address the environment changes, have no hash to compare: no money.
      const unhashed = await registryWith(node.url, 84532, { chainId: 84532, contracts: written.contracts });
      expect(unhashed.chain).toMatchObject({ contracts: null, name: "Base Sepolia" });
      expect(unhashed.lines).toContain(
        "Base Sepolia: its deployment records no code hash for QuestToken, TokenSale, DepositVault, AirdropDistributor (a deployment file from before code hashes, or an address set in the environment), so no money moves on it; deploy again (npm run deploy:contracts -- --chain 84532) or add each contract's codeHashes (keccak256 of its eth_getCode) to deployments/84532.json",
      );
      const overridden = await registryWith(node.url, 84532, written, { DEPOSIT_VAULT_ADDRESS_84532: deployment.contracts.AirdropDistributor });
      expect(overridden.chain.contracts).toBeNull();
      expect(overridden.lines.some((line) => line.startsWith("Base Sepolia: its deployment records no code hash for DepositVault ("))).toBe(true);
    } finally {
      await node.stop();
    }
  });
});

describe("a fresh local chain", () => {
  it("gets the demo contracts beside Questline's, on the registry's `demo`", async () => {
    const node = await startLocalChain({ chainId: SECOND_LOCAL_CHAIN_ID });
    const database = await createTestDatabase();
    try {
      const env = loadEnv({
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-registry-")),
        DEPLOYMENTS_DIR: mkdtempSync(path.join(tmpdir(), "questline-deployments-")),
        LOCAL_CHAIN: "off",
        RPC_URL_31338: node.url,
      });
      const chains = await createChainRegistry({ env, localChainUrls: new Map([[SECOND_LOCAL_CHAIN_ID, node.url]]), logger: createLogger("silent"), database });
      const { demo } = chains.get(SECOND_LOCAL_CHAIN_ID)!;
      expect(Object.keys(demo!)).toEqual(["DemoCollection", "DemoItems", "DemoSwap"]);
      expect(await chains.get(SECOND_LOCAL_CHAIN_ID)!.client.getCode({ address: demo!.DemoCollection })).toMatch(/^0x[0-9a-f]{10}/);
    } finally {
      await Promise.all([database.close(), node.stop()]);
    }
  });
});

describe("a second local chain", () => {
  it("is registered as local, signed on by anvil's dev account 9, its deployment kept, and offered for sign-in and money only where this server has its node", async () => {
    const node = await startLocalChain({ chainId: SECOND_LOCAL_CHAIN_ID });
    const database = await createTestDatabase();
    try {
      const { addresses: deployedThere } = await ensureLocalContracts({ rpcUrl: node.url, known: undefined, logger: createLogger("silent") });
      const deployments = mkdtempSync(path.join(tmpdir(), "questline-deployments-"));
      writeFileSync(path.join(deployments, `${SECOND_LOCAL_CHAIN_ID}.json`), JSON.stringify({ chainId: SECOND_LOCAL_CHAIN_ID, contracts: deployedThere }));
      const envWith = (vars: Record<string, string>) =>
        loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-registry-")), DEPLOYMENTS_DIR: deployments, LOCAL_CHAIN: "off", ...vars });

      const chains = await createChainRegistry({
        env: envWith({ RPC_URL_31338: node.url }),
        localChainUrls: new Map([[SECOND_LOCAL_CHAIN_ID, node.url]]),
        logger: createLogger("silent"),
        database,
      });
      const second = chains.get(SECOND_LOCAL_CHAIN_ID)!;
      // A kept chain (its deployment file) whose record names no demo contracts has none.
      expect(second).toMatchObject({ name: "Questline Local B", local: true, confirmations: 1, contracts: deployedThere, demo: null });
      expect(second.operator!.account.address).toBe(DEV_ADDRESSES[9]);
      expect(await second.operator!.getChainId()).toBe(SECOND_LOCAL_CHAIN_ID);
      expect(chains.vaultChains().map((chain) => chain.id)).toEqual([SECOND_LOCAL_CHAIN_ID]);
      expect(chains.chainIds).toContain(SECOND_LOCAL_CHAIN_ID);
      expect(chains.chainIds).not.toContain(LOCAL_CHAIN_ID);
      // The browser reaches it through its node, as it reaches the first local chain.
      expect(chains.config.localRpcs).toEqual({ [SECOND_LOCAL_CHAIN_ID]: node.url });

      // Without its node it is neither registered nor offered, like the first local chain without its own.
      const without = await createChainRegistry({ env: envWith({}), localChainUrls: new Map(), logger: createLogger("silent"), database });
      expect(without.get(SECOND_LOCAL_CHAIN_ID)).toBeUndefined();
      expect(without.chainIds).not.toContain(SECOND_LOCAL_CHAIN_ID);
    } finally {
      await Promise.all([database.close(), node.stop()]);
    }
  });
});
