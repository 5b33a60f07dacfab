import { randomUUID } from "node:crypto";
import { createPublicClient, createWalletClient, http, parseEther, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { user } from "#db/schema/auth";
import { walletAddress } from "#db/schema/wallets";
import { DEV_OPERATOR_PRIVATE_KEY, DEV_PRIVATE_KEYS } from "../../contracts/dev-accounts.ts";
import { depositVaultAbi } from "../../contracts/generated/deposit-vault.ts";
import { questTokenAbi } from "../../contracts/generated/quest-token.ts";
import type { Db } from "../../app/lib/db.server.ts";
import { createLogger } from "../../app/lib/logger.server.ts";
import { vaultTokensOf } from "../../app/modules/chain/chain-registry.server.ts";
import { ensureLocalContracts } from "../../app/modules/chain/contracts.server.ts";
import { questAsset, type Asset } from "../../app/modules/ledger/assets.ts";
import { credit } from "../../app/modules/ledger/ledger.server.ts";
import type { WithdrawalChain } from "../../app/modules/withdrawals/withdrawal-chain.server.ts";
import { localChainOf } from "../../app/wallet/chain-config.ts";

/** The local chain's asset. */
export const Q = questAsset(31337);
/** What the vault holds to pay withdrawals in these tests (deposited by dev account 1). */
export const VAULT_FUNDS = parseEther("5000");

/**
 * Questline's contracts on a fresh anvil (dev account 9 the vault's operator) and a funded vault;
 * the anvil is any local chain of the list (31337, or 31338 beside it), read from the node.
 */
export async function vaultOnChain(rpcUrl: string) {
  const { addresses, tokens } = await ensureLocalContracts({ rpcUrl, known: undefined, logger: createLogger("silent") });
  const transport = http(rpcUrl, { retryCount: 0 });
  const chainId = await createPublicClient({ transport }).getChainId();
  const viemChain = localChainOf(chainId);
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 10 });
  const walletOf = (key: Hex) => createWalletClient({ chain: viemChain, transport, account: privateKeyToAccount(key) });
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== "success") throw new Error(`${hash} reverted`);
  };
  const depositor = walletOf(DEV_PRIVATE_KEYS[1]);
  await mined(
    await depositor.writeContract({ address: addresses.QuestToken, abi: questTokenAbi, functionName: "approve", args: [addresses.DepositVault, VAULT_FUNDS] }),
  );
  await mined(
    await depositor.writeContract({
      address: addresses.DepositVault,
      abi: depositVaultAbi,
      functionName: "deposit",
      args: [VAULT_FUNDS, `0x${"00".repeat(32)}`],
    }),
  );
  const admin = walletOf(DEV_PRIVATE_KEYS[0]);
  return {
    chainId,
    /** QUEST on this chain, as the ledger names it. */
    asset: questAsset(chainId),
    rpcUrl,
    addresses,
    /** The vault's tokens as the registry lists them: QUEST, then the stand-in USDC (6 decimals). */
    tokens: vaultTokensOf(addresses, tokens),
    publicClient,
    /** A wallet of the dev account `key` on this chain. */
    walletOf,
    /** The vault's admin (account 0) pauses or resumes it. */
    setVaultPaused: async (paused: boolean) =>
      mined(await admin.writeContract({ address: addresses.DepositVault, abi: depositVaultAbi, functionName: paused ? "pause" : "unpause" })),
    /** Sends the admin's `pause()` paying `priorityFee` a gas, without waiting for it to be mined. */
    sendPause: (priorityFee: bigint) =>
      admin.writeContract({
        address: addresses.DepositVault,
        abi: depositVaultAbi,
        functionName: "pause",
        gas: 100_000n,
        maxPriorityFeePerGas: priorityFee,
        maxFeePerGas: priorityFee * 10n,
      }),
    /** Whether the vault is paused. */
    vaultPaused: () => publicClient.readContract({ address: addresses.DepositVault, abi: depositVaultAbi, functionName: "paused" }),
    /** Lets the vault take up to `amount` of the dev account `key`'s tokens. */
    approveVault: async (key: Hex, amount: bigint) =>
      mined(
        await walletOf(key).writeContract({
          address: addresses.QuestToken,
          abi: questTokenAbi,
          functionName: "approve",
          args: [addresses.DepositVault, amount],
        }),
      ),
    /** `DepositVault.deposit` from the dev account `key` (which approved the vault); the mined receipt's status. */
    depositAs: async (key: Hex, amount: bigint, ref: Hex) => {
      const hash = await walletOf(key).writeContract({ address: addresses.DepositVault, abi: depositVaultAbi, functionName: "deposit", args: [amount, ref] });
      return (await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).status;
    },
    /** Every `Deposited` and `Withdrawn` event of the vault so far. */
    vaultEvents: async () => {
      const read = <E extends "Deposited" | "Withdrawn">(eventName: E) =>
        publicClient.getContractEvents({ address: addresses.DepositVault, abi: depositVaultAbi, eventName, fromBlock: 0n, toBlock: "latest", strict: true });
      const [deposited, withdrawn] = await Promise.all([read("Deposited"), read("Withdrawn")]);
      return { deposited, withdrawn };
    },
    tokenBalance: (account: Address) =>
      publicClient.readContract({ address: addresses.QuestToken, abi: questTokenAbi, functionName: "balanceOf", args: [account] }),
    paid: (id: string) =>
      publicClient.readContract({ address: addresses.DepositVault, abi: depositVaultAbi, functionName: "withdrawalPaid", args: [id as Hex] }),
    /** The job's view of the chain, through `url` (anvil itself, or a proxy in front of it). */
    chain: (url = rpcUrl, { operator = true, confirmations = 1 } = {}): WithdrawalChain => {
      const via = http(url, { retryCount: 0, timeout: 5_000 });
      return {
        client: createPublicClient({ chain: viemChain, transport: via, pollingInterval: 10 }),
        operator: operator ? createWalletClient({ chain: viemChain, transport: via, account: privateKeyToAccount(DEV_OPERATOR_PRIVATE_KEY) }) : null,
        vault: addresses.DepositVault,
        tokens: vaultTokensOf(addresses, tokens),
        confirmations,
      };
    },
  };
}

export type VaultOnChain = Awaited<ReturnType<typeof vaultOnChain>>;

/** A member with one linked wallet (a fresh address unless given) and `amount` of `asset` (the local chain's QUEST) credited from the treasury. */
export async function fundedMember(db: Db, id: string, amount: bigint, wallet: Address = privateKeyToAccount(generatePrivateKey()).address, asset: Asset = Q) {
  await db.insert(user).values({ id, email: `${id}@example.com`, name: id });
  await db.insert(walletAddress).values({ id: `wa-${id}`, userId: id, address: wallet, chainId: 31337 });
  if (amount > 0n) await credit({ db, key: `fund:${id}`, kind: "reward", userId: id, asset, amount });
  return { userId: id, wallet };
}

/** The Withdraw form's parsed input (of the local chain's QUEST unless `asset` names another chain's). */
export const form = (destination: Address, amount: bigint, requestKey: string = randomUUID(), asset: Asset = Q) => ({ amount, destination, asset, requestKey });

/** A raw JSON-RPC call to anvil (automine, mining, txpool). */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}
