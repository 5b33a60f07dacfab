import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { createPublicClient, createTestClient, http, parseEther, toFunctionSelector, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, onchainTxUse, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { chainTransport } from "~/wallet/chain-config";
import { localRegistry } from "#tests/setup/local-registry";
import { deployMiniContracts, devWallet, type MiniContracts } from "#tests/setup/mini-contracts";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptTask, TRANSACTION_USED, type AttemptInput } from "./completions.server";
import { CHAIN_UNREACHABLE } from "./verify-onchain.server";

// Every on-chain task type checked through attemptTask against a real anvil chain (issue #37):
// done and not done, a wallet not linked, a failed receipt, a hash reused by a second member, a
// transaction outside the window, too few confirmations, a node that is down (nothing recorded).

const CHAIN_ID = anvil.id;
const published = new Date("2020-01-01T00:00:00Z");
const TRANSFER = toFunctionSelector("transfer(address,uint256)");

let database: Database;
let chain: LocalChain;
let client: PublicClient;
let mini: MiniContracts;
let chains: ChainRegistry;
/** The same chain, asking for 3 confirmations. */
let deepChains: ChainRegistry;
/** A node that is down: nothing listens there. */
const downChains = localRegistry({ url: "http://127.0.0.1:9", transport: chainTransport(["http://127.0.0.1:9"], { retryCount: 0 }), webSocket: null });
const test = () => createTestClient({ chain: anvil, mode: "anvil", transport: http(chain.url) });
const [, dev1, dev2, dev3, dev4] = DEV_ADDRESSES as unknown as [Address, Address, Address, Address, Address];

beforeAll(async () => {
  [database, chain] = await Promise.all([createTestDatabase(), startLocalChain()]);
  client = createPublicClient({ chain: anvil, transport: http(chain.url, { retryCount: 0 }), pollingInterval: 10 });
  mini = await deployMiniContracts({ url: chain.url, client });
  chains = localRegistry({ url: chain.url, confirmations: 1, webSocket: null });
  deepChains = localRegistry({ url: chain.url, confirmations: 3, webSocket: null });
  await database.db.insert(user).values(Array.from({ length: 12 }, (_, i) => ({ id: `m${i}`, email: `m${i}@example.com`, name: `M${i}` })));
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
  // m1 links dev account 1, m2 dev account 2, m3 dev account 3; m9 links nothing.
  await database.db
    .insert(walletAddress)
    .values([dev1, dev2, dev3].map((address, i) => ({ id: randomUUID(), userId: `m${i + 1}`, address: address.toLowerCase(), chainId: CHAIN_ID })));
  await send(0, mini.token, "mint", [dev1, parseEther("100")]);
}, 60_000);
afterAll(async () => {
  await database.close();
  await chain.stop();
});

async function send(from: number, to: Address, functionName: string, args: unknown[], abi = mini.abi.token): Promise<Hex> {
  const hash = await devWallet(chain.url, from).writeContract({ address: to, abi, functionName, args, gas: 150_000n } as never);
  await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return hash;
}

async function makeTask(fields: Pick<typeof task.$inferInsert, "type" | "config"> & Partial<typeof task.$inferInsert>) {
  const id = randomUUID();
  await database.db.insert(task).values({ id, projectId: "p", title: "On chain", xp: 10, verification: "auto", publishedAt: published, ...fields });
  return id;
}

const attempt = (taskId: string, userId: string, input: AttemptInput = { kind: "check" }, over: { chains?: ChainRegistry; now?: Date } = {}) =>
  attemptTask({ db: database.db, taskId, userId, input, chains: over.chains ?? chains, now: over.now });

const completionsOf = (taskId: string) => database.db.select().from(completion).where(eq(completion.taskId, taskId));
const wallet = (address: Address) => address;

describe("hold_token", () => {
  it("approves a wallet holding enough of the native coin, and keeps the block it was read at", async () => {
    const id = await makeTask({ type: "hold_token", config: { chainId: CHAIN_ID, tokenAddress: null, minBalance: parseEther("1").toString(), symbol: "ETH" } });
    expect(await attempt(id, "m9")).toEqual({ ok: false, code: "not_met", message: "Link a wallet in Settings › Profile first." });
    expect(await attempt(id, "m1")).toMatchObject({ ok: true, status: "approved" });
    const [done] = await completionsOf(id);
    expect(done?.evidence).toMatchObject({ kind: "chain", chainId: CHAIN_ID, wallet: wallet(dev1), blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  });

  it("refuses a member whose wallets hold too little of an ERC-20, in the token's units", async () => {
    const id = await makeTask({
      type: "hold_token",
      config: { chainId: CHAIN_ID, tokenAddress: mini.token, minBalance: parseEther("5").toString(), symbol: "MINI" },
    });
    expect(await attempt(id, "m2")).toEqual({ ok: false, code: "not_met", message: "None of your linked wallets holds 5 MINI." });
    expect(await attempt(id, "m1")).toMatchObject({ ok: true, status: "approved" });
  });

  it("reads the holding at the task's snapshot block: bought after it does not count, sold after it does", async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    await database.db.insert(walletAddress).values({ id: randomUUID(), userId: "m4", address: holder, chainId: CHAIN_ID });
    await send(0, mini.token, "mint", [holder, parseEther("10")]);
    const snapshot = Number(await client.getBlockNumber({ cacheTime: 0 }));
    await send(0, mini.token, "mint", [dev2, parseEther("10")]);
    const config = { chainId: CHAIN_ID, tokenAddress: mini.token, minBalance: parseEther("10").toString(), symbol: "MINI", snapshotBlock: snapshot };
    const id = await makeTask({ type: "hold_token", config });
    expect(await attempt(id, "m2")).toEqual({
      ok: false,
      code: "not_met",
      message: `None of your linked wallets held 10 MINI at block ${snapshot.toLocaleString("en")}.`,
    });
    expect(await attempt(id, "m4")).toMatchObject({ ok: true, status: "approved" });
    expect((await completionsOf(id))[0]?.evidence).toMatchObject({ blockNumber: String(snapshot), values: { balance: parseEther("10").toString() } });

    const future = await makeTask({ type: "hold_token", config: { ...config, snapshotBlock: snapshot + 1_000 } });
    expect(await attempt(future, "m4")).toMatchObject({ ok: false, code: "not_met", message: expect.stringMatching(/Come back once it is mined/) });
  });
});

describe("nft_hold", () => {
  it("counts an ERC-721 collection or named ids, and an ERC-1155's ids", async () => {
    await send(0, mini.nft, "mint", [dev1, 1n], mini.abi.nft);
    await send(0, mini.nft, "mint", [dev2, 2n], mini.abi.nft);
    await send(0, mini.multi, "mint", [dev3, 5n, 3n], mini.abi.multi);
    const collection = await makeTask({ type: "nft_hold", config: { chainId: CHAIN_ID, contract: mini.nft, standard: "erc721", name: "Minis" } });
    expect(await attempt(collection, "m1")).toMatchObject({ ok: true, status: "approved" });
    expect(await attempt(collection, "m3")).toEqual({ ok: false, code: "not_met", message: "None of your linked wallets holds 1 Minis." });
    const named = await makeTask({ type: "nft_hold", config: { chainId: CHAIN_ID, contract: mini.nft, standard: "erc721", tokenIds: ["2", "77"] } });
    expect(await attempt(named, "m1")).toEqual({
      ok: false,
      code: "not_met",
      message: "None of your linked wallets holds 1 NFT of this collection (token #2, #77).",
    });
    expect(await attempt(named, "m2")).toMatchObject({ ok: true });
    const items = await makeTask({ type: "nft_hold", config: { chainId: CHAIN_ID, contract: mini.multi, standard: "erc1155", tokenIds: ["5"], minCount: 3 } });
    expect(await attempt(items, "m3")).toMatchObject({ ok: true });
    expect((await completionsOf(items))[0]?.evidence).toMatchObject({ wallet: wallet(dev3), values: { count: "3" } });
    expect(await attempt(items, "m2")).toMatchObject({ ok: false, code: "not_met" });
  });
});

describe("wallet_activity", () => {
  it("counts the transactions a wallet sent", async () => {
    await send(1, mini.token, "approve", [dev2, 1n]);
    const id = await makeTask({ type: "wallet_activity", config: { chainId: CHAIN_ID, minTxCount: 1, minAgeDays: null } });
    expect(await attempt(id, "m1")).toMatchObject({ ok: true });
    const many = await makeTask({ type: "wallet_activity", config: { chainId: CHAIN_ID, minTxCount: 1_000, minAgeDays: null } });
    expect(await attempt(many, "m1")).toMatchObject({ ok: false, code: "not_met", message: expect.stringMatching(/the task asks for 1000/) });
  });

  it("finds a wallet's first activity and compares its age with the task's", async () => {
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    await database.db.insert(walletAddress).values({ id: randomUUID(), userId: "m5", address: fresh, chainId: CHAIN_ID });
    await test().mine({ blocks: 20 });
    const funded = await devWallet(chain.url, 4).sendTransaction({ to: fresh, value: parseEther("1") });
    const { blockNumber } = await client.waitForTransactionReceipt({ hash: funded, pollingInterval: 10 });
    const at = new Date(Number((await client.getBlock({ blockNumber })).timestamp) * 1000);
    const id = await makeTask({ type: "wallet_activity", config: { chainId: CHAIN_ID, minTxCount: null, minAgeDays: 30 } });
    const days = (n: number) => new Date(at.getTime() + n * 24 * 60 * 60 * 1000);
    expect(await attempt(id, "m5", { kind: "check" }, { now: days(10) })).toMatchObject({
      ok: false,
      code: "not_met",
      message: expect.stringMatching(/30 days ago/),
    });
    expect(await attempt(id, "m5", { kind: "check" }, { now: days(31) })).toMatchObject({ ok: true });
    expect((await completionsOf(id))[0]?.evidence).toMatchObject({ values: { firstActivityBlock: blockNumber.toString(), firstActivityAt: at.toISOString() } });
  });
});

describe("contract_call", () => {
  const callTask = (over: Partial<typeof task.$inferInsert> = {}, config: Record<string, unknown> = {}) =>
    makeTask({
      type: "contract_call",
      config: {
        chainId: CHAIN_ID,
        contract: mini.token,
        functions: [{ selector: TRANSFER, signature: "transfer(address,uint256)" }],
        transfer: { token: mini.token, minAmount: parseEther("1").toString(), symbol: "MINI", decimals: 18 },
        ...config,
      },
      ...over,
    });
  const pasted = (hash: Hex): AttemptInput => ({ kind: "transaction", hash });

  it("approves a pasted hash, keeps its evidence and refuses it to a second member", async () => {
    const id = await callTask();
    const hash = await send(1, mini.token, "transfer", [dev2, parseEther("1")]);
    expect(await attempt(id, "m1", pasted(hash))).toMatchObject({ ok: true, status: "approved" });
    const [done] = await completionsOf(id);
    expect(done?.evidence).toMatchObject({ kind: "chain", txHash: hash, wallet: wallet(dev1), values: { transferred: parseEther("1").toString() } });
    expect(await database.db.select().from(onchainTxUse).where(eq(onchainTxUse.taskId, id))).toMatchObject([{ txHash: hash, userId: "m1" }]);
    // m2 links dev account 2, the transfer's receiver; the hash counted already.
    expect(await attempt(id, "m2", pasted(hash))).toEqual({ ok: false, code: "invalid", errors: { txHash: TRANSACTION_USED } });
  });

  it("refuses a transaction from a wallet the member has not linked, and a failed one", async () => {
    const id = await callTask();
    const hash = await send(1, mini.token, "transfer", [dev2, parseEther("1")]);
    expect(await attempt(id, "m3", pasted(hash))).toEqual({
      ok: false,
      code: "invalid",
      errors: { txHash: `This transaction was sent from ${dev1.slice(0, 6)}…${dev1.slice(-4)}, which is not one of your linked wallets.` },
    });
    const failed = await send(3, mini.token, "transfer", [dev2, parseEther("1")]);
    expect((await client.getTransactionReceipt({ hash: failed })).status).toBe("reverted");
    expect(await attempt(id, "m3", pasted(failed))).toEqual({ ok: false, code: "invalid", errors: { txHash: "This transaction failed on chain (reverted)." } });
    expect(await completionsOf(id)).toHaveLength(0);
  });

  it("refuses a transaction sent before the task opened", async () => {
    const hash = await send(1, mini.token, "transfer", [dev2, parseEther("1")]);
    const sent = Number((await client.getBlock({ blockTag: "latest" })).timestamp);
    const id = await callTask({ startsAt: new Date((sent + 1) * 1000) });
    expect(await attempt(id, "m1", pasted(hash), { now: new Date((sent + 60) * 1000) })).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { txHash: expect.stringMatching(/^This transaction was sent before the task opened/) },
    });
  });

  it("counts a transaction only from the chain's confirmation depth", async () => {
    const id = await callTask();
    const hash = await send(1, mini.token, "transfer", [dev2, parseEther("1")]);
    expect(await attempt(id, "m1", pasted(hash), { chains: deepChains })).toEqual({
      ok: false,
      code: "not_met",
      message: "Your transaction has 1 of the 3 confirmations it needs. Try again in a minute.",
    });
    await test().mine({ blocks: 2 });
    expect(await attempt(id, "m1", pasted(hash), { chains: deepChains })).toMatchObject({ ok: true });
  });

  it("finds the member's transaction in the recent blocks, skipping one already used for the task", async () => {
    // At least 2 MINI moved: the earlier tests' transfers of 1 do not count.
    const id = await callTask({}, { transfer: { token: mini.token, minAmount: parseEther("2").toString(), symbol: "MINI", decimals: 18 } });
    const first = await send(1, mini.token, "transfer", [dev4, parseEther("2")]);
    // m6 links dev account 1 too (another member with the same wallet is how a hash could be used twice).
    await database.db.insert(walletAddress).values({ id: randomUUID(), userId: "m6", address: dev1, chainId: 1 });
    expect(await attempt(id, "m1", { kind: "find" })).toMatchObject({ ok: true });
    expect((await completionsOf(id))[0]?.evidence).toMatchObject({ txHash: first });
    // The used one skipped, what is left of dev account 1's are the earlier tests' transfers of 1 MINI: the newest says why it does not count.
    expect(await attempt(id, "m6", { kind: "find" })).toEqual({
      ok: false,
      code: "not_met",
      message: "This transaction moved 1 of the token; the task asks for 2.",
    });
    // m5's wallet never called the contract.
    expect(await attempt(id, "m5", { kind: "find" })).toEqual({
      ok: false,
      code: "not_met",
      message: `No matching transaction from your linked wallets in ${chains.get(CHAIN_ID)!.name}'s last ${chains.get(CHAIN_ID)!.findTxBlocks.toLocaleString("en")} blocks. Paste its hash if it is older.`,
    });
    const second = await send(1, mini.token, "transfer", [dev4, parseEther("2")]);
    expect(await attempt(id, "m6", { kind: "find" })).toMatchObject({ ok: true });
    expect((await completionsOf(id)).map((row) => (row.evidence as { txHash: string }).txHash).sort()).toEqual([first, second].sort());
  });

  it("answers a node that is down with 'try again', and records nothing", async () => {
    const hash = await send(1, mini.token, "transfer", [dev2, parseEther("1")]);
    const id = await callTask();
    const holding = await makeTask({ type: "hold_token", config: { chainId: CHAIN_ID, tokenAddress: null, minBalance: "1" } });
    const nft = await makeTask({ type: "nft_hold", config: { chainId: CHAIN_ID, contract: mini.nft, standard: "erc721" } });
    const history = await makeTask({ type: "wallet_activity", config: { chainId: CHAIN_ID, minTxCount: 1, minAgeDays: null } });
    const down = { ok: false, code: "unavailable", message: CHAIN_UNREACHABLE };
    expect(await attempt(id, "m1", pasted(hash), { chains: downChains })).toEqual(down);
    expect(await attempt(id, "m1", { kind: "find" }, { chains: downChains })).toEqual(down);
    for (const taskId of [holding, nft, history]) expect(await attempt(taskId, "m1", { kind: "check" }, { chains: downChains })).toEqual(down);
    for (const taskId of [id, holding, nft, history]) expect(await completionsOf(taskId)).toHaveLength(0);
    expect(await database.db.select().from(onchainTxUse).where(eq(onchainTxUse.taskId, id))).toHaveLength(0);
  });
});
