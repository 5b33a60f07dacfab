import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, onchainEventMatch, onchainTxUse, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import { xpEvent } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { chainEvidenceOf } from "~/modules/chain/chain-evidence";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { deployOnchainFixtures, SWAP_EVENT, type OnchainFixtures } from "#tests/setup/onchain-fixtures";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptTask, type Task } from "./completions.server";
import { checkOnchainReorgs, reorgReason } from "./onchain-reorgs.server";

/**
 * Reorgs on anvil, real ones: `anvil_reorg` replaces the blocks holding a member's transaction (it
 * is gone), or `evm_snapshot`/`evm_revert` and the same signed transaction sent again put it in
 * another block (moved), or after another member's transaction that makes it fail. The check voids
 * what is gone or failed as decision 030 does (XP taken back) and moves what is still there.
 */

let localChain: LocalChain;
let fx: OnchainFixtures;
let database: Database;
let chains: ChainRegistry;
const db = () => database.db;
/** Past the few blocks each test mines: a reorg is still looked for under them. */
const SETTLE = 8;

beforeAll(async () => {
  localChain = await startLocalChain();
  fx = await deployOnchainFixtures(localChain.url);
  database = await createTestDatabase();
  chains = localRegistry({ url: localChain.url, confirmations: 1, webSocket: null });
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db()
    .insert(user)
    .values(["alice", "bob", "carol", "dave"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db()
    .insert(walletAddress)
    .values([
      { id: randomUUID(), userId: "alice", address: fx.address(1), chainId: LOCAL_CHAIN_ID },
      { id: randomUUID(), userId: "bob", address: fx.address(3), chainId: LOCAL_CHAIN_ID },
      { id: randomUUID(), userId: "carol", address: fx.address(5), chainId: LOCAL_CHAIN_ID },
      { id: randomUUID(), userId: "dave", address: fx.address(4), chainId: LOCAL_CHAIN_ID },
    ]);
});
afterAll(async () => {
  await database?.close();
  await localChain?.stop();
});

const chain = () => ({ id: LOCAL_CHAIN_ID, name: "Questline Local", confirmations: 1, client: fx.client });
const reorgs = () => checkOnchainReorgs({ db: db(), chain: chain(), settleDepth: SETTLE });

async function eventTask(config: Record<string, unknown>): Promise<Task> {
  const [row] = await db()
    .insert(task)
    .values({
      id: randomUUID(),
      projectId: "p",
      title: "On chain",
      type: "event_emitted",
      verification: "auto",
      xp: 40,
      publishedAt: new Date(Date.now() - 86_400_000),
      config: { chainId: LOCAL_CHAIN_ID, minArg: null, actionUrl: "", ...config },
    })
    .returning();
  return row!;
}

const check = (t: Task, userId: string) => attemptTask({ db: db(), taskId: t.id, userId, input: { kind: "check" }, chains, now: new Date() });
const completionOf = async (t: Task, userId: string) =>
  (
    await db()
      .select()
      .from(completion)
      .where(sql`${completion.taskId} = ${t.id} and ${completion.userId} = ${userId}`)
  )[0]!;
const xpOf = async (userId: string) =>
  Number(
    (
      await db()
        .select({ n: sql<number>`coalesce(sum(${xpEvent.amount}), 0)` })
        .from(xpEvent)
        .where(eq(xpEvent.userId, userId))
    )[0]!.n,
  );

/** Dev account `n`'s call signed now and sent later, so the same transaction (same hash) can be mined again after a revert. */
async function signed(n: number, call: { address: Hex; abi: typeof fx.abis.swap; functionName: string; args: readonly unknown[] }): Promise<Hex> {
  const wallet = fx.wallet(n);
  const request = await wallet.prepareTransactionRequest({
    account: wallet.account,
    chain: wallet.chain,
    to: call.address,
    data: encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args }),
    gas: 200_000n,
  });
  return wallet.signTransaction({ ...request, account: wallet.account, chain: wallet.chain } as never);
}
async function sendRaw(raw: Hex) {
  const hash = (await fx.rpc("eth_sendRawTransaction", [raw])) as Hex;
  return fx.client.waitForTransactionReceipt({ hash });
}

describe("on-chain completions after a reorg", () => {
  it("voids an approval whose transaction a reorg removed: rejected with the reason, XP taken back, its event matches dropped", async () => {
    const t = await eventTask({ contract: fx.swap, event: SWAP_EVENT, memberArg: "sender" });
    const swapped = await fx.send(1, { address: fx.swap, abi: fx.abis.swap, functionName: "swap", args: [5n] });
    expect(await check(t, "alice")).toMatchObject({ ok: true, status: "approved", xpAwarded: 40 });
    expect(await xpOf("alice")).toBe(40);
    expect(await reorgs()).toMatchObject({ checked: 1, voided: 0, settled: 0 });

    // The swap's block and the one after it are replaced by blocks without it.
    await fx.mine(1);
    await fx.rpc("anvil_reorg", [2, []]);
    const judged = chainEvidenceOf((await completionOf(t, "alice")).evidence)!;
    expect(judged.txHash).toBe(swapped.hash);
    expect((await fx.client.getBlock({ blockNumber: swapped.blockNumber })).hash).not.toBe(judged.blockHash);

    expect(await reorgs()).toMatchObject({ voided: 1, droppedMatches: 1 });
    const voided = await completionOf(t, "alice");
    expect(voided.status).toBe("rejected");
    expect(voided.reason).toBe(reorgReason("Questline Local"));
    expect(voided.reason).toBe(
      "The block holding your transaction was replaced on Questline Local (a reorganisation), so this task no longer counts. You can do it again.",
    );
    expect(await xpOf("alice")).toBe(0);
    expect(await db().select().from(onchainEventMatch).where(eq(onchainEventMatch.taskId, t.id))).toEqual([]);
    // Nothing is judged twice; and the member may do the task again, for real this time.
    expect(await reorgs()).toMatchObject({ voided: 0 });
    expect(await check(t, "alice")).toMatchObject({ ok: false, code: "not_met" });
    await fx.send(1, { address: fx.swap, abi: fx.abis.swap, functionName: "swap", args: [6n] });
    expect(await check(t, "alice")).toMatchObject({ ok: true, status: "approved" });
  });

  it("moves the evidence of a transaction mined again in another block: still approved, then settled once deep enough", async () => {
    const t = await eventTask({ contract: fx.swap, event: SWAP_EVENT, memberArg: "sender" });
    const raw = await signed(3, { address: fx.swap, abi: fx.abis.swap, functionName: "swap", args: [9n] });
    const snapshot = await fx.rpc("evm_snapshot", []);
    const first = await sendRaw(raw);
    expect(await check(t, "bob")).toMatchObject({ ok: true, status: "approved" });

    // The chain goes back before the swap; an empty block takes its height, and the same swap lands one block later.
    await fx.rpc("evm_revert", [snapshot]);
    await fx.mine(1);
    const again = await sendRaw(raw);
    expect(again.transactionHash).toBe(first.transactionHash);
    expect(again.blockNumber).toBe(first.blockNumber + 1n);

    expect(await reorgs()).toMatchObject({ moved: 1, voided: 0 });
    const moved = await completionOf(t, "bob");
    expect(moved.status).toBe("approved");
    expect(chainEvidenceOf(moved.evidence)).toMatchObject({
      blockNumber: String(again.blockNumber),
      blockHash: again.blockHash,
      txHash: first.transactionHash,
      logIndex: 0,
    });
    expect(await xpOf("bob")).toBe(40);

    expect(await reorgs()).toMatchObject({ settled: 0, moved: 0 });
    await fx.mine(SETTLE);
    // Bob's, and any earlier test's still unsettled.
    expect((await reorgs()).settled).toBeGreaterThanOrEqual(1);
    expect(chainEvidenceOf((await completionOf(t, "bob")).evidence)?.settled).toBe(true);
    // Settled evidence is not read again.
    expect(await reorgs()).toMatchObject({ checked: 0 });
  });

  it("voids an approval whose transaction failed when mined again (another member took the token first)", async () => {
    const t = await eventTask({
      contract: fx.collection,
      event: "Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
      memberArg: "to",
    });
    const raw = await signed(5, { address: fx.collection, abi: fx.abis.collection, functionName: "mint", args: [77n] });
    const snapshot = await fx.rpc("evm_snapshot", []);
    await sendRaw(raw);
    expect(await check(t, "carol")).toMatchObject({ ok: true, status: "approved" });
    expect(await xpOf("carol")).toBe(40);

    await fx.rpc("evm_revert", [snapshot]);
    await fx.send(3, { address: fx.collection, abi: fx.abis.collection, functionName: "mint", args: [77n] });
    expect((await sendRaw(raw)).status).toBe("reverted");

    expect(await reorgs()).toMatchObject({ voided: 1 });
    expect(await completionOf(t, "carol")).toMatchObject({ status: "rejected", reason: reorgReason("Questline Local") });
    expect(await xpOf("carol")).toBe(0);
  });

  it("voids a transaction's completion of another on-chain task and frees its hash", async () => {
    const [t] = await db()
      .insert(task)
      .values({
        id: randomUUID(),
        projectId: "p",
        title: "Call",
        type: "contract_call",
        verification: "auto",
        xp: 10,
        publishedAt: new Date(),
        config: { chainId: LOCAL_CHAIN_ID, contract: fx.swap, functions: [{ selector: "0x94b918de", signature: "swap(uint256)" }], actionUrl: "" },
      })
      .returning();
    const swapped = await fx.send(1, { address: fx.swap, abi: fx.abis.swap, functionName: "swap", args: [1n] });
    const block = await fx.client.getBlock({ blockNumber: swapped.blockNumber });
    const completionId = randomUUID();
    // As the contract_call check records one (verify-onchain.server.ts): the evidence and the hash used.
    await db()
      .insert(completion)
      .values({
        id: completionId,
        taskId: t!.id,
        userId: "alice",
        period: "once",
        status: "approved",
        submission: {},
        verifiedBy: "auto",
        evidence: {
          kind: "chain",
          chainId: LOCAL_CHAIN_ID,
          blockNumber: String(swapped.blockNumber),
          blockHash: block.hash,
          txHash: swapped.hash,
          wallet: fx.address(1),
          values: {},
        },
      });
    await db().insert(onchainTxUse).values({ taskId: t!.id, txHash: swapped.hash, chainId: LOCAL_CHAIN_ID, completionId, userId: "alice" });
    // The swap's block is replaced by one without it.
    await fx.rpc("anvil_reorg", [1, []]);

    expect(await reorgs()).toMatchObject({ voided: 1 });
    expect((await db().select().from(completion).where(eq(completion.id, completionId)))[0]?.status).toBe("rejected");
    expect(await db().select().from(onchainTxUse).where(eq(onchainTxUse.completionId, completionId))).toEqual([]);
  });

  it("leaves evidence whose block is still on the chain alone, whatever the node says about later blocks", async () => {
    const t = await eventTask({ contract: fx.swap, event: SWAP_EVENT, memberArg: "sender" });
    await fx.send(4, { address: fx.swap, abi: fx.abis.swap, functionName: "swap", args: [2n] });
    await fx.mine(1);
    expect(await check(t, "dave")).toMatchObject({ ok: true });
    // Only the block after the swap is replaced.
    await fx.rpc("anvil_reorg", [1, []]);
    expect(await reorgs()).toMatchObject({ voided: 0, moved: 0 });
    expect((await completionOf(t, "dave")).status).toBe("approved");
  });
});
