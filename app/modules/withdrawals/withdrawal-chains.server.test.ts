import { http, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEV_ADDRESSES, DEV_OPERATOR_PRIVATE_KEY } from "#contracts/dev-accounts";
import { createLogger } from "~/lib/logger.server";
import type { ContractAddresses } from "~/modules/chain/contract-addresses.server";
import { withdrawalChains } from "./withdrawal-chains.server";

const CONFIRMATIONS = new Map([
  [31337, 1],
  [56, 15],
  [11155111, 6],
]);

const addresses = (vault: `0x${string}`): ContractAddresses => ({
  QuestToken: zeroAddress,
  TokenSale: zeroAddress,
  DepositVault: vault,
  AirdropDistributor: zeroAddress,
});
const VAULT = "0x00000000000000000000000000000000000000aa";
const contracts = new Map([
  [31337, addresses(VAULT)],
  [56, addresses(VAULT)],
  [1, addresses(VAULT)],
]);
const chains = { transportFor: (chainId: number) => (chainId === 1 ? undefined : http("http://127.0.0.1:9")) };

describe("withdrawalChains", () => {
  it("signs with anvil's dev account 9 on the local chain and leaves other chains without a wallet when no key is set", () => {
    expect(privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY).address).toBe(DEV_ADDRESSES[9]);
    const result = withdrawalChains({ env: { confirmations: CONFIRMATIONS }, chains, contracts, logger: createLogger("silent") });
    expect([...result.keys()]).toEqual([31337, 56]);
    expect(result.get(31337)).toMatchObject({ vault: VAULT, confirmations: 1 });
    expect(result.get(31337)!.walletClient!.account.address).toBe(DEV_ADDRESSES[9]);
    expect(result.get(56)).toMatchObject({ walletClient: null, confirmations: 15 });
  });

  it("signs with OPERATOR_PRIVATE_KEY on every chain when it is set", () => {
    const key = `0x${"11".repeat(32)}` as const;
    const result = withdrawalChains({ env: { OPERATOR_PRIVATE_KEY: key, confirmations: CONFIRMATIONS }, chains, contracts, logger: createLogger("silent") });
    const operator = privateKeyToAccount(key).address;
    expect([...result.values()].map((chain) => chain.walletClient?.account.address)).toEqual([operator, operator]);
  });
});
