import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { startPrunedNode } from "#tests/fakes/pruned-node";
import { devWallet } from "#tests/setup/mini-contracts";
import { readFunding } from "./funding-reads.server";
import { ChainUnreachable } from "./node-errors.server";

// readFunding on a real anvil (which keeps every block's state): a funder and a sweep, coin that
// came another way, a wallet that never did anything, the bound on node calls, a node that keeps
// no old state and a node that is down.

let chain: LocalChain;
let client: PublicClient;
/** Every JSON-RPC request the counted client made. */
let calls = 0;
let counted: PublicClient;
const test = () => createTestClient({ chain: anvil, mode: "anvil", transport: http(chain.url) });

beforeAll(async () => {
  chain = await startLocalChain();
  client = createPublicClient({ chain: anvil, transport: http(chain.url, { retryCount: 0 }), pollingInterval: 10 });
  counted = createPublicClient({ chain: anvil, transport: http(chain.url, { retryCount: 0, onFetchRequest: () => void calls++ }) });
});
afterAll(() => chain.stop());

const newKey = () => generatePrivateKey();
const addressOf = (key: Hex) => privateKeyToAccount(key).address;

/** `key` (or dev account 0 for null) sends `value` to `to`; resolves once mined. */
async function send(key: Hex | null, to: Address, value: bigint): Promise<{ hash: Hex; blockNumber: bigint }> {
  const wallet = key
    ? createWalletClient({ chain: anvil, transport: http(chain.url, { retryCount: 0 }), account: privateKeyToAccount(key) })
    : devWallet(chain.url, 0);
  const hash = await wallet.sendTransaction({ to, value });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return { hash, blockNumber: receipt.blockNumber };
}

describe("readFunding", () => {
  it("names the funder (the first transfer's sender) and the sweep (the last transfer of most of its coin)", async () => {
    const [funderKey, walletKey, sweepTarget, other] = [newKey(), newKey(), addressOf(newKey()), addressOf(newKey())];
    await send(null, addressOf(funderKey), parseEther("10"));
    await test().mine({ blocks: 30 });
    const funded = await send(funderKey, addressOf(walletKey), parseEther("2"));
    await test().mine({ blocks: 20 });
    await send(walletKey, other, parseEther("0.1"));
    await test().mine({ blocks: 10 });
    const swept = await send(walletKey, sweepTarget, parseEther("1.85"));
    await test().mine({ blocks: 5 });
    // A small payment after the sweep: the sweep is still found among the last three.
    await send(walletKey, other, parseEther("0.01"));

    const funding = await readFunding({ client, address: addressOf(walletKey) });
    expect(funding).toMatchObject({
      status: "known",
      txCount: 3,
      firstActivity: { blockNumber: funded.blockNumber },
      funding: { funder: addressOf(funderKey), txHash: funded.hash, blockNumber: funded.blockNumber, value: parseEther("2") },
      sweep: { to: sweepTarget, txHash: swept.hash, blockNumber: swept.blockNumber, value: parseEther("1.85") },
    });
    const block = await client.getBlock({ blockNumber: funded.blockNumber });
    expect(funding.status === "known" && funding.funding?.funder && funding.funding.timestamp).toEqual(new Date(Number(block.timestamp) * 1000));
  });

  it("names no sweep for small payments, a transfer to a contract, or one older than the last three sent", async () => {
    const walletKey = newKey();
    const contract = addressOf(newKey());
    await test().setCode({ address: contract, bytecode: "0x00" });
    await send(null, addressOf(walletKey), parseEther("1"));
    // Most of its coin to an address with code: not a sweep.
    await send(walletKey, contract, parseEther("0.9"));
    const small = await readFunding({ client, address: addressOf(walletKey) });
    expect(small).toMatchObject({ status: "known", txCount: 1, sweep: null });

    const older = newKey();
    await send(null, addressOf(older), parseEther("1"));
    await send(older, addressOf(newKey()), parseEther("0.95"));
    for (let i = 0; i < 3; i++) await send(older, addressOf(newKey()), parseEther("0.001"));
    expect(await readFunding({ client, address: addressOf(older) })).toMatchObject({ status: "known", txCount: 4, sweep: null });
  });

  it("names no funder, with the reason, when the coin came without a transfer to the wallet; nothing for a wallet never active", async () => {
    const wallet = addressOf(newKey());
    await test().setBalance({ address: wallet, value: parseEther("1") });
    await test().mine({ blocks: 1 });
    const funding = await readFunding({ client, address: wallet });
    expect(funding).toMatchObject({ status: "known", txCount: 0, funding: { funder: null, reason: expect.stringMatching(/internal transfer/) }, sweep: null });

    expect(await readFunding({ client, address: addressOf(newKey()) })).toEqual({
      status: "known",
      txCount: 0,
      head: expect.objectContaining({ number: expect.any(BigInt) }),
      firstActivity: null,
      funding: null,
      sweep: null,
    });
  });

  it("stays within 5·⌈log2(head + 1)⌉ + 15 node calls for a wallet that sent many transactions", async () => {
    const walletKey = newKey();
    await send(null, addressOf(walletKey), parseEther("5"));
    for (let i = 0; i < 6; i++) {
      await send(walletKey, addressOf(newKey()), parseEther("0.01"));
      await test().mine({ blocks: 7 });
    }
    const head = await client.getBlockNumber({ cacheTime: 0 });
    calls = 0;
    const funding = await readFunding({ client: counted, address: addressOf(walletKey) });
    expect(funding).toMatchObject({ status: "known", txCount: 6, funding: { funder: expect.any(String) }, sweep: null });
    const steps = Math.ceil(Math.log2(Number(head) + 1));
    expect(calls).toBeGreaterThan(steps);
    expect(calls).toBeLessThanOrEqual(5 * steps + 15);
  });

  it("answers historical_unavailable from a node that keeps no old state, and throws ChainUnreachable when the node is down", async () => {
    const walletKey = newKey();
    await send(null, addressOf(walletKey), parseEther("1"));
    await test().mine({ blocks: 200 });
    const pruned = await startPrunedNode({ target: chain.url, keep: 128 });
    try {
      const prunedClient = createPublicClient({ chain: anvil, transport: http(pruned.url, { retryCount: 0 }) });
      expect(await readFunding({ client: prunedClient, address: addressOf(walletKey) })).toMatchObject({
        status: "historical_unavailable",
        txCount: 0,
        reason: expect.stringMatching(/archive node/),
      });
    } finally {
      await pruned.stop();
    }
    const down = createPublicClient({ chain: anvil, transport: http("http://127.0.0.1:9", { retryCount: 0 }) });
    await expect(readFunding({ client: down, address: addressOf(walletKey) })).rejects.toBeInstanceOf(ChainUnreachable);
  });
});
