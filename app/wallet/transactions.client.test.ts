import { createPublicClient, http, parseEther, type EIP1193Provider } from "viem";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { createWalletClient } from "viem";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployQuestline } from "#contracts/deploy";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { tokenSaleAbi } from "#contracts/generated/token-sale";
import { TestWallet } from "#tests/fakes/injected-wallet";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { TxError } from "~/modules/chain/tx-error";
import { sendContractCall } from "./transactions.client";

// The wallet's sending path against a real local chain, through the e2e tests' fake wallet
// (which signs and sends with eth_sendRawTransaction): simulation first, reverts in words.

let chain: LocalChain;
let token: `0x${string}`;
let sale: `0x${string}`;
const context = { token: "QUEST", coin: "ETH" };

beforeAll(async () => {
  chain = await startLocalChain();
  const transport = http(chain.url);
  const publicClient = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) });
  const deployment = await deployQuestline({
    wallet,
    publicClient,
    settings: { pollingInterval: 10, publicMint: { open: true, price: parseEther("0.001"), walletCap: parseEther("100") } },
  });
  token = deployment.contracts.QuestToken;
  sale = deployment.contracts.TokenSale;
}, 30_000);
afterAll(() => chain.stop());

function providerFor(wallet: TestWallet): EIP1193Provider {
  return {
    async request({ method, params }: { method: string; params?: unknown }) {
      const reply = await wallet.handle(method, (params as unknown[]) ?? [], chain.url);
      if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error);
      return reply.result;
    },
    on: () => undefined,
    removeListener: () => undefined,
  } as unknown as EIP1193Provider;
}

async function fundedWallet() {
  const wallet = new TestWallet({ privateKey: generatePrivateKey() });
  wallet.approved = true;
  await fetch(chain.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [wallet.address, "0x56BC75E2D63100000"] }),
  });
  return wallet;
}

const mintCall = (amount: bigint) => ({
  chainId: 31337,
  address: token,
  abi: questTokenAbi,
  functionName: "publicMint",
  args: [amount],
  value: (amount * parseEther("0.001")) / 10n ** 18n,
  context,
});

describe("sendContractCall", () => {
  it("mints through the wallet: the transaction is signed, sent and mined", async () => {
    const wallet = await fundedWallet();
    const hash = await sendContractCall(providerFor(wallet), wallet.address, mintCall(parseEther("5")));
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(wallet.sentTransactions.map((tx) => tx.hash)).toEqual([hash]);
    const client = createPublicClient({ transport: http(chain.url) });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    expect(receipt.status).toBe("success");
    expect(await client.readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [wallet.address] })).toBe(parseEther("5"));
  });

  it("tells a revert in words from the simulation, and sends nothing", async () => {
    const wallet = await fundedWallet();
    const error = await sendContractCall(providerFor(wallet), wallet.address, mintCall(parseEther("101"))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TxError);
    expect((error as TxError).kind).toBe("revert");
    expect((error as TxError).message).toBe("That is over this wallet's limit: it may take 100 QUEST more.");
    expect(wallet.calls).not.toContain("eth_sendTransaction");
  });

  it("a wrong payment and a sale refusal are sentences too", async () => {
    const wallet = await fundedWallet();
    const wrong = await sendContractCall(providerFor(wallet), wallet.address, { ...mintCall(parseEther("1")), value: 1n }).catch((e: unknown) => e);
    expect((wrong as TxError).message).toBe("The payment did not match the price: 0.001 ETH expected, <0.00000001 ETH sent.");
    const overSale = await sendContractCall(providerFor(wallet), wallet.address, {
      chainId: 31337,
      address: sale,
      abi: tokenSaleAbi,
      functionName: "buy",
      args: [parseEther("100001")],
      value: (parseEther("100001") * parseEther("0.0005")) / 10n ** 18n,
      context,
    }).catch((e: unknown) => e);
    expect((overSale as TxError).message).toBe("That is over this wallet's limit: it may take 100,000 QUEST more.");
  });

  it("a rejection in the wallet, and a wallet on another network, are told as such", async () => {
    const wallet = await fundedWallet();
    wallet.refuseTransactions = true;
    const rejected = await sendContractCall(providerFor(wallet), wallet.address, mintCall(parseEther("1"))).catch((e: unknown) => e);
    expect((rejected as TxError).kind).toBe("rejected");
    wallet.refuseTransactions = false;
    wallet.chainId = 11155111;
    const elsewhere = await sendContractCall(providerFor(wallet), wallet.address, mintCall(parseEther("1"))).catch((e: unknown) => e);
    expect((elsewhere as TxError).kind).toBe("chain");
    expect((elsewhere as TxError).message).toBe("Your wallet is on Sepolia, not Questline Local. Switch back and try again.");
  });

  it("a node that does not answer is told as such", async () => {
    const wallet = await fundedWallet();
    const down: EIP1193Provider = {
      ...providerFor(wallet),
      request: async ({ method, params }: { method: string; params?: unknown }) => {
        if (method === "eth_chainId") return "0x7a69";
        const reply = await wallet.handle(method, (params as unknown[]) ?? [], "http://127.0.0.1:9/");
        if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error);
        return reply.result;
      },
    } as EIP1193Provider;
    const error = await sendContractCall(down, wallet.address, mintCall(parseEther("1"))).catch((e: unknown) => e);
    expect((error as TxError).kind).toBe("network");
  });
});
