// Deposit crediting latency: `node --import ./scripts/app-paths.ts bench/deposit-latency.ts`, or `npm run bench -- ledger` (PGlite, or PostgreSQL with DATABASE_URL).
//
// Starts a local chain with Questline's contracts and the deposit scanner exactly as the server's
// worker runs it (through the job engine: on each new head over anvil's WebSocket, and every
// DEPOSIT_SCAN_EVERY_MS; CONFIRMATIONS for chain 31337; their defaults unless set), then makes BENCH_DEPOSITS deposits (10 by default) at random moments of the
// scanner's interval. For each it measures the time from the block giving the deposit its last
// required confirmation being mined to the deposit being credited (the row's `credited_at`), and
// prints the median as `BENCH deposit_credit_latency_ms <value> ms`.

import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import pg from "pg";
import { createPublicClient, createTestClient, createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { DEV_PRIVATE_KEYS } from "../contracts/dev-accounts.ts";
import { depositVaultAbi } from "../contracts/generated/deposit-vault.ts";
import { questTokenAbi } from "../contracts/generated/quest-token.ts";
import { user } from "../db/schema/auth.ts";
import { chainEventCursor } from "../db/schema/chain.ts";
import { deposit } from "../db/schema/ledger.ts";
import { openDatabase } from "../app/lib/db.server.ts";
import { loadEnv } from "../app/services/env.server.ts";
import { startLocalChain } from "../app/lib/local-chain.server.ts";
import { createLogger } from "../app/lib/logger.server.ts";
import { ensureLocalContracts } from "../app/modules/chain/contracts.server.ts";
import { depositRefOf } from "../app/modules/deposits/deposit-refs.server.ts";
import { DEPOSIT_SUBSCRIPTION } from "../app/modules/deposits/scanner.server.ts";
import { localRegistry } from "../tests/setup/local-registry.ts";
import { startJobRunner } from "../tests/setup/job-runner.ts";
import { bench, log, median } from "./stats.ts";

type Database = Awaited<ReturnType<typeof openDatabase>>;

const CHAIN_ID = 31337;
const DEPOSITS = Number(process.env.BENCH_DEPOSITS ?? 10);
const serverUrl = process.env.DATABASE_URL;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withDatabase<T>(run: (database: Database) => Promise<T>): Promise<T> {
  if (!serverUrl) {
    const database = await openDatabase({ dataDir: null });
    return run(database).finally(() => database.close());
  }
  const name = `questline_bench_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  try {
    return await run(database);
  } finally {
    await database.close();
    await admin(`drop database if exists ${name} with (force)`);
  }
}

/** Waits (polling the database) until the deposit of `txHash` is credited; returns its `credited_at`. */
async function creditedAt(database: Database, txHash: string): Promise<Date> {
  for (;;) {
    const [row] = await database.db
      .select({ creditedAt: deposit.creditedAt })
      .from(deposit)
      .where(and(eq(deposit.chainId, CHAIN_ID), eq(deposit.txHash, txHash.toLowerCase()), eq(deposit.status, "credited")));
    if (row?.creditedAt) return row.creditedAt;
    await sleep(5);
  }
}

const env = loadEnv({ ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "questline-bench-")) });
const required = env.confirmations.get(CHAIN_ID)!;
const chain = await startLocalChain();
try {
  const { addresses } = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") });
  const transport = http(chain.url);
  const client = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  const testClient = createTestClient({ chain: anvil, mode: "anvil", transport });
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[1]) });
  await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: addresses.QuestToken,
      abi: questTokenAbi,
      functionName: "approve",
      args: [addresses.DepositVault, parseEther("1000000")],
    }),
  });

  const samples = await withDatabase(async (database) => {
    await database.db.insert(user).values({ id: "bench", email: "bench@bench.invalid", name: "Bench" });
    const ref = await depositRefOf({ db: database.db, userId: "bench" });
    const chains = localRegistry({ url: chain.url, contracts: addresses, confirmations: required });
    // The deposit-scan queue's real handler, fed by new heads and its ticker, through the job engine.
    const { stop } = await startJobRunner({ database, logger: createLogger("silent"), env, chains }, { only: ["deposit-scan"] });
    const latencies: number[] = [];
    try {
      while ((await database.db.select().from(chainEventCursor).where(eq(chainEventCursor.subscription, DEPOSIT_SUBSCRIPTION))).length === 0) await sleep(10);
      log(
        `${database.kind}, scanning on each new head (${chains.get(CHAIN_ID)?.webSocket ?? "no WebSocket"}) and every ${env.DEPOSIT_SCAN_EVERY_MS} ms, ${required} confirmation(s), ${DEPOSITS} deposits`,
      );
      for (let i = 0; i < DEPOSITS; i++) {
        // A random moment of the scanner's interval, as a member's deposit would land.
        await sleep(Math.random() * env.DEPOSIT_SCAN_EVERY_MS);
        const hash = await wallet.writeContract({
          address: addresses.DepositVault,
          abi: depositVaultAbi,
          functionName: "deposit",
          args: [parseEther("1"), ref],
        });
        // anvil mines each transaction as it arrives: the block is mined when the call returns.
        let lastBlockMined = Date.now();
        await client.waitForTransactionReceipt({ hash });
        if (required > 1) {
          await testClient.mine({ blocks: required - 1 });
          lastBlockMined = Date.now();
        }
        const latency = (await creditedAt(database, hash)).getTime() - lastBlockMined;
        log(`deposit ${i + 1}: ${latency} ms`);
        latencies.push(latency);
      }
    } finally {
      await stop();
    }
    return latencies;
  });
  bench("deposit_credit_latency_ms", median(samples), "ms");
} finally {
  await chain.stop();
}
// Something the run opened keeps the event loop alive after the chain, the job engine and the
// database are closed (not found yet); the figures are printed, so end here.
process.exit(0);
