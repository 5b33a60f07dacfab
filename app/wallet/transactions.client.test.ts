import { createPublicClient, http, parseEther, type EIP1193Provider } from "viem";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { createWalletClient } from "viem";
import { anvil } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployQuestline } from "#contracts/deploy";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { airdropTree } from "#contracts/merkle";
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
let distributor: `0x${string}`;
let deployer: ReturnType<typeof createWalletClient>;
const context = { token: "QUEST", coin: "ETH" };

beforeAll(async () => {
  chain = await startLocalChain();
  const transport = http(chain.url);
  const publicClient = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) });
  deployer = wallet;
  const deployment = await deployQuestline({
    wallet,
    publicClient,
    settings: { pollingInterval: 10, publicMint: { open: true, price: parseEther("0.001"), walletCap: parseEther("100") } },
  });
  token = deployment.contracts.QuestToken;
  sale = deployment.contracts.TokenSale;
  distributor = deployment.contracts.AirdropDistributor;
}, 30_000);
afterAll(() => chain.stop());

function providerFor(wallet: TestWallet): EIP1193Provider {
  return {
    async request({ method, params }: { method: string; params?: unknown }) {
      const reply = await wallet.handle(method, (params as unknown[]) ?? [], { 31337: chain.url });
      if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error);
      return reply.result;
    },
    on: () => undefined,
    removeListener: () => undefined,
  } as unknown as EIP1193Provider;
}

/** A wallet that drops the revert data of a refused call, as some do ("RPC Request failed", code -32603, nothing else). */
function reasonlessProviderFor(wallet: TestWallet): EIP1193Provider {
  const inner = providerFor(wallet);
  return {
    ...inner,
    request: async (args: { method: string; params?: unknown }) => {
      try {
        return await inner.request(args as never);
      } catch (error) {
        if (args.method !== "eth_call" && args.method !== "eth_estimateGas") throw error;
        throw Object.assign(new Error("RPC Request failed."), { code: -32603 });
      }
    },
  } as EIP1193Provider;
}

/** A round on the distributor with one share of 5 QUEST for `account` (the deployer is its operator). */
async function roundFor(account: `0x${string}`) {
  const client = createPublicClient({ chain: anvil, transport: http(chain.url), pollingInterval: 10 });
  const mined = async (hash: `0x${string}`) => void (await client.waitForTransactionReceipt({ hash, pollingInterval: 10 }));
  const send = (args: object) => deployer.writeContract(args as Parameters<typeof deployer.writeContract>[0]).then(mined);
  const own = deployer.account!;
  await send({
    account: own,
    chain: anvil,
    address: token,
    abi: questTokenAbi,
    functionName: "publicMint",
    args: [parseEther("10")],
    value: parseEther("0.01"),
  });
  await send({ account: own, chain: anvil, address: token, abi: questTokenAbi, functionName: "approve", args: [distributor, parseEther("10")] });
  const entries = [
    { index: 0n, account, amount: parseEther("5") },
    { index: 1n, account: own.address, amount: parseEther("5") },
  ];
  const { root, proofs } = airdropTree(entries);
  const roundId = await client.readContract({ address: distributor, abi: airdropDistributorAbi, functionName: "roundCount" });
  const deadline = (await client.getBlock()).timestamp + 86_400n;
  await send({
    account: own,
    chain: anvil,
    address: distributor,
    abi: airdropDistributorAbi,
    functionName: "createRound",
    args: [root, parseEther("10"), deadline],
  });
  return {
    chainId: 31337,
    address: distributor,
    abi: airdropDistributorAbi,
    functionName: "claim",
    args: [roundId, 0n, account, parseEther("5"), proofs[0]!],
    context,
  };
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
        const reply = await wallet.handle(method, (params as unknown[]) ?? [], { 31337: "http://127.0.0.1:9/" });
        if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error);
        return reply.result;
      },
    } as EIP1193Provider;
    const error = await sendContractCall(down, wallet.address, mintCall(parseEther("1"))).catch((e: unknown) => e);
    expect((error as TxError).kind).toBe("network");
  });

  it("a wallet that refuses without a reason: a claim made already is told in words, as final, from the distributor's state", async () => {
    const wallet = await fundedWallet();
    const claim = await roundFor(wallet.address);
    const claimed = await sendContractCall(providerFor(wallet), wallet.address, claim);
    // The claim must be in a block before the second try is simulated, or that simulation (and send) would pass.
    await createPublicClient({ chain: anvil, transport: http(chain.url), pollingInterval: 10 }).waitForTransactionReceipt({
      hash: claimed,
      pollingInterval: 10,
    });
    const again = await sendContractCall(reasonlessProviderFor(wallet), wallet.address, claim).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(TxError);
    expect((again as TxError).message).toBe("This share was claimed already: the tokens went to its address.");
    expect((again as TxError).final).toBe(true);
    // A refusal nothing on chain explains is still in words, and may be tried again.
    const mint = await sendContractCall(reasonlessProviderFor(wallet), wallet.address, mintCall(parseEther("101"))).catch((e: unknown) => e);
    expect((mint as TxError).message).toBe(
      "Your wallet's connection to Questline Local refused the transaction without saying why. Nothing was sent: try again in a moment.",
    );
    expect((mint as TxError).final).toBe(false);
    expect(wallet.calls.filter((m) => m === "eth_sendTransaction")).toHaveLength(1);
  });

  it("a wallet without the chain's coin for the fee is told how much it needs, and nothing is sent", async () => {
    const wallet = new TestWallet({ privateKey: generatePrivateKey() });
    wallet.approved = true;
    const claim = await roundFor(wallet.address);
    const error = await sendContractCall(providerFor(wallet), wallet.address, claim).catch((e: unknown) => e);
    expect((error as TxError).kind).toBe("funds");
    expect((error as TxError).message).toMatch(/^Your wallet needs about 0\.000\d+ ETH on Questline Local to pay the network fee; it holds 0 ETH\.$/);
    expect(wallet.calls).not.toContain("eth_sendTransaction");
  });
});
