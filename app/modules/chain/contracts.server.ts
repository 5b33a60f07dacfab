import { createPublicClient, createWalletClient, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { deployQuestline, fundAccounts } from "#contracts/deploy";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import type { Logger } from "~/lib/logger.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import type { ContractAddresses } from "./contract-addresses.server";

/** Tokens each anvil dev account gets on a fresh local chain. */
export const DEMO_TOKENS_PER_ACCOUNT = parseEther("10000");

/**
 * Makes sure Questline's contracts are on the local development chain: when `known` addresses
 * already hold code (a long-lived node given by LOCAL_CHAIN_RPC_URL) they are kept; on a fresh
 * chain the contracts are deployed with anvil's first dev account (dev account 9 is the vault's
 * operator, see DEV_OPERATOR_PRIVATE_KEY) and each dev account gets
 * `DEMO_TOKENS_PER_ACCOUNT`. Returns the addresses in use.
 */
export async function ensureLocalContracts({
  rpcUrl,
  known,
  logger,
}: {
  rpcUrl: string;
  known: ContractAddresses | undefined;
  logger: Logger;
}): Promise<{ addresses: ContractAddresses; deployed: boolean }> {
  const started = performance.now();
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  if (known) {
    const code = await publicClient.getCode({ address: known.QuestToken });
    if (code && code !== "0x") return { addresses: known, deployed: false };
  }
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(DEV_PRIVATE_KEYS[0]) });
  const chainId = await publicClient.getChainId();
  if (chainId !== LOCAL_CHAIN_ID) throw new Error(`The local chain at ${rpcUrl} has chain id ${chainId}, not ${LOCAL_CHAIN_ID}`);
  // Account 9 pays withdrawals (the vault's operator role); the admin, account 0, keeps the pauser role.
  const deployment = await deployQuestline({ wallet, publicClient, settings: { pollingInterval: 10, operator: DEV_ADDRESSES[9] } });
  await fundAccounts({
    wallet,
    publicClient,
    token: deployment.contracts.QuestToken,
    accounts: DEV_ADDRESSES,
    amount: DEMO_TOKENS_PER_ACCOUNT,
    pollingInterval: 10,
  });
  logger.info({ contracts: deployment.contracts, ms: Math.round(performance.now() - started) }, "contracts deployed to the local chain");
  return { addresses: deployment.contracts, deployed: true };
}

/**
 * One of anvil's dev accounts deposits `amount` into the local chain's vault under `ref` (a
 * member's or a project's deposit reference), as its owner would from a browser wallet: approve,
 * then `DepositVault.deposit`. The demo funds a project's treasury this way. Resolves once mined.
 */
export async function depositFromDevAccount({
  rpcUrl,
  contracts,
  key,
  amount,
  ref,
}: {
  rpcUrl: string;
  contracts: ContractAddresses;
  key: Hex;
  amount: bigint;
  ref: Hex;
}): Promise<{ txHash: Hex }> {
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  const wallet = createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(key) });
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== "success") throw new Error(`The local chain reverted ${hash}`);
    return hash;
  };
  await mined(
    await wallet.writeContract({ address: contracts.QuestToken, abi: questTokenAbi, functionName: "approve", args: [contracts.DepositVault, amount] }),
  );
  const txHash = await mined(
    await wallet.writeContract({ address: contracts.DepositVault, abi: depositVaultAbi, functionName: "deposit", args: [amount, ref] }),
  );
  return { txHash };
}
