import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { chainEventCursor } from "#db/schema/chain";
import { project } from "#db/schema/projects";
import { completion, onchainEventMatch, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { chainEvidenceOf } from "~/modules/chain/chain-evidence";
import { deployOnchainFixtures, SWAP_EVENT, type OnchainFixtures } from "#tests/setup/onchain-fixtures";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptTask, type Task } from "./completions.server";
import { eventTaskSubscription, liveEventTasks, scanEventTask, scanEventTasks, taskEventOf } from "./event-tasks.server";

/**
 * `event_emitted` tasks on anvil: the scanner records the task's events from its window's first
 * block up to the confirmed head, and a member's check finds theirs among their linked wallets,
 * inside the window (a daily task: today), with the minimum met; a node that cannot be reached
 * answers "unavailable" and records nothing.
 */

const HOUR = 3_600_000;
let localChain: LocalChain;
let fx: OnchainFixtures;
let database: Database;
/** Three confirmations: a block counts once two more are on it. */
let chains: ChainRegistry;
/** The chain's time when the file started (anvil starts at the wall clock): every block below is placed after it. */
let t0: number;
const db = () => database.db;

beforeAll(async () => {
  localChain = await startLocalChain();
  fx = await deployOnchainFixtures(localChain.url);
  database = await createTestDatabase();
  chains = localRegistry({ url: localChain.url, confirmations: 3, webSocket: null });
  const head = await fx.client.getBlock();
  t0 = Number(head.timestamp) * 1000;
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db()
    .insert(user)
    .values(["alice", "bob", "carol"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  // Alice links dev accounts 1 and 2 (stored checksummed, as sign-in stores them); Bob account 3; Carol none.
  await db()
    .insert(walletAddress)
    .values([
      { id: randomUUID(), userId: "alice", address: fx.address(1), chainId: LOCAL_CHAIN_ID },
      { id: randomUUID(), userId: "alice", address: fx.address(2), chainId: LOCAL_CHAIN_ID },
      { id: randomUUID(), userId: "bob", address: fx.address(3), chainId: LOCAL_CHAIN_ID },
    ]);
});
afterAll(async () => {
  await database?.close();
  await localChain?.stop();
});

/** An hour past the chain's latest block: where a test places its blocks (each test after the last one's). */
const later = async () => Number((await fx.client.getBlock()).timestamp) * 1000 + HOUR;

/** Mines the next transaction's block at `ms` (the chain's time only moves forward). */
const nextBlockAt = (ms: number) => fx.rpc("evm_setNextBlockTimestamp", [Math.floor(ms / 1000)]);

/** Dev account `n` swaps `amount` on the test contract at `ms`. */
async function swapAt(n: number, amount: bigint, ms: number) {
  await nextBlockAt(ms);
  return fx.send(n, { address: fx.swap, abi: fx.abis.swap, functionName: "swap", args: [amount] });
}

async function makeTask(fields: Partial<typeof task.$inferInsert> & { config?: Record<string, unknown> } = {}): Promise<Task> {
  const id = randomUUID();
  const [row] = await db()
    .insert(task)
    .values({
      id,
      projectId: "p",
      title: "Swap on the demo DEX",
      type: "event_emitted",
      verification: "auto",
      xp: 50,
      publishedAt: new Date(t0 - 48 * HOUR),
      ...fields,
      config: { chainId: LOCAL_CHAIN_ID, contract: fx.swap, event: SWAP_EVENT, memberArg: "sender", minArg: null, actionUrl: "", ...fields.config },
    })
    .returning();
  return row!;
}

const check = (t: Task, userId: string, now: Date, registry: Pick<ChainRegistry, "get"> = chains) =>
  attemptTask({ db: db(), taskId: t.id, userId, input: { kind: "check" }, chains: registry, now });

describe("a task's event", () => {
  it("is read as Solidity declares it, or refused in words", () => {
    expect(taskEventOf({ event: SWAP_EVENT, memberArg: "sender", minArg: { name: "amountIn", min: "5" } })).toMatchObject({
      memberArg: "sender",
      minArg: { name: "amountIn", min: 5n },
    });
    expect(taskEventOf({ event: "Swap(address sender", memberArg: "sender", minArg: null })).toEqual({
      error: "The event does not parse: write it as Solidity declares it, e.g. Swap(address indexed sender, uint256 amount)",
    });
    expect(taskEventOf({ event: "Swap(address sender, uint256 amountIn)", memberArg: "sender", minArg: null })).toEqual({
      error: "Swap has no indexed address argument named sender",
    });
    expect(taskEventOf({ event: SWAP_EVENT, memberArg: "sender", minArg: { name: "to", min: "1" } })).toEqual({
      error: "Swap has no whole-number argument named to",
    });
  });
});

describe("event_emitted tasks on anvil", () => {
  it("records the task's events from its window's first block up to the confirmed head, once each", async () => {
    // A swap before the window opens, two inside it (one not confirmed yet).
    await swapAt(1, 7n, t0 + 1 * HOUR);
    const opens = t0 + 2 * HOUR;
    const inside = await swapAt(3, 9n, t0 + 3 * HOUR);
    await fx.mine(2);
    const late = await swapAt(2, 11n, t0 + 4 * HOUR);
    const t = await makeTask({ startsAt: new Date(opens), endsAt: new Date(t0 + 100 * HOUR), config: { minArg: { name: "amountIn", min: "1" } } });
    const chain = { id: LOCAL_CHAIN_ID, confirmations: 3, client: fx.client };

    expect((await scanEventTask({ db: db(), task: t, chain })).recorded).toBe(1);
    const rows = await db().select().from(onchainEventMatch).where(eq(onchainEventMatch.taskId, t.id));
    expect(rows).toEqual([
      expect.objectContaining({
        chainId: LOCAL_CHAIN_ID,
        address: fx.address(3).toLowerCase(),
        amount: "9",
        txHash: inside.hash,
        blockNumber: Number(inside.blockNumber),
        blockTime: new Date(t0 + 3 * HOUR),
      }),
    ]);
    const [cursor] = await db()
      .select()
      .from(chainEventCursor)
      .where(and(eq(chainEventCursor.chainId, LOCAL_CHAIN_ID), eq(chainEventCursor.subscription, eventTaskSubscription(t.id))));
    // The last block with three confirmations is the head less two.
    expect(cursor?.nextBlock).toBe(Number(late.blockNumber) - 1);

    await fx.mine(2);
    await scanEventTask({ db: db(), task: t, chain });
    // Read again (the re-read window) without a second row.
    await scanEventTask({ db: db(), task: t, chain });
    const after = await db().select().from(onchainEventMatch).where(eq(onchainEventMatch.taskId, t.id));
    expect(after.map((r) => r.amount).sort()).toEqual(["11", "9"]);
  });

  it("approves a member whose linked wallet emitted the event in the window, with the event as evidence; refuses the others in words", async () => {
    const base = await later();
    const opens = base + 5 * HOUR;
    const t = await makeTask({ startsAt: new Date(opens), endsAt: new Date(base + 100 * HOUR), config: { minArg: { name: "amountIn", min: "10" } } });
    // Account 4 is nobody's wallet; account 3 (Bob) swaps too little; account 2 (Alice's second wallet) enough.
    await swapAt(4, 50n, base + 6 * HOUR);
    await swapAt(3, 5n, base + 6.5 * HOUR);
    const alices = await swapAt(2, 10n, base + 7 * HOUR);
    const now = new Date(base + 7.5 * HOUR);

    // Not confirmed yet: the member is told why it does not count yet.
    expect(await check(t, "alice", now)).toEqual({
      ok: false,
      code: "not_met",
      message:
        "No Swap event from your linked wallets with amountIn of at least 10 on Questline Local since the task opened. An event counts once its block has 3 confirmations.",
    });
    await fx.mine(2);
    // No scan job ran: the check brings the task's cursor up to the confirmed head itself.
    const approved = await check(t, "alice", now);
    expect(approved).toMatchObject({ ok: true, status: "approved", xpAwarded: 50 });
    const [row] = await db().select().from(completion).where(eq(completion.taskId, t.id));
    const block = await fx.client.getBlock({ blockNumber: alices.blockNumber });
    expect(chainEvidenceOf(row!.evidence)).toEqual({
      kind: "chain",
      chainId: LOCAL_CHAIN_ID,
      blockNumber: String(alices.blockNumber),
      blockHash: block.hash,
      txHash: alices.hash,
      logIndex: 0,
      wallet: fx.address(2),
      values: { amountIn: "10" },
    });

    expect(await check(t, "bob", now)).toMatchObject({
      ok: false,
      code: "not_met",
      message: expect.stringMatching(/^No Swap event from your linked wallets with amountIn of at least 10 on Questline Local since the task opened\./),
    });
    expect(await check(t, "carol", now)).toEqual({ ok: false, code: "not_met", message: "Link a wallet in Settings › Profile first." });
  });

  it("counts only events inside the window: one before the task opened does not", async () => {
    const base = await later();
    await swapAt(3, 100n, base + 8 * HOUR);
    await fx.mine(2);
    const t = await makeTask({ startsAt: new Date(base + 9 * HOUR), endsAt: new Date(base + 100 * HOUR) });
    const now = new Date(base + 9.5 * HOUR);
    expect(await check(t, "bob", now)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^No Swap event from your linked wallets on Questline Local since the task opened\./),
    });
    await swapAt(3, 1n, base + 10 * HOUR);
    await fx.mine(2);
    expect(await check(t, "bob", new Date(base + 10.5 * HOUR))).toMatchObject({ ok: true, status: "approved" });
  });

  it("needs an event today for a daily task", async () => {
    const base = await later();
    // The next UTC midnight at least 12 hours after the blocks so far.
    const midnight = Math.ceil((base + 12 * HOUR) / (24 * HOUR)) * 24 * HOUR;
    const t = await makeTask({ recurrence: "daily", startsAt: new Date(base + 11 * HOUR), endsAt: new Date(midnight + 100 * HOUR) });
    await swapAt(1, 1n, midnight - 1 * HOUR);
    await fx.mine(2);
    expect((await check(t, "alice", new Date(midnight - 0.5 * HOUR))).ok).toBe(true);
    // The next day, yesterday's swap no longer counts.
    expect(await check(t, "alice", new Date(midnight + 0.5 * HOUR))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^No Swap event from your linked wallets on Questline Local today\./),
    });
    await swapAt(1, 1n, midnight + 1 * HOUR);
    await fx.mine(2);
    expect(await check(t, "alice", new Date(midnight + 1.5 * HOUR))).toMatchObject({ ok: true, status: "approved" });
    expect(await db().select().from(completion).where(eq(completion.taskId, t.id))).toHaveLength(2);
  });

  it("answers a node that cannot be reached with 'unavailable', and records nothing", async () => {
    const base = await later();
    const t = await makeTask({ startsAt: new Date(base), endsAt: new Date(base + 1000 * HOUR) });
    const down = localRegistry({ url: "http://127.0.0.1:9", confirmations: 3, webSocket: null });
    expect(await check(t, "alice", new Date(base + 0.5 * HOUR), down)).toEqual({
      ok: false,
      code: "unavailable",
      message: "The chain could not be reached. Try again in a minute.",
    });
    expect(await db().select().from(completion).where(eq(completion.taskId, t.id))).toEqual([]);
    expect(await db().select().from(onchainEventMatch).where(eq(onchainEventMatch.taskId, t.id))).toEqual([]);
  });

  it("reads the block's time from the node when the log did not carry it", async () => {
    const base = await later();
    const t = await makeTask({ startsAt: new Date(base + 20 * HOUR), endsAt: new Date(base + 1000 * HOUR) });
    const swapped = await swapAt(3, 1n, base + 21 * HOUR);
    await fx.mine(2);
    await scanEventTask({ db: db(), task: t, chain: { id: LOCAL_CHAIN_ID, confirmations: 3, client: fx.client } });
    // As a node that gives no blockTimestamp with its logs would have left it.
    await db().update(onchainEventMatch).set({ blockTime: null }).where(eq(onchainEventMatch.taskId, t.id));
    expect(await check(t, "bob", new Date(base + 22 * HOUR))).toMatchObject({ ok: true });
    const [row] = await db().select().from(onchainEventMatch).where(eq(onchainEventMatch.txHash, swapped.hash));
    expect(row?.blockTime).toEqual(new Date(base + 21 * HOUR));
  });
});

describe("the onchain-events job's run on a chain", () => {
  it("scans the live event tasks only: published, open, or ended within the grace", async () => {
    const base = await later();
    const now = new Date(base + 30 * HOUR);
    const live = await makeTask({ startsAt: new Date(base + 29 * HOUR), endsAt: new Date(base + 40 * HOUR) });
    const justEnded = await makeTask({ startsAt: new Date(base + 20 * HOUR), endsAt: new Date(base + 29.9 * HOUR) });
    const longEnded = await makeTask({ startsAt: new Date(base + 20 * HOUR), endsAt: new Date(base + 25 * HOUR) });
    const draft = await makeTask({ publishedAt: null });
    const notYet = await makeTask({ startsAt: new Date(base + 35 * HOUR) });
    const ids = (await liveEventTasks({ db: db(), chainId: LOCAL_CHAIN_ID, now })).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([live.id, justEnded.id]));
    expect(ids).not.toContain(longEnded.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(notYet.id);

    // Blocks after the live task opened, for its first run to start in.
    await nextBlockAt(base + 29.5 * HOUR);
    await fx.mine(3);
    const errors: string[] = [];
    const broken = await makeTask({ startsAt: new Date(base + 29 * HOUR), config: { event: "Swap(address sender)" } });
    const run = await scanEventTasks({
      db: db(),
      chain: { id: LOCAL_CHAIN_ID, confirmations: 3, client: fx.client },
      now,
      onError: (taskId) => errors.push(taskId),
    });
    expect(errors).toEqual([broken.id]);
    expect(run.failed).toBe(1);
    const cursors = await db()
      .select()
      .from(chainEventCursor)
      .where(eq(chainEventCursor.subscription, eventTaskSubscription(live.id)));
    expect(cursors).toHaveLength(1);
  });

  it("fails the run when the node cannot be reached (the job engine retries it)", async () => {
    const base = await later();
    const down = localRegistry({ url: "http://127.0.0.1:9", confirmations: 3, webSocket: null }).get(LOCAL_CHAIN_ID)!;
    await makeTask({ startsAt: new Date(base + 29 * HOUR), endsAt: new Date(base + 40 * HOUR) });
    await expect(
      scanEventTasks({
        db: db(),
        chain: { id: LOCAL_CHAIN_ID, confirmations: 3, client: down.client },
        now: new Date(base + 30 * HOUR),
        onError: () => undefined,
      }),
    ).rejects.toThrow("The chain could not be reached");
  });
});
