// The operator's outbox: `npm run bench -- outbox` (PGlite, or PostgreSQL with DATABASE_URL).
//
// On a fresh local chain mining a block every second (anvil's interval mining), with Questline's
// contracts:
// - outbox_confirmed_per_min: for BENCH_OUTBOX_SECONDS (30 by default) one loop signs operator
//   transactions through the outbox as fast as it can (prepare → store → broadcast, as the
//   withdrawal job does) while a follower runs `followOperatorTxs` every 250 ms, as the jobs do;
//   the figure is the transactions the outbox recorded `confirmed` per minute.
// - outbox_replace_s: a transaction left stuck in the node's pool (the next blocks' base fee raised
//   above what it pays), the outbox told to replace it after 3 s; the figure is the time from that
//   wait's end to the replacement being seen mined (median of BENCH_OUTBOX_STUCK rounds, 3 by default).

import { eq, sql } from "drizzle-orm";
import { createPublicClient, createWalletClient, http, parseGwei, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { DEV_OPERATOR_PRIVATE_KEY, DEV_PRIVATE_KEYS } from "../contracts/dev-accounts.ts";
import { questTokenAbi } from "../contracts/generated/quest-token.ts";
import { operatorTx } from "../db/schema/chain.ts";
import { openDatabase, type Db } from "../app/lib/db.server.ts";
import { startLocalChain } from "../app/lib/local-chain.server.ts";
import { createLogger } from "../app/lib/logger.server.ts";
import { ensureLocalContracts } from "../app/modules/chain/contracts.server.ts";
import {
  broadcastOperatorTx,
  followOperatorTxs,
  prepareOperatorCall,
  storeOperatorTx,
  type OperatorSigner,
  type PreparedCall,
} from "../app/modules/chain/operator-outbox.server.ts";
import { bench, log, median } from "./stats.ts";

const SECONDS = Number(process.env.BENCH_OUTBOX_SECONDS ?? 30);
const STUCK_ROUNDS = Number(process.env.BENCH_OUTBOX_STUCK ?? 3);
const BUMP_AFTER_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const node = await startLocalChain();
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: null });
try {
  const { addresses } = await ensureLocalContracts({ rpcUrl: node.url, known: undefined, logger: createLogger("silent") });
  const transport = http(node.url, { retryCount: 0 });
  const signer: OperatorSigner = {
    chainId: anvil.id,
    client: createPublicClient({ chain: anvil, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY) }),
    confirmations: 1,
  };
  const rpc = (method: string, params: unknown[] = []) => signer.client.request({ method, params } as never);
  // A block every second, mined by this loop (so it can hold a block back while it sets up a stuck transaction).
  await rpc("evm_setAutomine", [false]);
  let mining = true;
  let holdBlocks = false;
  let lastBlock: Promise<unknown> = Promise.resolve();
  // While set, every block asks this base fee (a busy chain).
  let congestedBaseFee = null as bigint | null;
  const miner = (async () => {
    while (mining) {
      await sleep(1000);
      if (holdBlocks) continue;
      const baseFee = congestedBaseFee;
      if (baseFee !== null) await rpc("anvil_setNextBlockBaseFeePerGas", [`0x${baseFee.toString(16)}`]);
      lastBlock = rpc("evm_mine");
      await lastBlock;
    }
  })();
  const spender = privateKeyToAccount(DEV_PRIVATE_KEYS[3]).address;
  const prepare = (amount: bigint) =>
    prepareOperatorCall(signer, { address: addresses.QuestToken, abi: questTokenAbi, functionName: "approve", args: [spender, amount] });
  const store = (intentKey: string, prepared: PreparedCall) =>
    database.db.transaction((tx) => storeOperatorTx(tx as unknown as Db, signer, { intentKey, prepared }));
  const confirmed = async () =>
    Number(
      (
        await database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(operatorTx)
          .where(eq(operatorTx.state, "confirmed"))
      )[0]!.n,
    );

  // Throughput: one signing loop and one follower, for SECONDS.
  let following = true;
  const follower = (async () => {
    while (following) {
      await followOperatorTxs(database.db, signer, { now: new Date(), rebroadcastAfterMs: 60_000, bumpAfterMs: 60_000 });
      await sleep(250);
    }
  })();
  const started = Date.now();
  let signed = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const stored = await store(`bench:${signed}`, await prepare(BigInt(signed + 1)));
    await broadcastOperatorTx(database.db, signer.client, stored, new Date());
    signed += 1;
  }
  const confirmedAtEnd = await confirmed();
  following = false;
  await follower;
  log(`${signed} signed and broadcast in ${SECONDS} s; ${confirmedAtEnd} confirmed by then`);
  bench("outbox_confirmed_per_min", (confirmedAtEnd * 60) / SECONDS, "tx/min");

  // Replacement: a stuck transaction, replaced once the wait has passed.
  const replaceSeconds: number[] = [];
  for (let round = 0; round < STUCK_ROUNDS; round++) {
    await followOperatorTxs(database.db, signer, { now: new Date(), rebroadcastAfterMs: 60_000, bumpAfterMs: 60_000 });
    const prepared = await prepare(BigInt(1_000_000 + round));
    const block = await signer.client.getBlock();
    // It pays twice today's base fee; the next block (held back meanwhile) asks a thousand times more, and the ones after it not much less.
    const fee = (block.baseFeePerGas ?? parseGwei("1")) * 2n;
    const stored = await store(`bench:stuck:${round}`, { ...prepared, request: { ...prepared.request, maxFeePerGas: fee, maxPriorityFeePerGas: fee / 2n } });
    holdBlocks = true;
    await lastBlock;
    await broadcastOperatorTx(database.db, signer.client, stored, new Date());
    congestedBaseFee = fee * 50n;
    holdBlocks = false;
    const stuckFrom = Date.now() + BUMP_AFTER_MS;
    let replacement: Hex | null = null;
    for (;;) {
      const summary = await followOperatorTxs(database.db, signer, {
        now: new Date(),
        rebroadcastAfterMs: BUMP_AFTER_MS,
        bumpAfterMs: BUMP_AFTER_MS,
        onError: (key, error) => log(`${key}: ${String(error).replace(/\s+/g, " ").slice(0, 600)}`),
      });
      const [row] = await database.db.select().from(operatorTx).where(eq(operatorTx.id, stored.id));
      if (summary.bumped > 0) replacement = row!.txHash as Hex;
      if (row!.state === "confirmed" || row!.state === "included") {
        if (row!.txHash !== replacement) throw new Error("The stuck transaction was mined before it was replaced");
        break;
      }
      await sleep(50);
    }
    congestedBaseFee = null;
    // Seen mined by the follower (polling every 50 ms), as the jobs would see it.
    replaceSeconds.push((Date.now() - stuckFrom) / 1000);
    log(`round ${round + 1}: replaced after the ${BUMP_AFTER_MS / 1000} s wait, mined ${(replaceSeconds.at(-1) ?? 0).toFixed(2)} s after it`);
  }
  bench("outbox_replace_s", median(replaceSeconds), "s");
  mining = false;
  await miner;
} finally {
  await database.close();
  await node.stop();
}
