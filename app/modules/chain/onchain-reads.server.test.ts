import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, createTestClient, http, parseEther, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { startPrunedNode } from "#tests/fakes/pruned-node";
import { ChainUnreachable } from "./node-errors.server";
import { blockAtTime, hasCode, readNftCount, readTokenBalance, readWalletHistory } from "./onchain-reads.server";
import { deployMiniContracts, devWallet, type MiniContracts } from "#tests/setup/mini-contracts";

let chain: LocalChain;
let client: PublicClient;
let mini: MiniContracts;
const test = () => createTestClient({ chain: anvil, mode: "anvil", transport: http(chain.url) });
/** A node that is down: nothing listens there. */
const down = createPublicClient({ chain: anvil, transport: http("http://127.0.0.1:9", { retryCount: 0 }) });
const [dev0, dev1, dev2] = DEV_ADDRESSES as unknown as [Address, Address, Address];

beforeAll(async () => {
  chain = await startLocalChain();
  client = createPublicClient({ chain: anvil, transport: http(chain.url, { retryCount: 0 }), pollingInterval: 10 });
  mini = await deployMiniContracts({ url: chain.url, client });
});
afterAll(() => chain.stop());

async function send(from: number, to: Address, abi: MiniContracts["abi"]["nft"], functionName: string, args: unknown[]): Promise<Hex> {
  const hash = await devWallet(chain.url, from).writeContract({ address: to, abi, functionName, args } as never);
  await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return hash;
}

describe("readNftCount", () => {
  it("counts an ERC-721 holding by balanceOf, and named ids by ownerOf (burnt and never minted count 0)", async () => {
    for (const id of [1n, 2n, 3n]) await send(0, mini.nft, mini.abi.nft, "mint", [dev1, id]);
    await send(0, mini.nft, mini.abi.nft, "mint", [dev2, 4n]);
    await send(1, mini.nft, mini.abi.nft, "burn", [3n]);
    const count = (owner: Address, tokenIds: bigint[]) => readNftCount({ client, standard: "erc721", contract: mini.nft, owner, tokenIds });
    expect(await count(dev1, [])).toBe(2n);
    expect(await count(dev2, [])).toBe(1n);
    expect(await count(dev0, [])).toBe(0n);
    expect(await count(dev1, [1n, 2n])).toBe(2n);
    expect(await count(dev1, [1n, 4n])).toBe(1n);
    expect(await count(dev1, [3n, 99n])).toBe(0n);
  });

  it("sums an ERC-1155 holding over the ids, at the head or at an earlier block", async () => {
    await send(0, mini.multi, mini.abi.multi, "mint", [dev1, 7n, 2n]);
    const before = await client.getBlockNumber({ cacheTime: 0 });
    await send(0, mini.multi, mini.abi.multi, "mint", [dev1, 8n, 5n]);
    const count = (tokenIds: bigint[], blockNumber?: bigint) =>
      readNftCount({ client, standard: "erc1155", contract: mini.multi, owner: dev1, tokenIds, blockNumber });
    expect(await count([7n, 8n])).toBe(7n);
    expect(await count([7n, 8n], before)).toBe(2n);
    expect(await count([9n])).toBe(0n);
    await expect(count([])).rejects.toThrow(/token ids/);
  });

  it("throws ChainUnreachable when the node is down", async () => {
    await expect(readNftCount({ client: down, standard: "erc721", contract: mini.nft, owner: dev1, tokenIds: [1n] })).rejects.toBeInstanceOf(ChainUnreachable);
  });
});

describe("readTokenBalance", () => {
  it("reads the native coin and an ERC-20, at the head and at a snapshot block", async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    await send(0, mini.token, mini.abi.token, "mint", [holder, parseEther("3")]);
    const snapshot = await client.getBlockNumber({ cacheTime: 0 });
    await send(0, mini.token, mini.abi.token, "mint", [holder, parseEther("1")]);
    expect(await readTokenBalance({ client, token: mini.token, owner: holder })).toBe(parseEther("4"));
    expect(await readTokenBalance({ client, token: mini.token, owner: holder, blockNumber: snapshot })).toBe(parseEther("3"));
    expect(await readTokenBalance({ client, token: null, owner: holder })).toBe(0n);
    await test().setBalance({ address: holder, value: parseEther("2") });
    expect(await readTokenBalance({ client, token: null, owner: holder })).toBe(parseEther("2"));
  });

  it("throws ChainUnreachable when the node is down", async () => {
    await expect(readTokenBalance({ client: down, token: null, owner: dev1 })).rejects.toBeInstanceOf(ChainUnreachable);
  });
});

describe("readWalletHistory", () => {
  it("counts the transactions sent and finds the block of a wallet's first activity", async () => {
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    await test().mine({ blocks: 40 });
    const hash = await devWallet(chain.url, 2).sendTransaction({ to: fresh, value: parseEther("1") });
    const funded = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    await test().mine({ blocks: 25 });
    const history = await readWalletHistory({ client, address: fresh, needFirstActivity: true });
    expect(history.txCount).toBe(0);
    expect(history.firstActivity).toMatchObject({ blockNumber: funded.blockNumber });
    const block = await client.getBlock({ blockNumber: funded.blockNumber });
    expect(history.firstActivity).toMatchObject({ timestamp: new Date(Number(block.timestamp) * 1000) });

    const sender = await readWalletHistory({ client, address: dev2, needFirstActivity: false });
    expect(sender.txCount).toBeGreaterThan(0);
    expect(sender.head.number).toBe(await client.getBlockNumber({ cacheTime: 0 }));
  });

  it("says a wallet that never held nor sent anything was never active", async () => {
    const never = privateKeyToAccount(generatePrivateKey()).address;
    expect(await readWalletHistory({ client, address: never, needFirstActivity: true })).toMatchObject({ txCount: 0, firstActivity: null });
  });

  it("answers historical_unavailable from a node that keeps no old state (a geth full node's missing trie node)", async () => {
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    await test().setBalance({ address: fresh, value: 1n });
    await test().mine({ blocks: 300 });
    const pruned = await startPrunedNode({ target: chain.url, keep: 128 });
    try {
      const prunedClient = createPublicClient({ chain: anvil, transport: http(pruned.url, { retryCount: 0 }) });
      const history = await readWalletHistory({ client: prunedClient, address: fresh, needFirstActivity: true });
      expect(history.firstActivity).toBe("historical_unavailable");
      // The nonce at the head is still read.
      expect((await readWalletHistory({ client: prunedClient, address: dev2, needFirstActivity: true })).txCount).toBeGreaterThan(0);
    } finally {
      await pruned.stop();
    }
  });

  it("throws ChainUnreachable when the node is down", async () => {
    await expect(readWalletHistory({ client: down, address: dev1, needFirstActivity: true })).rejects.toBeInstanceOf(ChainUnreachable);
  });
});

describe("blockAtTime", () => {
  it("finds the first block at or after a time, and the head + 1 when none is yet", async () => {
    const head = await client.getBlock({ blockTag: "latest" });
    const start = head.timestamp + 1000n;
    await test().setNextBlockTimestamp({ timestamp: start });
    await test().mine({ blocks: 1 });
    const first = await client.getBlockNumber({ cacheTime: 0 });
    await test().setNextBlockTimestamp({ timestamp: start + 100n });
    await test().mine({ blocks: 1 });
    const at = (seconds: bigint) => blockAtTime({ client, at: new Date(Number(seconds) * 1000) });
    expect(await at(start)).toBe(first);
    expect(await at(start - 1n)).toBe(first);
    expect(await at(start + 1n)).toBe(first + 1n);
    expect(await at(start + 101n)).toBe(first + 2n);
    expect(await at(0n)).toBe(0n);
  });

  it("throws ChainUnreachable when the node is down", async () => {
    await expect(blockAtTime({ client: down, at: new Date(0) })).rejects.toBeInstanceOf(ChainUnreachable);
  });
});

describe("a node that answers with an error", () => {
  /** A server answering every request with `status` and `body`: a provider's 5xx or rate limit. */
  async function answering(status: number, body: unknown) {
    const server = createServer((_, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const reader = createPublicClient({ chain: anvil, transport: http(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { retryCount: 0 }) });
    return { reader, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it("throws ChainUnreachable for a 5xx, a 429 and a JSON-RPC rate limit", async () => {
    for (const [status, body] of [
      [503, { error: "upstream unavailable" }],
      [429, { jsonrpc: "2.0", id: 0, error: { code: 429, message: "Too Many Requests" } }],
      [200, { jsonrpc: "2.0", id: 0, error: { code: -32005, message: "rate limit exceeded" } }],
    ] as const) {
      const node = await answering(status, body);
      try {
        await expect(readTokenBalance({ client: node.reader, token: null, owner: dev1 })).rejects.toBeInstanceOf(ChainUnreachable);
      } finally {
        await node.close();
      }
    }
  });

  it("passes other answers as they are: a node's refusal is not 'unreachable'", async () => {
    const node = await answering(200, { jsonrpc: "2.0", id: 0, error: { code: -32602, message: "invalid argument 0" } });
    try {
      const error = await readTokenBalance({ client: node.reader, token: null, owner: dev1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ChainUnreachable);
    } finally {
      await node.close();
    }
  });
});

describe("hasCode", () => {
  it("tells a contract from a wallet", async () => {
    expect(await hasCode({ client, address: mini.token })).toBe(true);
    expect(await hasCode({ client, address: dev1 })).toBe(false);
    await expect(hasCode({ client: down, address: dev1 })).rejects.toBeInstanceOf(ChainUnreachable);
  });
});
