import { eq } from "drizzle-orm";
import { createPublicClient, createWalletClient, http, maxUint256, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorTx } from "#db/schema/chain";
import { DEV_OPERATOR_PRIVATE_KEY, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { questTokenAbi } from "#contracts/generated/quest-token";
import type { Database, Db } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { rpc } from "#tests/setup/withdrawal-chain";
import { ensureLocalContracts } from "./contracts.server";
import {
  broadcastOperatorTx,
  CHAIN_STARTED_AFRESH,
  followOperatorTxs,
  NONCE_TAKEN,
  operatorTxOf,
  prepareOperatorCall,
  storeOperatorTx,
  type OperatorSigner,
  type OutboxTiming,
} from "./operator-outbox.server";

let database: Database;
let node: LocalChain;
let signer: OperatorSigner;
let token: Address;
const operator = privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY);
const spender = privateKeyToAccount(DEV_PRIVATE_KEYS[3]).address;

beforeAll(async () => {
  [database, node] = await Promise.all([createTestDatabase(), startLocalChain()]);
  token = (await ensureLocalContracts({ rpcUrl: node.url, known: undefined, logger: createLogger("silent") })).addresses.QuestToken;
  const transport = http(node.url, { retryCount: 0 });
  signer = {
    chainId: 31337,
    client: createPublicClient({ chain: anvil, transport, pollingInterval: 10 }),
    wallet: createWalletClient({ chain: anvil, transport, account: operator }),
    confirmations: 2,
  };
}, 60_000);
afterAll(async () => {
  await Promise.all([database.close(), node.stop()]);
});

const T0 = new Date("2026-11-01T12:00:00Z");
const at = (seconds: number, timing: Partial<OutboxTiming> = {}): OutboxTiming => ({
  now: new Date(T0.getTime() + seconds * 1000),
  rebroadcastAfterMs: 60_000,
  bumpAfterMs: 120_000,
  ...timing,
});
const follow = (timing: OutboxTiming) => followOperatorTxs(database.db, signer, timing);
const rowOf = async (intentKey: string) => (await operatorTxOf(database.db, intentKey))!;
const allowance = () => signer.client.readContract({ address: token, abi: questTokenAbi, functionName: "allowance", args: [operator.address, spender] });

/**
 * Until the node answers for the transaction's receipt: an automining node mines as it accepts,
 * but a loaded one may answer for the receipt a moment later.
 */
const mined = (row: { txHash: string }) => signer.client.waitForTransactionReceipt({ hash: row.txHash as Hex, pollingInterval: 10 });

/**
 * Prepares, stores and broadcasts the operator's `approve(spender, amount)` under `intentKey`,
 * and (on an automining node) sees it mined.
 */
async function send(intentKey: string, amount: bigint, { broadcast = true, automine = true } = {}) {
  const prepared = await prepareOperatorCall(signer, { address: token, abi: questTokenAbi, functionName: "approve", args: [spender, amount] });
  const stored = await database.db.transaction((tx) => storeOperatorTx(tx as unknown as Db, signer, { intentKey, prepared }));
  if (!broadcast) return stored;
  expect(await broadcastOperatorTx(database.db, signer.client, stored, T0)).toBe("accepted");
  if (automine) await mined(stored);
  return stored;
}

describe("the operator's outbox", () => {
  it("stores a transaction signed before it is broadcast, once per intent, and follows it to the chain's confirmation depth", async () => {
    const stored = await send("test:confirm", 11n, { broadcast: false });
    expect(stored).toMatchObject({ state: "stored", signer: operator.address, nonce: expect.any(Number), earlierHashes: [] });
    // The same intent is never signed twice.
    await expect(send("test:confirm", 12n, { broadcast: false })).rejects.toThrow();
    // Stored is the feature's to broadcast: following leaves it alone.
    await follow(at(0));
    expect((await rowOf("test:confirm")).state).toBe("stored");
    expect(await broadcastOperatorTx(database.db, signer.client, stored, T0)).toBe("accepted");
    await mined(stored);
    expect(await follow(at(1))).toMatchObject({ included: 1 });
    expect(await rowOf("test:confirm")).toMatchObject({ state: "included", includedBlock: expect.any(Number) });
    await rpc(node.url, "evm_mine");
    expect(await follow(at(2))).toMatchObject({ confirmed: 1 });
    expect(await rowOf("test:confirm")).toMatchObject({ state: "confirmed", failure: null });
    expect(await allowance()).toBe(11n);
  });

  it("takes the next nonce past every stored transaction the node has not seen yet", async () => {
    const first = await send("test:nonce-a", 21n, { broadcast: false });
    const second = await send("test:nonce-b", 22n, { broadcast: false });
    expect(second.nonce).toBe(first.nonce + 1);
    for (const row of [first, second]) await broadcastOperatorTx(database.db, signer.client, row, T0);
    await Promise.all([first, second].map(mined));
    await rpc(node.url, "evm_mine");
    await follow(at(3));
    expect((await rowOf("test:nonce-b")).state).toBe("confirmed");
    expect(await allowance()).toBe(22n);
  });

  it("sends a transaction whose block a reorg dropped back to the network, and confirms it in its new block", async () => {
    const snapshot = await rpc(node.url, "evm_snapshot");
    await send("test:reorg", 31n);
    await follow(at(10));
    const included = await rowOf("test:reorg");
    expect(included.state).toBe("included");
    // The block is gone and the node forgot the transaction.
    await rpc(node.url, "evm_revert", [snapshot]);
    expect(await follow(at(20, { rebroadcastAfterMs: 5_000 }))).toMatchObject({ rebroadcast: 1 });
    expect((await rowOf("test:reorg")).state).toBe("broadcast");
    await follow(at(21));
    await rpc(node.url, "evm_mine");
    await follow(at(22));
    expect(await rowOf("test:reorg")).toMatchObject({ state: "confirmed", txHash: included.txHash });
    expect(await allowance()).toBe(31n);
  });

  it("replaces a transaction stuck unmined with a higher fee after the wait: mined once, under the new hash", async () => {
    await rpc(node.url, "evm_setAutomine", [false]);
    try {
      const stuck = await send("test:stuck", 41n, { automine: false });
      const before = await signer.client.getTransaction({ hash: stuck.txHash as Hex });
      expect(await follow(at(60))).toMatchObject({ bumped: 0 });
      expect(await follow(at(130))).toMatchObject({ bumped: 1 });
      const bumped = await rowOf("test:stuck");
      expect(bumped).toMatchObject({ state: "broadcast", nonce: stuck.nonce, bumps: 1, earlierHashes: [stuck.txHash] });
      expect(bumped.txHash).not.toBe(stuck.txHash);
      const after = await signer.client.getTransaction({ hash: bumped.txHash as Hex });
      expect(after.maxFeePerGas! > before.maxFeePerGas!).toBe(true);
      expect(after.maxPriorityFeePerGas! > before.maxPriorityFeePerGas!).toBe(true);
      // The next wait has not passed: no second bump.
      expect(await follow(at(200))).toMatchObject({ bumped: 0 });
      await rpc(node.url, "evm_mine");
      await rpc(node.url, "evm_mine");
      await follow(at(201));
      expect(await rowOf("test:stuck")).toMatchObject({ state: "confirmed", txHash: bumped.txHash });
      expect((await signer.client.getTransactionReceipt({ hash: bumped.txHash as Hex })).status).toBe("success");
      await expect(signer.client.getTransactionReceipt({ hash: stuck.txHash as Hex })).rejects.toThrow();
      expect(await allowance()).toBe(41n);
    } finally {
      await rpc(node.url, "evm_setAutomine", [true]);
    }
  });

  it("says so when another transaction took the nonce: replaced, never counted again", async () => {
    await rpc(node.url, "evm_setAutomine", [false]);
    let nonce: number;
    try {
      nonce = (await send("test:taken", 51n, { automine: false })).nonce;
      // The operator's key sends something else with the same nonce, paying more: it replaces ours.
      await signer.wallet.writeContract({
        address: token,
        abi: questTokenAbi,
        functionName: "approve",
        args: [spender, maxUint256],
        nonce,
        maxPriorityFeePerGas: 10_000_000_000n,
        maxFeePerGas: 100_000_000_000n,
      });
      await rpc(node.url, "evm_mine");
    } finally {
      await rpc(node.url, "evm_setAutomine", [true]);
    }
    expect(await follow(at(300))).toMatchObject({ replaced: 1 });
    expect(await rowOf("test:taken")).toMatchObject({ state: "replaced", failure: NONCE_TAKEN });
    expect((await send("test:after-taken", 52n, { broadcast: false })).nonce).toBe(nonce + 1);
    await broadcastOperatorTx(database.db, signer.client, await rowOf("test:after-taken"), T0);
  });

  it("fails what was signed on an earlier run of the chain, and adopts transactions moved in without their signer", async () => {
    const stored = await send("test:afresh", 61n, { broadcast: false });
    await database.db
      .update(operatorTx)
      .set({ genesisHash: `0x${"ab".repeat(32)}` })
      .where(eq(operatorTx.id, stored.id));
    const moved = await send("test:moved", 62n);
    await database.db.update(operatorTx).set({ signer: "", genesisHash: "" }).where(eq(operatorTx.id, moved.id));
    await rpc(node.url, "evm_mine");
    await follow(at(400));
    expect(await rowOf("test:afresh")).toMatchObject({ state: "failed", failure: CHAIN_STARTED_AFRESH });
    expect(await rowOf("test:moved")).toMatchObject({ state: "confirmed", signer: operator.address, genesisHash: stored.genesisHash });
  });
});
