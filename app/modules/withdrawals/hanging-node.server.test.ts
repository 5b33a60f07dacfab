import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawal } from "#db/schema/ledger";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { failureMessage } from "~/lib/result";
import { buildChainRegistry } from "~/modules/chain/chain-registry.server";
import { loadTokenScreen, readVault } from "~/modules/chain/token-reads.server";
import { balanceOf, checkLedger } from "~/modules/ledger/ledger.server";
import { chainTransport } from "~/wallet/chain-config";
import { createTestDatabase } from "#tests/setup/test-db";
import { startRpcProxy, type RpcProxy } from "#tests/setup/rpc-proxy";
import { form, fundedMember, Q, vaultOnChain, type VaultOnChain } from "#tests/setup/withdrawal-chain";
import { processWithdrawals } from "./withdrawal-job.server";
import { cancelWithdrawal, requestWithdrawal, withdrawalLimits } from "./withdrawals.server";

/**
 * A chain node that accepts a request and never answers (a proxy holding every answer) must stop
 * nothing else: the withdrawal job waits on it holding no database transaction, so a member's
 * cancel goes through meanwhile (on the embedded database, whose one connection the job would
 * otherwise hold); and a page's read gives up within its deadline and says the chain could not
 * be reached.
 */

let database: Database;
let node: LocalChain;
let vault: VaultOnChain;
let proxy: RpcProxy;
const limits = withdrawalLimits({ WITHDRAWAL_MIN: "1", WITHDRAWAL_DAILY_LIMIT: "1000", WITHDRAWAL_FEE: "0" });

beforeAll(async () => {
  [database, node] = await Promise.all([createTestDatabase(), startLocalChain()]);
  vault = await vaultOnChain(node.url);
  proxy = await startRpcProxy(node.url);
}, 60_000);
afterAll(async () => {
  await proxy.stop();
  await Promise.all([database.close(), node.stop()]);
});

describe("a chain node that hangs", () => {
  it("holds no database transaction in the withdrawal job: a cancel goes through while the job waits on the node", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "hang-cancel", parseEther("20"));
    const requested = await requestWithdrawal({ db, userId, input: form(wallet, parseEther("5")), limits });
    if (!requested.ok) throw new Error(failureMessage(requested));

    proxy.setRule(() => "hold");
    const held = proxy.nextHeld();
    let jobEnded = false;
    const job = processWithdrawals({ db, chains: new Map([[31337, vault.chain(proxy.url)]]) }).finally(() => (jobEnded = true));
    await held;

    expect(await cancelWithdrawal({ db, userId, id: requested.id })).toEqual({ ok: true });
    expect(jobEnded, "the cancel answered while the job still waited on the node").toBe(false);

    // The node gives up (the proxy cuts its connections): the job finds the withdrawal cancelled and leaves it so.
    await proxy.stop();
    await job;
    const [row] = await db.select().from(withdrawal).where(eq(withdrawal.id, requested.id));
    expect(row).toMatchObject({ status: "cancelled", txHash: null });
    expect(await balanceOf({ db, userId, asset: Q })).toEqual([{ asset: Q, available: parseEther("20"), held: 0n }]);
    expect(await checkLedger({ db })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
    await proxy.start();
    proxy.setRule(() => "forward");
  });

  it("gives a page's read up at its deadline: the token screen says the chain could not be reached", async () => {
    proxy.setRule(() => "hold");
    const chains = buildChainRegistry({
      config: { localRpcs: { 31337: proxy.url }, ankr: null, infura: null, blast: null, projectId: "local", chainIds: [31337] },
      chainIds: [31337],
      chains: [
        {
          id: 31337,
          transport: chainTransport([proxy.url], { timeoutMs: 60_000 }),
          pageTransport: chainTransport([proxy.url], { timeoutMs: 100, retryCount: 0 }),
          contracts: vault.addresses,
          confirmations: 1,
        },
      ],
      logger: createLogger("silent"),
    });
    const screen = await loadTokenScreen({ chains, logger: createLogger("silent") }, new Request("http://localhost/balance"), readVault);
    expect(screen).toMatchObject({ ok: false, reason: "node", chainId: 31337 });
    proxy.setRule(() => "forward");
  });
});
