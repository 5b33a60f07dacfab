import { mkdtempSync } from "node:fs";
import { eq } from "drizzle-orm";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { user } from "#db/schema/auth";
import { chainEventCursor } from "#db/schema/chain";
import { project } from "#db/schema/projects";
import { completion, task, trendingTask } from "#db/schema/quests";
import type { Database, Db } from "~/lib/db.server";
import { loadEnv } from "~/services/env.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import { broadcastOperatorTx, operatorTxOf, prepareOperatorCall, storeOperatorTx, type OperatorSigner } from "~/modules/chain/operator-outbox.server";
import type { ContractAddresses } from "~/modules/chain/contract-addresses.server";
import { depositRefOf } from "~/modules/deposits/deposit-refs.server";
import { listDeposits } from "~/modules/deposits/deposits.server";
import { DEPOSIT_SUBSCRIPTION } from "~/modules/deposits/scanner.server";
import { questAsset } from "~/modules/ledger/assets";
import { balanceOf } from "~/modules/ledger/ledger.server";
import { trendingTasks } from "~/modules/tasks/trending.server";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { startJobRunner } from "#tests/setup/job-runner";

let chain: LocalChain;
let database: Database;
let addresses: ContractAddresses;

beforeAll(async () => {
  chain = await startLocalChain();
  ({ addresses } = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") }));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  await chain.stop();
});

/** Approves the vault and deposits `amount` tokens under `ref` from dev account `account`; resolves once it is mined. */
async function deposit({ account, amount, ref }: { account: number; amount: bigint; ref: `0x${string}` }) {
  const transport = http(chain.url);
  const client = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[account]!) });
  await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({ address: addresses.QuestToken, abi: questTokenAbi, functionName: "approve", args: [addresses.DepositVault, amount] }),
  });
  await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({ address: addresses.DepositVault, abi: depositVaultAbi, functionName: "deposit", args: [amount, ref] }),
  });
}

describe("startJobs: deposit-scan", () => {
  it("credits a deposit on the block's new head where the node offers a WebSocket, with the ticker an hour away", async () => {
    await database.db.insert(user).values({ id: "h", email: "h@example.com", name: "h" });
    const ref = await depositRefOf({ db: database.db, userId: "h" });
    // The ticker sends its first job at start and the next in an hour: only a new head can bring the scan that credits.
    const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-heads-")), DEPOSIT_SCAN_EVERY_MS: "3600000" });
    const chains = localRegistry({ url: chain.url, contracts: addresses });
    expect(chains.get(31337)?.webSocket).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const logger = createLogger("silent");
    const errors = vi.spyOn(logger, "error");
    const { stop } = await startJobRunner({ database, logger, env, chains }, { only: ["deposit-scan"] });
    try {
      // The ticker's first scan (and the head the follower reports on subscribing) set the cursor before the deposit.
      await vi.waitFor(
        async () => expect(await database.db.select().from(chainEventCursor).where(eq(chainEventCursor.subscription, DEPOSIT_SUBSCRIPTION))).toHaveLength(1),
        { timeout: 20_000, interval: 50 },
      );
      await deposit({ account: 3, amount: parseEther("2"), ref });
      await vi.waitFor(async () => expect((await listDeposits({ db: database.db, userId: "h", limit: 5 }))[0]?.status).toBe("credited"), {
        timeout: 20_000,
        interval: 50,
      });
    } finally {
      await stop();
    }
    expect(await balanceOf({ db: database.db, userId: "h" })).toEqual([{ asset: questAsset(31337), available: parseEther("2"), held: 0n }]);
    expect(errors).not.toHaveBeenCalled();
  });

  it("credits a deposit by its ticker where the node offers no WebSocket, and skips chains it cannot read", async () => {
    await database.db.insert(user).values({ id: "w", email: "w@example.com", name: "w" });
    const ref = await depositRefOf({ db: database.db, userId: "w" });
    const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-scan-")), DEPOSIT_SCAN_EVERY_MS: "100" });
    // Chain 56 has contracts but no node here: the registry leaves it out, so it is not an error every interval.
    const chains = localRegistry({ url: chain.url, contracts: addresses, webSocket: null });
    const logger = createLogger("silent");
    const errors = vi.spyOn(logger, "error");
    const { stop } = await startJobRunner({ database, logger, env, chains }, { only: ["deposit-scan"] });
    try {
      await deposit({ account: 2, amount: parseEther("3"), ref });
      await vi.waitFor(async () => expect((await listDeposits({ db: database.db, userId: "w", limit: 5 }))[0]?.status).toBe("credited"), {
        timeout: 20_000,
        interval: 50,
      });
    } finally {
      await stop();
    }
    expect(await balanceOf({ db: database.db, userId: "w" })).toEqual([{ asset: questAsset(31337), available: parseEther("3"), held: 0n }]);
    expect(errors).not.toHaveBeenCalled();
  });
});

describe("startJobs: operator-outbox", () => {
  it("follows the operator's transaction to its confirmation in the chain's own follower job, on the chain's heads", async () => {
    // The ticker sends its first job at start and the next in an hour: the new head of the transaction's block brings the run that confirms it.
    const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-outbox-")), WITHDRAW_EVERY_MS: "3600000" });
    const chains = localRegistry({ url: chain.url, contracts: addresses });
    const [local] = chains.vaultChains();
    const signer: OperatorSigner = { chainId: local!.id, client: local!.client, wallet: local!.operator!, confirmations: local!.confirmations };
    const logger = createLogger("silent");
    const errors = vi.spyOn(logger, "error");
    const { stop } = await startJobRunner({ database, logger, env, chains }, { only: ["operator-outbox"] });
    try {
      const call = { address: addresses.QuestToken, abi: questTokenAbi, functionName: "approve", args: [addresses.AirdropDistributor, 7n] } as const;
      const prepared = await prepareOperatorCall(signer, call);
      const stored = await database.db.transaction((tx) => storeOperatorTx(tx as unknown as Db, signer, { intentKey: "test:jobs", prepared }));
      expect(await broadcastOperatorTx(database.db, signer.client, stored, new Date())).toBe("accepted");
      const stateOf = async () => (await operatorTxOf(database.db, "test:jobs"))?.state;
      // Mined into the next block (automine): that head, and each later one, brings a run that reads it deeper, until it is confirmed.
      await vi.waitFor(
        async () => {
          const state = await stateOf();
          if (state !== "confirmed") await signer.client.request({ method: "evm_mine" } as never);
          expect(state).toBe("confirmed");
        },
        { timeout: 20_000, interval: 300 },
      );
    } finally {
      await stop();
    }
    expect(errors).not.toHaveBeenCalled();
  });
});

describe("startJobs: trending-tasks", () => {
  it("counts the day's completions as soon as it starts", async () => {
    const db = database.db;
    await db.insert(user).values({ id: "t", email: "t@example.com", name: "t" });
    await db.insert(project).values({ id: "tp", slug: "tp", name: "Trending" });
    await db.insert(task).values({ id: "tt", projectId: "tp", title: "Busy", type: "visit_link", xp: 5, verification: "none", publishedAt: new Date() });
    await db.insert(completion).values({ id: "tc", taskId: "tt", userId: "t", period: "once", status: "approved" });
    const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-trending-")) });
    const logger = createLogger("silent");
    const errors = vi.spyOn(logger, "error");
    const { stop } = await startJobRunner(
      { database, logger, env, chains: localRegistry({ url: chain.url, contracts: addresses }) },
      { only: ["trending-tasks"] },
    );
    try {
      await vi.waitFor(
        async () =>
          expect(await db.select({ taskId: trendingTask.taskId, recent: trendingTask.recent }).from(trendingTask)).toEqual([{ taskId: "tt", recent: 1 }]),
        {
          timeout: 20_000,
          interval: 50,
        },
      );
    } finally {
      await stop();
    }
    expect((await trendingTasks({ db }))[0]).toMatchObject({ task: { id: "tt" }, recent: 1 });
    expect(errors).not.toHaveBeenCalled();
  });
});
