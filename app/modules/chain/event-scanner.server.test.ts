import { and, eq, sql } from "drizzle-orm";
import { createPublicClient, createWalletClient, http, type Address, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { chainEventCursor } from "#db/schema/chain";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { ensureLocalContracts } from "./contracts.server";
import { scanEvents, type ChunkContext, type EventScan, type EventSubscription } from "./event-scanner.server";

const CHAIN_ID = 31337;

let chain: LocalChain;
let client: PublicClient;
let token: Address;
let sale: Address;
let database: Database;
/** Where this test's scans start: the block after what earlier tests left on the shared chain. */
let startBlock: bigint;

beforeAll(async () => {
  chain = await startLocalChain();
  const { addresses } = await ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") });
  token = addresses.QuestToken;
  sale = addresses.TokenSale;
  client = createPublicClient({ chain: anvil, transport: http(chain.url), pollingInterval: 10 });
});
afterAll(() => chain.stop());

beforeEach(async () => {
  database = await createTestDatabase();
  // What the subscriptions of these tests record: one row per log.
  await database.db.execute(
    sql.raw(`create table scanned_log (
      subscription text not null, block_number bigint not null, tx_hash text not null, log_index integer not null,
      primary key (subscription, tx_hash, log_index))`),
  );
  startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
});
afterEach(() => database.close());

const transferLog = z.object({
  transactionHash: z.string().regex(/^0x[0-9a-f]{64}$/),
  logIndex: z.number().int().nonnegative(),
  blockNumber: z.bigint().nonnegative(),
  args: z.object({ from: z.string(), to: z.string(), value: z.bigint() }),
});
type TransferLog = z.infer<typeof transferLog>;
type Transfers = EventSubscription<typeof questTokenAbi, TransferLog, number>;

async function recordLogs(tx: Db, name: string, logs: TransferLog[]) {
  for (const log of logs) {
    await tx.execute(
      sql`insert into scanned_log values (${name}, ${log.blockNumber.toString()}, ${log.transactionHash}, ${log.logIndex}) on conflict do nothing`,
    );
  }
}

/** A subscription to QuestToken's transfers, recording each log in `scanned_log`; `chunks` are the chunks its handler was handed. */
function transfers(name: string, overrides: Partial<Transfers> = {}): Transfers & { chunks: ChunkContext[] } {
  const chunks: ChunkContext[] = [];
  return {
    name,
    address: token,
    abi: questTokenAbi,
    eventName: "Transfer",
    parse: (log) => transferLog.parse(log),
    record: async (tx, logs, context) => {
      chunks.push(context);
      await recordLogs(tx, name, logs);
      return { result: logs.length };
    },
    ...overrides,
    chunks,
  };
}

const scan = (subscription: Transfers, options: Partial<EventScan<typeof questTokenAbi, TransferLog, number>> = {}) =>
  scanEvents({ db: database.db, chainId: CHAIN_ID, client, startBlock, subscription, ...options });

/** `count` token transfers on chain, one block each (anvil mines every transaction); their block numbers. */
async function transferBlocks(count: number): Promise<bigint[]> {
  const wallet = createWalletClient({ chain: anvil, transport: http(chain.url), account: privateKeyToAccount(DEV_PRIVATE_KEYS[1]) });
  const blocks: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const hash = await wallet.writeContract({ address: token, abi: questTokenAbi, functionName: "transfer", args: [DEV_ADDRESSES[2], 1n] });
    blocks.push((await client.waitForTransactionReceipt({ hash })).blockNumber);
  }
  return blocks;
}

/** The blocks of the logs a subscription recorded, in order. */
async function recorded(name: string): Promise<bigint[]> {
  const rows = rowsOf(await database.db.execute(sql`select block_number from scanned_log where subscription = ${name} order by block_number, log_index`));
  return rows.map((row) => BigInt(row.block_number as string | number));
}

async function cursorOf(name: string, chainId = CHAIN_ID) {
  const [cursor] = await database.db
    .select()
    .from(chainEventCursor)
    .where(and(eq(chainEventCursor.chainId, chainId), eq(chainEventCursor.subscription, name)));
  return cursor;
}

const head = () => client.getBlockNumber({ cacheTime: 0 });

describe("scanEvents", () => {
  it("keeps one cursor per chain and subscription: each reads on from its own, up to its own bound", async () => {
    const first = await transferBlocks(3);
    const followed = transfers("followed");
    // Three confirmations: up to two blocks below the head.
    const confirmed = transfers("confirmed", { lastBlock: (at) => at - 2n });
    const firstHead = await head();
    expect(await scan(followed)).toEqual({ head: firstHead, results: [3] });
    expect(await scan(confirmed)).toEqual({ head: firstHead, results: [1] });
    expect(await recorded("followed")).toEqual(first);
    expect(await recorded("confirmed")).toEqual(first.slice(0, 1));
    expect(await cursorOf("followed")).toMatchObject({ address: token, nextBlock: Number(firstHead) + 1 });
    expect(await cursorOf("confirmed")).toMatchObject({ address: token, nextBlock: Number(firstHead) - 1 });

    const more = await transferBlocks(2);
    const secondHead = await head();
    const followedAgain = transfers("followed");
    const confirmedAgain = transfers("confirmed", { lastBlock: (at) => at - 2n });
    expect((await scan(followedAgain)).results).toEqual([2]);
    expect(followedAgain.chunks.map((chunk) => [chunk.fromBlock, chunk.toBlock])).toEqual([[firstHead + 1n, secondHead]]);
    expect((await scan(confirmedAgain)).results).toEqual([2]);
    expect(confirmedAgain.chunks.map((chunk) => [chunk.fromBlock, chunk.toBlock])).toEqual([[firstHead - 1n, secondHead - 2n]]);
    expect(await recorded("followed")).toEqual([...first, ...more]);
    expect(await recorded("confirmed")).toEqual([...first, ...more].filter((block) => block <= secondHead - 2n));
    expect(await cursorOf("followed")).toMatchObject({ nextBlock: Number(secondHead) + 1 });
    expect(await cursorOf("confirmed")).toMatchObject({ nextBlock: Number(secondHead) - 1 });

    // The same subscription on another chain id has a cursor of its own, read from its start block.
    const elsewhere = transfers("followed");
    await scan(elsewhere, { chainId: 1 });
    expect(elsewhere.chunks[0]).toMatchObject({ chainId: 1, fromBlock: startBlock });
    expect(await cursorOf("followed", 1)).toMatchObject({ nextBlock: Number(secondHead) + 1 });
    expect(await cursorOf("followed")).toMatchObject({ nextBlock: Number(secondHead) + 1 });
  });

  it("reads in chunks of batchSize blocks, each recorded with the cursor's advance, and the last `reread` blocks again", async () => {
    const blocks = await transferBlocks(3);
    const chunked = transfers("chunked");
    expect((await scan(chunked, { batchSize: 2 })).results).toEqual([2, 1]);
    expect(chunked.chunks.map((chunk) => [chunk.fromBlock, chunk.toBlock])).toEqual([
      [blocks[0], blocks[1]],
      [blocks[2], blocks[2]],
    ]);
    const rereading = transfers("chunked", { reread: 2 });
    expect((await scan(rereading)).results).toEqual([2]);
    expect(rereading.chunks[0]).toMatchObject({ fromBlock: blocks[1], toBlock: blocks[2] });
    expect(await recorded("chunked")).toEqual(blocks);
    await expect(scan(transfers("chunked"), { batchSize: 0 })).rejects.toThrow(RangeError);
  });

  it("starts a cursor kept for another address afresh from startBlock", async () => {
    const blocks = await transferBlocks(2);
    const tip = await head();
    expect((await scan(transfers("moved"))).results).toEqual([2]);
    expect(await cursorOf("moved")).toMatchObject({ address: token, nextBlock: Number(tip) + 1 });

    // The subscription now follows another contract: read from its start block, the cursor is that contract's.
    const sold = transfers("moved", { address: sale });
    expect((await scan(sold)).results).toEqual([0]);
    expect(sold.chunks[0]).toMatchObject({ fromBlock: startBlock, toBlock: tip });
    expect(await cursorOf("moved")).toMatchObject({ address: sale, nextBlock: Number(tip) + 1 });

    // And back: the token's transfers are read again from the start (recorded once).
    const back = transfers("moved");
    expect((await scan(back)).results).toEqual([2]);
    expect(back.chunks[0]).toMatchObject({ fromBlock: startBlock });
    expect(await cursorOf("moved")).toMatchObject({ address: token, nextBlock: Number(tip) + 1 });
    expect(await recorded("moved")).toEqual(blocks);
  });

  it("leaves the cursor where it was, and nothing of the chunk recorded, when the handler throws", async () => {
    const before = await transferBlocks(1);
    await scan(transfers("failing"));
    const kept = await cursorOf("failing");

    const more = await transferBlocks(3);
    const throwing = transfers("failing", {
      record: async (tx, logs) => {
        await recordLogs(tx, "failing", logs);
        throw new Error("the handler failed");
      },
    });
    await expect(scan(throwing)).rejects.toThrow("the handler failed");
    expect(await cursorOf("failing")).toEqual(kept);
    expect(await recorded("failing")).toEqual(before);

    // One chunk per block, the second one failing: the first stays recorded with its advance.
    let chunks = 0;
    const secondFails = transfers("failing", {
      record: async (tx, logs) => {
        await recordLogs(tx, "failing", logs);
        if (++chunks === 2) throw new Error("the second chunk failed");
        return { result: logs.length };
      },
    });
    await expect(scan(secondFails, { batchSize: 1 })).rejects.toThrow("the second chunk failed");
    expect(await recorded("failing")).toEqual([...before, more[0]]);
    expect(await cursorOf("failing")).toMatchObject({ nextBlock: Number(more[0]) + 1 });

    // The next run takes up from there.
    expect((await scan(transfers("failing"))).results).toEqual([2]);
    expect(await recorded("failing")).toEqual([...before, ...more]);
    expect(await cursorOf("failing")).toMatchObject({ nextBlock: Number(await head()) + 1 });
  });

  it("stops a run where the handler says, and the next run reads on from that block", async () => {
    const blocks = await transferBlocks(3);
    const handed: ChunkContext[] = [];
    const stopping = transfers("stopping", {
      record: async (tx, logs, context) => {
        handed.push(context);
        const before = logs.filter((log) => log.blockNumber < blocks[1]!);
        await recordLogs(tx, "stopping", before);
        return { result: before.length, stopBefore: blocks[1] };
      },
    });
    expect((await scan(stopping, { batchSize: 1 })).results).toEqual([1]);
    expect(handed).toHaveLength(1);
    expect(await cursorOf("stopping")).toMatchObject({ nextBlock: Number(blocks[1]) });

    const next = transfers("stopping");
    expect((await scan(next)).results).toEqual([2]);
    expect(next.chunks[0]).toMatchObject({ fromBlock: blocks[1] });
    expect(await recorded("stopping")).toEqual(blocks);

    // A handler cannot move the cursor past its chunk.
    await transferBlocks(1);
    const overreaching = transfers("stopping", { record: async (_tx, logs, { toBlock }) => ({ result: logs.length, stopBefore: toBlock + 2n }) });
    await expect(scan(overreaching)).rejects.toThrow(RangeError);
    expect(await cursorOf("stopping")).toMatchObject({ nextBlock: Number(blocks[2]) + 1 });
  });

  it("reads again from startBlock when the head is below the cursor and rescanIfBehind is set; otherwise waits", async () => {
    const blocks = await transferBlocks(2);
    const tip = await head();
    await scan(transfers("restarted"));
    await database.db
      .update(chainEventCursor)
      .set({ nextBlock: 1_000_000_000 })
      .where(and(eq(chainEventCursor.chainId, CHAIN_ID), eq(chainEventCursor.subscription, "restarted")));

    // A node behind the cursor is taken to lag: nothing read, the cursor kept.
    const lagging = transfers("restarted");
    expect((await scan(lagging)).results).toEqual([]);
    expect(lagging.chunks).toEqual([]);
    expect(await cursorOf("restarted")).toMatchObject({ nextBlock: 1_000_000_000 });

    // A local chain started afresh under a kept database: read again from the start, recording nothing twice.
    const rescanned = transfers("restarted");
    expect((await scan(rescanned, { rescanIfBehind: true })).results).toEqual([2]);
    expect(rescanned.chunks[0]).toMatchObject({ fromBlock: startBlock, toBlock: tip });
    expect(await cursorOf("restarted")).toMatchObject({ nextBlock: Number(tip) + 1 });
    expect(await recorded("restarted")).toEqual(blocks);
  });
});
