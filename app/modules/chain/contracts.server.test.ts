import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { testStablecoinAbi } from "#contracts/generated/test-stablecoin";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { DEMO_STABLECOIN_PER_ACCOUNT, DEMO_TOKENS_PER_ACCOUNT, ensureLocalContracts } from "./contracts.server";

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

    const again = await ensureLocalContracts({ rpcUrl: chain.url, known: first.addresses, knownTokens: first.tokens, logger });
    expect(again).toEqual({ addresses: first.addresses, tokens: first.tokens, deployed: false });
  });
});
