import { createPublicClient, createTestClient, http, parseEther, toFunctionSelector, type Address, type Hex, type PublicClient } from "viem";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { startPrunedNode, type PrunedNode } from "#tests/fakes/pruned-node";
import { ChainUnreachable } from "./node-errors.server";
import { checkContractCall, type CallMatch } from "./onchain-reads-calls.server";
import { findContractCall } from "./onchain-reads-find.server";
import { deployMiniContracts, devWallet, type MiniContracts } from "#tests/setup/mini-contracts";

const CHAIN_ID = anvil.id;
const TRANSFER = toFunctionSelector("transfer(address,uint256)");
const PAY = toFunctionSelector("pay()");

let chain: LocalChain;
let client: PublicClient;
let mini: MiniContracts;
let pruned: PrunedNode;
let prunedClient: PublicClient;
const test = () => createTestClient({ chain: anvil, mode: "anvil", transport: http(chain.url) });
/** A node that is down: nothing listens there. */
const down = createPublicClient({ chain: anvil, transport: http("http://127.0.0.1:9", { retryCount: 0 }) });
const [, dev1, dev2, dev3] = DEV_ADDRESSES as unknown as [Address, Address, Address, Address];

beforeAll(async () => {
  chain = await startLocalChain();
  client = createPublicClient({ chain: anvil, transport: http(chain.url, { retryCount: 0 }), pollingInterval: 10 });
  mini = await deployMiniContracts({ url: chain.url, client });
  pruned = await startPrunedNode({ target: chain.url, keep: 0 });
  prunedClient = createPublicClient({ chain: anvil, transport: http(pruned.url, { retryCount: 0 }) });
  const mint = await devWallet(chain.url, 0).writeContract({
    address: mini.token,
    abi: mini.abi.token,
    functionName: "mint",
    args: [dev1, parseEther("100")],
  } as never);
  await client.waitForTransactionReceipt({ hash: mint, pollingInterval: 10 });
});
afterAll(async () => {
  await pruned.stop();
  await chain.stop();
});

/** Sends a call of `functionName` from dev account `from` (gas given: a reverting call is mined too) and waits for it. */
async function call(from: number, to: Address, functionName: string, args: unknown[], value = 0n): Promise<Hex> {
  const hash = await devWallet(chain.url, from).writeContract({ address: to, abi: mini.abi.token, functionName, args, value, gas: 100_000n } as never);
  await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return hash;
}

const transferTask = (over: Partial<CallMatch> = {}): CallMatch => ({
  from: [dev1],
  to: mini.token,
  selectors: [TRANSFER],
  minValue: null,
  transfer: { token: mini.token, minAmount: parseEther("2") },
  window: { from: null, to: null },
  ...over,
});
const check = (hash: Hex, match: CallMatch, confirmations = 1) => checkContractCall({ client, chainId: CHAIN_ID, confirmations, hash, match });

describe("checkContractCall", () => {
  it("finds a matching call and keeps its evidence: block, hash, sender, value and tokens moved", async () => {
    const hash = await call(1, mini.token, "transfer", [dev3, parseEther("2.5")]);
    const receipt = await client.getTransactionReceipt({ hash });
    expect(await check(hash, transferTask())).toEqual({
      kind: "found",
      evidence: {
        kind: "chain",
        chainId: CHAIN_ID,
        blockNumber: receipt.blockNumber.toString(),
        blockHash: receipt.blockHash,
        txHash: hash,
        wallet: dev1,
        values: { value: "0", transferred: parseEther("2.5").toString() },
      },
    });
  });

  it("refuses a transaction from a wallet the member has not linked", async () => {
    const hash = await call(1, mini.token, "transfer", [dev3, parseEther("2")]);
    expect(await check(hash, transferTask({ from: [dev2] }))).toEqual({
      kind: "refused",
      message: `This transaction was sent from ${dev1.slice(0, 6)}…${dev1.slice(-4)}, which is not one of your linked wallets`,
    });
  });

  it("refuses a transaction that failed on chain", async () => {
    const hash = await call(1, mini.token, "transfer", [dev3, parseEther("1000000")]);
    expect((await client.getTransactionReceipt({ hash })).status).toBe("reverted");
    expect(await check(hash, transferTask({ transfer: null }))).toEqual({ kind: "refused", message: "This transaction failed on chain (reverted)" });
  });

  it("refuses a call of another contract or another function", async () => {
    const other = await call(0, mini.otherToken, "approve", [dev3, 1n]);
    expect(await check(other, transferTask({ from: [DEV_ADDRESSES[0]!] }))).toEqual({ kind: "refused", message: "This transaction called another contract" });
    const approve = await call(1, mini.token, "approve", [dev3, 1n]);
    expect(await check(approve, transferTask())).toEqual({ kind: "refused", message: "This transaction called another function of the contract" });
  });

  it("refuses too little value or too few tokens moved, in the token's units", async () => {
    const small = await call(1, mini.token, "transfer", [dev3, parseEther("1.5")]);
    expect(await check(small, transferTask())).toEqual({ kind: "refused", message: "This transaction moved 1.5 of the token; the task asks for 2" });
    const paid = await call(1, mini.token, "pay", [], parseEther("0.5"));
    const payTask = transferTask({ selectors: [PAY], transfer: null, minValue: parseEther("1") });
    expect(await check(paid, payTask)).toEqual({ kind: "refused", message: "This transaction sent 0.5 of the chain's coin; the task asks for 1" });
    expect(await check(paid, { ...payTask, minValue: parseEther("0.5") })).toMatchObject({
      kind: "found",
      evidence: { values: { value: parseEther("0.5").toString() } },
    });
  });

  it("refuses a transaction outside the task's window", async () => {
    const at = (await client.getBlock()).timestamp + 10_000n;
    await test().setNextBlockTimestamp({ timestamp: at });
    const hash = await call(1, mini.token, "transfer", [dev3, parseEther("2")]);
    const date = (seconds: bigint) => new Date(Number(seconds) * 1000);
    expect(await check(hash, transferTask({ window: { from: date(at + 1n), to: null } }))).toEqual({
      kind: "refused",
      message: `This transaction was sent before the task opened (${date(at + 1n)
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, " UTC")})`,
    });
    expect(await check(hash, transferTask({ window: { from: null, to: date(at) } }))).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/after the task closed/),
    });
    expect(await check(hash, transferTask({ window: { from: date(at), to: date(at + 1n) } }))).toMatchObject({ kind: "found" });
  });

  it("waits for the confirmation depth, counting the transaction's own block", async () => {
    const hash = await call(1, mini.token, "transfer", [dev3, parseEther("2")]);
    expect(await check(hash, transferTask(), 3)).toEqual({ kind: "waiting", confirmations: 1, needed: 3 });
    await test().mine({ blocks: 1 });
    expect(await check(hash, transferTask(), 3)).toEqual({ kind: "waiting", confirmations: 2, needed: 3 });
    await test().mine({ blocks: 1 });
    expect(await check(hash, transferTask(), 3)).toMatchObject({ kind: "found" });
  });

  it("says not found for a hash the chain does not know", async () => {
    expect(await check(`0x${"ab".repeat(32)}`, transferTask())).toEqual({ kind: "not_found" });
  });

  it("throws ChainUnreachable when the node is down", async () => {
    await expect(
      checkContractCall({ client: down, chainId: CHAIN_ID, confirmations: 1, hash: `0x${"ab".repeat(32)}`, match: transferTask() }),
    ).rejects.toBeInstanceOf(ChainUnreachable);
  });
});

// On an archive node (anvil) the blocks are found by bisecting the wallets' nonces; on a full node
// (anvil behind the pruned-node proxy, which refuses any state below the head) every block is read.
describe.each([
  ["an archive node", () => client],
  ["a full node", () => prunedClient],
])("findContractCall on %s", (_, reader) => {
  const find = (match: CallMatch, { confirmations = 1, blocks = 200, exclude = new Set<string>() } = {}) =>
    findContractCall({ client: reader(), chainId: CHAIN_ID, confirmations, match, blocks, exclude });

  it("finds the newest matching call of the member's wallets, skipping hashes already used", async () => {
    const older = await call(1, mini.token, "transfer", [dev3, parseEther("2")]);
    await test().mine({ blocks: 60 });
    const newer = await call(1, mini.token, "transfer", [dev3, parseEther("3")]);
    await call(2, mini.token, "approve", [dev3, 1n]);
    await test().mine({ blocks: 5 });
    expect(await find(transferTask({ from: [dev2, dev1] }))).toMatchObject({ kind: "found", evidence: { txHash: newer, wallet: dev1 } });
    expect(await find(transferTask(), { exclude: new Set([newer.toUpperCase().replace("0X", "0x")]) })).toMatchObject({
      kind: "found",
      evidence: { txHash: older },
    });
    // Only the last `blocks` blocks are looked at.
    expect(await find(transferTask(), { exclude: new Set([newer]), blocks: 30 })).toEqual({ kind: "not_found" });
  });

  it("answers waiting for a match not deep enough, and finds an older confirmed one first", async () => {
    await test().mine({ blocks: 300 });
    const first = await call(1, mini.token, "transfer", [dev3, parseEther("2")]);
    await test().mine({ blocks: 3 });
    const shallow = await call(1, mini.token, "transfer", [dev3, parseEther("2")]);
    expect(await find(transferTask(), { confirmations: 3, exclude: new Set([first]) })).toEqual({ kind: "waiting", confirmations: 1, needed: 3 });
    expect(await find(transferTask(), { confirmations: 3 })).toMatchObject({ kind: "found", evidence: { txHash: first } });
    await test().mine({ blocks: 2 });
    expect(await find(transferTask(), { confirmations: 3 })).toMatchObject({ kind: "found", evidence: { txHash: shallow } });
  });

  it("says why the member's own near miss does not count, and not found when nothing of theirs called the contract", async () => {
    await test().mine({ blocks: 300 });
    await call(1, mini.token, "transfer", [dev3, parseEther("1000000")]);
    expect(await find(transferTask({ transfer: null }), { blocks: 10 })).toEqual({ kind: "refused", message: "This transaction failed on chain (reverted)" });
    await call(1, mini.token, "transfer", [dev3, parseEther("1")]);
    expect(await find(transferTask(), { blocks: 10 })).toEqual({ kind: "refused", message: "This transaction moved 1 of the token; the task asks for 2" });
    expect(await find(transferTask({ from: [dev2] }), { blocks: 10 })).toEqual({ kind: "not_found" });
  });

  it("stops at the window's opening: a call before it is not found", async () => {
    await test().mine({ blocks: 300 });
    const hash = await call(1, mini.token, "transfer", [dev3, parseEther("2")]);
    const at = (await client.getBlock({ blockTag: "latest" })).timestamp;
    await test().setNextBlockTimestamp({ timestamp: at + 100n });
    await test().mine({ blocks: 3 });
    expect(await find(transferTask(), { blocks: 10 })).toMatchObject({ kind: "found", evidence: { txHash: hash } });
    expect(await find(transferTask({ window: { from: new Date(Number(at + 50n) * 1000), to: null } }), { blocks: 10 })).toEqual({ kind: "not_found" });
  });

  it("throws ChainUnreachable when the node is down", async () => {
    await expect(
      findContractCall({ client: down, chainId: CHAIN_ID, confirmations: 1, match: transferTask(), blocks: 100, exclude: new Set() }),
    ).rejects.toBeInstanceOf(ChainUnreachable);
  });
});
