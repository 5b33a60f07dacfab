import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { parseEther } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { journalEntry, withdrawal } from "#db/schema/ledger";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { balanceOf, checkLedger, platformBalance } from "~/modules/ledger/ledger.server";
import { KILL_TEST_TIMEOUT_MS, startJobChild } from "#tests/setup/job-child";
import { startRpcProxy, type RpcProxy } from "#tests/setup/rpc-proxy";
import { createTestDatabase, sharedDatabase } from "#tests/setup/test-db";
import { form, fundedMember, Q, rpc, vaultOnChain, type VaultOnChain } from "#tests/setup/withdrawal-chain";
import type { WithdrawalChain } from "./withdrawal-chain.server";
import { followedWithdrawals } from "#tests/setup/outbox-runs";
import { requestWithdrawal, withdrawalLimits } from "./withdrawals.server";
import { failureMessage } from "~/lib/result";

let database: Database;
let node: LocalChain;
let proxy: RpcProxy;
let vault: VaultOnChain;
let direct: WithdrawalChain;
let viaProxy: WithdrawalChain;
const limits = withdrawalLimits({ WITHDRAWAL_MIN: "1", WITHDRAWAL_DAILY_LIMIT: "1000", WITHDRAWAL_FEE: "1" });
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };
const onPostgres = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  [database, node] = await Promise.all([createTestDatabase(), startLocalChain()]);
  proxy = await startRpcProxy(node.url);
  vault = await vaultOnChain(node.url);
  direct = vault.chain();
  viaProxy = vault.chain(proxy.url);
}, 60_000);
afterAll(async () => {
  await proxy.stop();
  await Promise.all([database.close(), node.stop()]);
});

/** What the job reported as failed steps during the current test: a test that expects some takes them. */
const jobErrors: { id: string; error: unknown }[] = [];
const takeJobErrors = () => jobErrors.splice(0);
afterEach(() => {
  expect(takeJobErrors(), "the job reported errors this test did not expect").toEqual([]);
});
const job = (db: Db, chain: WithdrawalChain) =>
  followedWithdrawals({ db, chains: new Map([[31337, chain]]), onError: (id, error) => void jobErrors.push({ id, error }) });
const rowOf = async (db: Db, id: string) => (await db.select().from(withdrawal).where(eq(withdrawal.id, id)))[0]!;

async function requested(db: Db, userId: string, to: `0x${string}`, amount: bigint, requestKey?: string) {
  const result = await requestWithdrawal({ db, userId, input: form(to, amount, requestKey), limits });
  if (!result.ok) throw new Error(failureMessage(result));
  return result.id;
}

/** Paid exactly once, nothing held or in flight, the ledger's invariants whole. */
async function expectPaidOnce(db: Db, { id, userId, wallet, amount }: { id: string; userId: string; wallet: `0x${string}`; amount: bigint }) {
  expect(await rowOf(db, id)).toMatchObject({ status: "confirmed", failure: null });
  expect(await vault.paid(id)).toBe(true);
  expect(await vault.tokenBalance(wallet)).toBe(amount - parseEther("1"));
  expect((await balanceOf({ db, userId, asset: Q }))[0]!.held).toBe(0n);
  expect(await platformBalance({ db, name: "withdrawals_in_flight", asset: Q })).toBe(0n);
  const sentEntries = await db.select().from(journalEntry).where(eq(journalEntry.reference, id));
  expect(sentEntries.map((e) => e.kind).sort()).toEqual(["withdrawal_confirmed", "withdrawal_fee", "withdrawal_hold", "withdrawal_sent"]);
  expect(await checkLedger({ db })).toEqual(CLEAN);
}

describe("the chain node stops during a withdrawal", () => {
  it.each([
    ["before the signed transaction reached it", "drop-before"],
    ["after it took the transaction, before it answered", "drop-after"],
  ] as const)("%s: the withdrawal stays `sending`, then pays exactly once when the node is back", async (_, action) => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, `node-${action}`, parseEther("10"));
    const id = await requested(db, userId, wallet, parseEther("4"));
    proxy.setRule((method) => {
      if (method !== "eth_sendRawTransaction") return "forward";
      void proxy.stop();
      return action;
    });
    await job(db, viaProxy);
    const signed = await rowOf(db, id);
    expect(signed).toMatchObject({ status: "sending", attempts: 1 });
    expect(await platformBalance({ db, name: "withdrawals_in_flight", asset: Q })).toBe(parseEther("4"));
    expect(await vault.paid(id)).toBe(action === "drop-after");

    // Still down: it may be in a mempool, so it is neither failed nor signed again.
    await job(db, viaProxy);
    expect(await rowOf(db, id)).toMatchObject({ status: "sending", attempts: 1, txHash: signed.txHash, failure: null });

    proxy.setRule(() => "forward");
    await proxy.start();
    await job(db, viaProxy);
    await job(db, viaProxy);
    expect((await rowOf(db, id)).txHash).toBe(signed.txHash);
    await expectPaidOnce(db, { id, userId, wallet, amount: parseEther("4") });
  });
});

describe("the server process is killed (SIGKILL) between sending and recording", () => {
  it("re-broadcasts the stored transaction after the restart: confirmed, paid once, the ledger whole", { timeout: KILL_TEST_TIMEOUT_MS }, async () => {
    const shared = await sharedDatabase(database, { applicationName: "questline-withdrawal-child" });
    try {
      const { userId, wallet } = await fundedMember(shared.db, "killed", parseEther("10"));
      const id = await requested(shared.db, userId, wallet, parseEther("6"));
      await shared.handOver();
      await rpc(node.url, "evm_setAutomine", [false]);
      // The node takes the transaction; its answer never reaches the process.
      proxy.setRule((method) => (method === "eth_sendRawTransaction" ? "hold" : "forward"));
      const child = startJobChild("tests/setup/withdrawal-child.ts", { ...shared.env, CHILD_RPC_URL: proxy.url, CHILD_VAULT: vault.addresses.DepositVault });
      const operator = DEV_ADDRESSES[9];
      await child.stopsWhen(async () => {
        const [pending, mined] = await Promise.all([
          vault.publicClient.getTransactionCount({ address: operator, blockTag: "pending" }),
          vault.publicClient.getTransactionCount({ address: operator }),
        ]);
        expect(pending).toBe(mined + 1);
      });
      if (onPostgres) expect((await rowOf(shared.db, id)).status).toBe("sending");
      expect(await child.kill()).toBe("SIGKILL");
      expect(child.output()).not.toContain("job done");
      proxy.setRule(() => "forward");
      await rpc(node.url, "evm_mine");
      await rpc(node.url, "evm_setAutomine", [true]);

      const db = await shared.takeBack();
      const recorded = await rowOf(db, id);
      expect(recorded).toMatchObject({ status: "sending", attempts: 1 });
      expect(await vault.paid(id)).toBe(true);
      await job(db, direct);
      expect((await rowOf(db, id)).txHash).toBe(recorded.txHash);
      await expectPaidOnce(db, { id, userId, wallet, amount: parseEther("6") });
      await job(db, direct);
      await expectPaidOnce(db, { id, userId, wallet, amount: parseEther("6") });
    } finally {
      await rpc(node.url, "evm_setAutomine", [true]);
      await shared.close();
    }
  });
});

describe("the database connection drops mid-posting", () => {
  it.skipIf(!onPostgres)(
    "(PostgreSQL only: PGlite is one in-process connection, there is none to drop) fails the request cleanly; the same request key then posts once",
    async () => {
      const db = database.db;
      const { userId, wallet } = await fundedMember(db, "dropped", parseEther("10"));
      const [row] = rowsOf(await db.execute(sql`select current_database() as name`));
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${String(row!.name)}`;
      // One session blocks the posting; another (outside any transaction, so it sees fresh activity) finds and ends it.
      const [blocker, observer] = [new pg.Client({ connectionString: url.toString() }), new pg.Client({ connectionString: url.toString() })];
      await Promise.all([blocker.connect(), observer.connect()]);
      const requestKey = randomUUID();
      try {
        // Another session holds the member's available account: the hold's posting waits on it.
        await blocker.query("begin");
        await blocker.query("select id from ledger_account where holder = $1 and name = 'available' for update", [userId]);
        // Its outcome is taken at once, so the failure cannot go unhandled while the backend is found and ended.
        const outcome = requestWithdrawal({ db, userId, input: form(wallet, parseEther("3"), requestKey), limits }).then(
          () => "resolved",
          (error: unknown) => error,
        );
        const waiting = await vi.waitFor(
          async () => {
            const found = await observer.query<{ pid: number }>(
              "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%questline_post%'",
            );
            expect(found.rows).toHaveLength(1);
            return found.rows[0]!.pid;
          },
          { timeout: 20_000, interval: 50 },
        );
        await observer.query("select pg_terminate_backend($1)", [waiting]);
        expect(await outcome).toBeInstanceOf(Error);
        await blocker.query("rollback");
      } finally {
        await Promise.all([blocker.end(), observer.end()]);
      }
      expect(await db.select().from(withdrawal).where(eq(withdrawal.userId, userId))).toEqual([]);
      expect(await balanceOf({ db, userId, asset: Q })).toEqual([{ asset: Q, available: parseEther("10"), held: 0n }]);
      expect(await checkLedger({ db })).toEqual(CLEAN);

      const again = await requestWithdrawal({ db, userId, input: form(wallet, parseEther("3"), requestKey), limits });
      const twice = await requestWithdrawal({ db, userId, input: form(wallet, parseEther("3"), requestKey), limits });
      expect(again.ok && twice.ok && again.id === twice.id).toBe(true);
      expect(await db.select().from(withdrawal).where(eq(withdrawal.userId, userId))).toHaveLength(1);
      expect(await balanceOf({ db, userId, asset: Q })).toEqual([{ asset: Q, available: parseEther("7"), held: parseEther("3") }]);
      expect(await checkLedger({ db })).toEqual(CLEAN);
    },
  );
});
