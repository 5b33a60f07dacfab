import { createPublicClient, createWalletClient, encodeFunctionData, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployQuestline } from "#contracts/deploy";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { transactionStatus } from "./tx-status.server";

let chain: LocalChain;
let token: `0x${string}`;
const context = async () => ({ token: "QUEST", coin: "ETH" });

beforeAll(async () => {
  chain = await startLocalChain();
  const transport = http(chain.url);
  const publicClient = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) });
  token = (await deployQuestline({ wallet, publicClient, settings: { pollingInterval: 10 } })).contracts.QuestToken;
}, 30_000);
afterAll(() => chain.stop());

const rpc = (method: string, params: unknown[] = []) =>
  fetch(chain.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });

describe("transactionStatus", () => {
  it("follows a transaction from pending to success; a hash nobody knows is unknown; a mined revert is told in words", async () => {
    const transport = http(chain.url);
    const client = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
    const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[1]) });
    const mint = (amount: bigint, value: bigint, gas?: bigint) =>
      wallet.sendTransaction({ to: token, data: encodeFunctionData({ abi: questTokenAbi, functionName: "publicMint", args: [amount] }), value, gas });

    await rpc("evm_setAutomine", [false]);
    let hash: Hex;
    try {
      hash = await mint(parseEther("2"), parseEther("0.002"), 200_000n);
      expect(await transactionStatus(client, hash, context)).toEqual({ status: "pending" });
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    await rpc("evm_mine");
    expect(await transactionStatus(client, hash, context)).toEqual({ status: "success" });

    expect(await transactionStatus(client, `0x${"12".repeat(32)}`, context)).toEqual({ status: "unknown" });

    // Sent with its own gas (no estimate to stop it), over the 10 000 per-wallet cap: mined, reverted.
    const reverted = await mint(parseEther("10000"), parseEther("10"), 200_000n);
    await client.waitForTransactionReceipt({ hash: reverted, pollingInterval: 10 });
    expect(await transactionStatus(client, reverted, context)).toEqual({
      status: "reverted",
      reason: "That is over this wallet's limit: it may take 9,998 QUEST more.",
    });
  });

  it("throws when the node does not answer", async () => {
    const down = createPublicClient({ transport: http("http://127.0.0.1:9/", { retryCount: 0 }) });
    await expect(transactionStatus(down, `0x${"12".repeat(32)}`, context)).rejects.toThrow();
  });
});
