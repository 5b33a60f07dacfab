import { eq } from "drizzle-orm";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SWAP_RATE, DEMO_SWAP_RESERVES } from "#contracts/deploy";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { demoCollectionAbi } from "#contracts/generated/demo-collection";
import { demoItemsAbi } from "#contracts/generated/demo-items";
import { demoSwapAbi } from "#contracts/generated/demo-swap";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { testStablecoinAbi } from "#contracts/generated/test-stablecoin";
import { platformSetting } from "#db/schema/ledger";
import { createTestDatabase } from "#tests/setup/test-db";
import { SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { agreeLocalContracts, DEMO_STABLECOIN_PER_ACCOUNT, DEMO_TOKENS_PER_ACCOUNT, ensureLocalContracts } from "./contracts.server";

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain();
});
afterAll(() => chain.stop());

describe("ensureLocalContracts", () => {
  it("deploys once per fresh chain, funds the dev accounts, and keeps a deployment that is there", async () => {
    const logger = createLogger("silent");
    const first = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger });
    expect(first.deployed).toBe(true);

    const client = createPublicClient({ transport: http(chain.url) });
    for (const account of DEV_ADDRESSES) {
      expect(await client.readContract({ address: first.addresses.QuestToken, abi: questTokenAbi, functionName: "balanceOf", args: [account] })).toBe(
        DEMO_TOKENS_PER_ACCOUNT,
      );
    }
    expect(await client.readContract({ address: first.addresses.QuestToken, abi: questTokenAbi, functionName: "publicMintOpen" })).toBe(true);
    // Dev account 9 pays withdrawals; the admin (account 0) keeps the pauser role and not the operator's.
    const vault = { address: first.addresses.DepositVault, abi: depositVaultAbi } as const;
    const [operatorRole, pauserRole] = await Promise.all([
      client.readContract({ ...vault, functionName: "OPERATOR_ROLE" }),
      client.readContract({ ...vault, functionName: "PAUSER_ROLE" }),
    ]);
    expect(await client.readContract({ ...vault, functionName: "hasRole", args: [operatorRole, DEV_ADDRESSES[9]] })).toBe(true);
    expect(await client.readContract({ ...vault, functionName: "hasRole", args: [operatorRole, DEV_ADDRESSES[0]] })).toBe(false);
    expect(await client.readContract({ ...vault, functionName: "hasRole", args: [pauserRole, DEV_ADDRESSES[0]] })).toBe(true);
    // anvil's first account on a fresh chain: the same addresses every time.
    expect(first.addresses.QuestToken).toBe("0x5FbDB2315678afecb367f032d93F642f64180aa3");

    // The stand-in stablecoin: USDC of 6 decimals, allow-listed in the vault, 10,000 to each dev account.
    expect(first.tokens).toEqual([{ symbol: "USDC", address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), decimals: 6 }]);
    const usdc = first.tokens[0]!.address;
    expect(await client.readContract({ address: usdc, abi: testStablecoinAbi, functionName: "decimals" })).toBe(6);
    expect(await client.readContract({ ...vault, functionName: "tokenAllowed", args: [usdc] })).toBe(true);
    for (const account of DEV_ADDRESSES) {
      expect(await client.readContract({ address: usdc, abi: testStablecoinAbi, functionName: "balanceOf", args: [account] })).toBe(
        DEMO_STABLECOIN_PER_ACCOUNT,
      );
    }

    // The demo contracts: the ERC-721, the ERC-1155, and the swap between QUEST and USDC with its reserves funded.
    const demo = first.demo!;
    expect(await client.readContract({ address: demo.DemoCollection, abi: demoCollectionAbi, functionName: "symbol" })).toBe("QLX");
    expect(await client.readContract({ address: demo.DemoItems, abi: demoItemsAbi, functionName: "name" })).toBe("Questline Items");
    const swap = { address: demo.DemoSwap, abi: demoSwapAbi } as const;
    expect(await client.readContract({ ...swap, functionName: "tokenA" })).toBe(first.addresses.QuestToken);
    expect(await client.readContract({ ...swap, functionName: "tokenB" })).toBe(usdc);
    expect(await client.readContract({ ...swap, functionName: "rate" })).toBe(DEMO_SWAP_RATE);
    expect(await client.readContract({ address: first.addresses.QuestToken, abi: questTokenAbi, functionName: "balanceOf", args: [demo.DemoSwap] })).toBe(
      DEMO_SWAP_RESERVES.quest,
    );
    expect(await client.readContract({ address: usdc, abi: testStablecoinAbi, functionName: "balanceOf", args: [demo.DemoSwap] })).toBe(
      DEMO_SWAP_RESERVES.usdc,
    );

    const again = await ensureLocalContracts({ rpcUrl: chain.url, known: first.addresses, knownTokens: first.tokens, knownDemo: demo, logger });
    expect(again).toEqual({ addresses: first.addresses, tokens: first.tokens, demo, deployed: false });
    // A kept chain whose record names no demo contracts (or ones without code) keeps its deployment and has none.
    const withoutDemo = await ensureLocalContracts({ rpcUrl: chain.url, known: first.addresses, knownTokens: first.tokens, logger });
    expect(withoutDemo.demo).toBeNull();
    const gone = { ...demo, DemoSwap: "0x00000000000000000000000000000000000000D0" as const };
    expect((await ensureLocalContracts({ rpcUrl: chain.url, known: first.addresses, knownDemo: gone, logger })).demo).toBeNull();
  });
});

describe("agreeLocalContracts", () => {
  it("records the demo contracts beside the deployment, keeps them on a kept chain, and deploys them again on a fresh one", async () => {
    const logger = createLogger("silent");
    const database = await createTestDatabase();
    const fresh = await startLocalChain({ chainId: SECOND_LOCAL_CHAIN_ID });
    try {
      const first = await agreeLocalContracts({ database, chainId: SECOND_LOCAL_CHAIN_ID, rpcUrl: fresh.url, known: undefined, logger });
      expect(first.deployed).toBe(true);
      expect(first.demo).not.toBeNull();
      const [row] = await database.db
        .select()
        .from(platformSetting)
        .where(eq(platformSetting.key, `local_chain_contracts:${SECOND_LOCAL_CHAIN_ID}`));
      expect(row!.value).toMatchObject({ ...first.addresses, demo: first.demo });

      // A server restarted on the same chain: the recorded deployment and demo contracts.
      const kept = await agreeLocalContracts({ database, chainId: SECOND_LOCAL_CHAIN_ID, rpcUrl: fresh.url, known: undefined, logger });
      expect(kept).toEqual({ ...first, deployed: false });
    } finally {
      await fresh.stop();
    }
    // A fresh chain under the same record: deployed again, demo contracts included.
    const next = await startLocalChain({ chainId: SECOND_LOCAL_CHAIN_ID });
    try {
      const again = await agreeLocalContracts({ database, chainId: SECOND_LOCAL_CHAIN_ID, rpcUrl: next.url, known: undefined, logger });
      expect(again.deployed).toBe(true);
      expect(await createPublicClient({ transport: http(next.url) }).getCode({ address: again.demo!.DemoSwap })).toMatch(/^0x[0-9a-f]{10}/);
    } finally {
      await Promise.all([next.stop(), database.close()]);
    }
  });
});
