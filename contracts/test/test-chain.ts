// A real anvil chain per test file, with clients for the dev accounts, snapshots and time
// travel. Under `npm run coverage:contracts` the transport also traces every call for coverage
// and the contracts are deployed from the unoptimized coverage build.

import { basename } from "node:path";
import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  type Abi,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type Address,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { startLocalChain } from "~/lib/local-chain.server";
import { CONTRACT_NAMES, type ContractName } from "../compile.ts";
import { coverageDir, coverageTransport, CoverageCollector, readCoverageBuild } from "../coverage/collector.ts";
import { DEV_PRIVATE_KEYS } from "../dev-accounts.ts";
import { airdropDistributorBytecode } from "../generated/airdrop-distributor.ts";
import { demoCollectionBytecode } from "../generated/demo-collection.ts";
import { demoItemsBytecode } from "../generated/demo-items.ts";
import { demoSwapBytecode } from "../generated/demo-swap.ts";
import { depositVaultBytecode } from "../generated/deposit-vault.ts";
import { questTokenBytecode } from "../generated/quest-token.ts";
import { testStablecoinBytecode } from "../generated/test-stablecoin.ts";
import { tokenSaleBytecode } from "../generated/token-sale.ts";

const GENERATED: Record<ContractName, Hex> = {
  QuestToken: questTokenBytecode,
  TokenSale: tokenSaleBytecode,
  DepositVault: depositVaultBytecode,
  AirdropDistributor: airdropDistributorBytecode,
  TestStablecoin: testStablecoinBytecode,
  DemoCollection: demoCollectionBytecode,
  DemoItems: demoItemsBytecode,
  DemoSwap: demoSwapBytecode,
};

export const POLLING_INTERVAL = 10;

export async function startTestChain(testFile: string) {
  const dir = coverageDir();
  const chain = await startLocalChain({ stepsTracing: Boolean(dir) });
  const build = dir ? readCoverageBuild(dir) : null;
  const collector = build ? new CoverageCollector(build) : null;
  const transport = collector ? coverageTransport(http(chain.url), collector) : http(chain.url);
  const publicClient = createPublicClient({ chain: anvil, transport, pollingInterval: POLLING_INTERVAL });
  const testClient = createTestClient({ chain: anvil, mode: "anvil", transport: http(chain.url) });
  const wallets = DEV_PRIVATE_KEYS.map((key) =>
    createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(key), pollingInterval: POLLING_INTERVAL }),
  );
  const bytecode = Object.fromEntries(CONTRACT_NAMES.map((name) => [name, build ? build.contracts[name].bytecode : GENERATED[name]])) as Record<
    ContractName,
    Hex
  >;

  return {
    url: chain.url,
    publicClient,
    testClient,
    wallets,
    bytecode,
    /** Waits for a transaction and returns its receipt (throws if it reverted). */
    async mined(hash: Hex) {
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: POLLING_INTERVAL });
      if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
      return receipt;
    },
    async created(hash: Hex): Promise<Address> {
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: POLLING_INTERVAL });
      return receipt.contractAddress!;
    },
    snapshot: () => testClient.snapshot(),
    revert: (id: Hex) => testClient.revert({ id }),
    async now() {
      return (await publicClient.getBlock()).timestamp;
    },
    /** Moves the chain's clock so that the next block has timestamp `timestamp`. */
    async setNextTimestamp(timestamp: bigint) {
      await testClient.setNextBlockTimestamp({ timestamp });
      await testClient.mine({ blocks: 1 });
    },
    async increaseTime(seconds: number) {
      await testClient.increaseTime({ seconds });
      await testClient.mine({ blocks: 1 });
    },
    async stop() {
      if (collector && dir) collector.save(dir, basename(testFile).replace(/\W+/g, "-"));
      await chain.stop();
    },
  };
}

export type TestChain = Awaited<ReturnType<typeof startTestChain>>;

/**
 * The custom error a failed call, estimate or deployment reverted with, decoded by name through
 * `abi` (pass the ABIs of every contract the call may reach: a token's errors bubble up through
 * the vault).
 */
export async function revertOf(promise: Promise<unknown>, abi: Abi): Promise<{ name: string; args: readonly unknown[] }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof BaseError)) throw error;
    const withData = error.walk((cause) => {
      const data = (cause as { data?: unknown }).data;
      return (typeof data === "string" && data.startsWith("0x")) || cause instanceof ContractFunctionRevertedError;
    });
    const raw = withData instanceof ContractFunctionRevertedError ? withData.raw : (withData as { data?: Hex } | null)?.data;
    if (!raw || raw === "0x") throw error;
    const decoded = decodeErrorResult({ abi, data: raw });
    return { name: decoded.errorName, args: decoded.args ?? [] };
  }
  throw new Error("expected a revert, but it succeeded");
}
