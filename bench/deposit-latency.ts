// Deposit crediting latency: `node bench/deposit-latency.ts` (PGlite, or PostgreSQL with DATABASE_URL).
//
// Starts a local chain with Questline's contracts and the deposit scanner exactly as the server's
// worker runs it (DEPOSIT_SCAN_EVERY_MS, CONFIRMATIONS for chain 31337, their defaults
// unless set), then makes BENCH_DEPOSITS deposits (10 by default) at random moments of the
// scanner's interval. For each it measures the time from the block giving the deposit its last
// required confirmation being mined to the deposit being credited (the row's `credited_at`), and
// prints the median as `BENCH deposit_credit_latency_ms <value> ms`.

import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The app's modules import each other as `~/…` (a Vite and TypeScript alias) and relative paths
// without an extension, which Vite resolves: resolve them here too.
const root = new URL("../", import.meta.url).href;
const appDir = new URL("app/", root);
const isFile = (url: URL) => existsSync(fileURLToPath(url)) && statSync(fileURLToPath(url)).isFile();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const ours = context.parentURL?.startsWith(root) && !context.parentURL.includes("/node_modules/");
    const relative = specifier.startsWith("./") || specifier.startsWith("../");
    if (!ours || !(specifier.startsWith("~/") || relative)) return nextResolve(specifier, context);
    const base = specifier.startsWith("~/") ? new URL(specifier.slice(2), appDir) : new URL(specifier, context.parentURL);
    const found = ["", ".ts", ".tsx"].map((extension) => new URL(base.href + extension)).find(isFile);
    return nextResolve(found?.href ?? specifier, context);
  },
});

const { and, eq } = await import("drizzle-orm");
const pg = (await import("pg")).default;
const { createPublicClient, createTestClient, createWalletClient, http, parseEther } = await import("viem");
const { privateKeyToAccount } = await import("viem/accounts");
const { anvil } = await import("viem/chains");
const { DEV_PRIVATE_KEYS } = await import("../contracts/dev-accounts.ts");
const { depositVaultAbi } = await import("../contracts/generated/deposit-vault.ts");
const { questTokenAbi } = await import("../contracts/generated/quest-token.ts");
const { user } = await import("../db/schema/auth.ts");
const { deposit, depositCursor } = await import("../db/schema/ledger.ts");
const { openDatabase } = await import("../app/lib/db.server.ts");
const { loadEnv } = await import("../app/lib/env.server.ts");
const { startLocalChain } = await import("../app/lib/local-chain.server.ts");
const { createLogger } = await import("../app/lib/logger.server.ts");
const { ensureLocalContracts } = await import("../app/modules/chain/contracts.server.ts");
const { depositRefOf } = await import("../app/modules/deposits/deposit-refs.server.ts");
const { startDepositScanners } = await import("../server/deposit-scanners.ts");

type Database = Awaited<ReturnType<typeof openDatabase>>;
type ChainAccess = Parameters<typeof startDepositScanners>[0]["chains"];

const CHAIN_ID = 31337;
const DEPOSITS = Number(process.env.BENCH_DEPOSITS ?? 10);
const serverUrl = process.env.DATABASE_URL;

const log = (message: string) => console.error(`[bench] ${message}`);
const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
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
    hash: await wallet.writeContract({ address: addresses.QuestToken, abi: questTokenAbi, functionName: "approve", args: [addresses.DepositVault, parseEther("1000000")] }),
  });

  const samples = await withDatabase(async (database) => {
    await database.db.insert(user).values({ id: "bench", email: "bench@bench.invalid", name: "Bench" });
    const ref = await depositRefOf({ db: database.db, userId: "bench" });
    const chains = { transportFor: (chainId: number) => (chainId === CHAIN_ID ? transport : undefined) } as ChainAccess;
    const stop = startDepositScanners({ database, logger: createLogger("silent"), env, chains, contracts: new Map([[CHAIN_ID, addresses]]) });
    const latencies: number[] = [];
    try {
      while ((await database.db.select().from(depositCursor)).length === 0) await sleep(10);
      log(`${database.kind}, scanning every ${env.DEPOSIT_SCAN_EVERY_MS} ms, ${required} confirmation(s), ${DEPOSITS} deposits`);
      for (let i = 0; i < DEPOSITS; i++) {
        // A random moment of the scanner's interval, as a member's deposit would land.
        await sleep(Math.random() * env.DEPOSIT_SCAN_EVERY_MS);
        const hash = await wallet.writeContract({ address: addresses.DepositVault, abi: depositVaultAbi, functionName: "deposit", args: [parseEther("1"), ref] });
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
  console.log(`BENCH deposit_credit_latency_ms ${median(samples).toFixed(1)} ms`);
} finally {
  await chain.stop();
}
