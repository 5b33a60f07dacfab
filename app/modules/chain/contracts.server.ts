import { eq } from "drizzle-orm";
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  parseEther,
  type Abi,
  type Address,
  type Chain,
  type ContractFunctionName,
  type Hex,
  type PublicClient,
} from "viem";
import { z } from "zod";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { deployDemoContracts, deployLocalStablecoin, deployQuestline, fundAccounts, LOCAL_STABLECOIN, type DemoContracts } from "#contracts/deploy";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { platformSetting } from "#db/schema/ledger";
import { DEV_ADDRESSES, DEV_OPERATOR_PRIVATE_KEY, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import type { Database, Db } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import type { Logger } from "~/lib/logger.server";
import { localChainOf } from "~/wallet/chain-config";
import { KNOWN_CHAINS, knownChain } from "~/wallet/chains";
import { contractAddressesSchema, vaultTokensSchema, type ContractAddresses, type VaultToken } from "./contract-addresses.server";

/** Tokens each anvil dev account gets on a fresh local chain. */
export const DEMO_TOKENS_PER_ACCOUNT = parseEther("10000");
/** Stand-in stablecoin units (USDC, 6 decimals) each anvil dev account gets on a fresh local chain: 10,000 USDC. */
export const DEMO_STABLECOIN_PER_ACCOUNT = 10_000n * 10n ** BigInt(LOCAL_STABLECOIN.decimals);

/**
 * A local chain's contracts in use, the vault's tokens besides QUEST (the stand-in USDC) and the
 * demo contracts on-chain tasks can be tried on (null where none are: a kept chain whose record
 * names none).
 */
export type LocalContracts = { addresses: ContractAddresses; tokens: VaultToken[]; demo: DemoContracts | null; deployed: boolean };

const demoAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((value) => getAddress(value));
/** The demo contracts as the local chain's record keeps them. */
const demoContractsSchema = z.object({ DemoCollection: demoAddress, DemoItems: demoAddress, DemoSwap: demoAddress });

/**
 * Makes sure Questline's contracts are on a local development chain (31337, or another local chain
 * of the list, chains.ts, such as the tests' second one): when `known` addresses
 * already hold code (a long-lived node given by LOCAL_CHAIN_RPC_URL) they are kept; on a fresh
 * chain the contracts are deployed with anvil's first dev account (dev account 9 is the vault's
 * operator, see DEV_OPERATOR_PRIVATE_KEY) and each dev account gets
 * `DEMO_TOKENS_PER_ACCOUNT`; the stand-in stablecoin (USDC, 6 decimals) is deployed beside them,
 * allow-listed in the vault, and each dev account gets `DEMO_STABLECOIN_PER_ACCOUNT`; then the demo
 * contracts (an ERC-721, an ERC-1155 and a QUEST/USDC swap with funded reserves, deployDemoContracts).
 * Returns the addresses, tokens and demo contracts in use (`knownTokens` with `known` addresses
 * that hold code, and `knownDemo` where its swap holds code too).
 */
export async function ensureLocalContracts({
  rpcUrl,
  known,
  knownTokens = [],
  knownDemo = null,
  logger,
}: {
  rpcUrl: string;
  known: ContractAddresses | undefined;
  knownTokens?: VaultToken[];
  knownDemo?: DemoContracts | null;
  logger: Logger;
}): Promise<LocalContracts> {
  const started = performance.now();
  const probe = createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
  if (known && (await deployedAt(probe, known))) {
    const demo = knownDemo && (await hasCode(probe, knownDemo.DemoSwap)) ? knownDemo : null;
    return { addresses: known, tokens: knownTokens, demo, deployed: false };
  }
  const chainId = await probe.getChainId();
  if (!knownChain(chainId)?.local) {
    const local = KNOWN_CHAINS.filter((chain) => chain.local).map((chain) => chain.id);
    throw new Error(`The local chain at ${rpcUrl} has chain id ${chainId}, not one of the local chains ${local.join(", ")}`);
  }
  const { publicClient, wallet } = localChainClients(rpcUrl, DEV_PRIVATE_KEYS[0], localChainOf(chainId));
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
  const stablecoin = await deployLocalStablecoin({
    wallet,
    operator: localChainClients(rpcUrl, DEV_OPERATOR_PRIVATE_KEY, localChainOf(chainId)).wallet,
    publicClient,
    vault: deployment.contracts.DepositVault,
    accounts: DEV_ADDRESSES,
    amount: DEMO_STABLECOIN_PER_ACCOUNT,
    pollingInterval: 10,
  });
  const demo = await deployDemoContracts({ wallet, publicClient, quest: deployment.contracts.QuestToken, usdc: stablecoin.address, pollingInterval: 10 });
  logger.info(
    { contracts: deployment.contracts, tokens: [stablecoin], demo, ms: Math.round(performance.now() - started) },
    "contracts deployed to the local chain",
  );
  return { addresses: deployment.contracts, tokens: [stablecoin], demo, deployed: true };
}

/** A local chain read, and signed on by one of anvil's dev accounts (the deployer, or a demo member's wallet). */
function localChainClients(rpcUrl: string, key: Hex = DEV_PRIVATE_KEYS[0], chain: Chain = anvil) {
  const transport = http(rpcUrl);
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 10 }) as PublicClient,
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(key) }),
  };
}

/** Whether a deployment's token holds code on the chain `client` reads. */
async function deployedAt(client: PublicClient, addresses: ContractAddresses) {
  return hasCode(client, addresses.QuestToken);
}

async function hasCode(client: PublicClient, address: Address) {
  const code = await client.getCode({ address });
  return Boolean(code && code !== "0x");
}

/** Where a local chain's addresses in use are recorded, in the shared database (the first local chain's under its key from before there were two). */
const recordedKey = (chainId: number) => (chainId === LOCAL_CHAIN_ID ? "local_chain_contracts" : `local_chain_contracts:${chainId}`);

/**
 * `ensureLocalContracts` for a process of a deployment whose processes share one database and one
 * local chain: under the database's startup lock, so exactly one deploys on a fresh chain, and with
 * the addresses in use recorded in the database, so every process ends on the same ones (the
 * `known` ones first, when they hold code, with `knownTokens`; then the recorded ones with the
 * tokens recorded beside them; else a new deployment). The demo contracts are recorded beside
 * them too, and kept with the recorded deployment they were deployed with.
 */
export async function agreeLocalContracts({
  database,
  chainId,
  rpcUrl,
  known,
  knownTokens = [],
  logger,
}: {
  database: Pick<Database, "exclusively">;
  /** The local chain's id, which keys its record. */
  chainId: number;
  rpcUrl: string;
  known: ContractAddresses | undefined;
  knownTokens?: VaultToken[];
  logger: Logger;
}): Promise<LocalContracts> {
  return database.exclusively(async (db) => {
    const recorded = await recordedLocalContracts(db, chainId);
    const client = localChainClients(rpcUrl).publicClient;
    // Known addresses that are the recorded ones keep the recorded tokens when their file names none (a long-lived node).
    const sameAsRecorded = recorded && known && JSON.stringify(contractAddressesSchema.parse(known)) === JSON.stringify(recorded.addresses);
    const inUse =
      known && (await deployedAt(client, known))
        ? { addresses: known, tokens: knownTokens.length === 0 && sameAsRecorded ? recorded.tokens : knownTokens, demo: sameAsRecorded ? recorded.demo : null }
        : recorded && (await deployedAt(client, recorded.addresses))
          ? recorded
          : undefined;
    const result = await ensureLocalContracts({ rpcUrl, known: inUse?.addresses, knownTokens: inUse?.tokens, knownDemo: inUse?.demo, logger });
    const value = { ...result.addresses, tokens: result.tokens, demo: result.demo };
    if (JSON.stringify(value) !== JSON.stringify(recorded && { ...recorded.addresses, tokens: recorded.tokens, demo: recorded.demo }))
      await db
        .insert(platformSetting)
        .values({ key: recordedKey(chainId), value, updatedBy: null })
        .onConflictDoUpdate({ target: platformSetting.key, set: { value, updatedAt: new Date() } });
    return result;
  });
}

/** The recorded addresses, and the tokens and demo contracts recorded beside them (none in a record from before them). */
async function recordedLocalContracts(
  db: Db,
  chainId: number,
): Promise<{ addresses: ContractAddresses; tokens: VaultToken[]; demo: DemoContracts | null } | undefined> {
  const [row] = await db
    .select({ value: platformSetting.value })
    .from(platformSetting)
    .where(eq(platformSetting.key, recordedKey(chainId)));
  const parsed = contractAddressesSchema.safeParse(row?.value);
  if (!parsed.success) return undefined;
  const extras = row?.value as { tokens?: unknown; demo?: unknown } | undefined;
  const tokens = vaultTokensSchema.safeParse(extras?.tokens);
  const demo = demoContractsSchema.safeParse(extras?.demo);
  return { addresses: parsed.data, tokens: tokens.success ? tokens.data : [], demo: demo.success ? demo.data : null };
}

/**
 * One of anvil's dev accounts deposits `amount` into a local chain's vault under `ref` (a
 * member's or a project's deposit reference), as its owner would from a browser wallet: approve,
 * then `DepositVault.deposit`, or `depositToken` for another of the vault's listed tokens
 * (`token`). The demo funds a project's treasury and members' balances this way. Resolves once mined.
 */
export async function depositFromDevAccount({
  rpcUrl,
  contracts,
  key,
  amount,
  ref,
  token,
}: {
  rpcUrl: string;
  contracts: ContractAddresses;
  key: Hex;
  amount: bigint;
  ref: Hex;
  /** A listed token other than QUEST. */
  token?: Address;
}): Promise<{ txHash: Hex }> {
  const chain = localChainOf(await createPublicClient({ transport: http(rpcUrl) }).getChainId(), rpcUrl);
  const { publicClient, wallet } = localChainClients(rpcUrl, key, chain);
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== "success") throw new Error(`The local chain reverted ${hash}`);
    return hash;
  };
  // The stand-in stablecoin is an ERC-20 like QUEST: the same `approve`.
  await mined(
    await wallet.writeContract({ address: token ?? contracts.QuestToken, abi: questTokenAbi, functionName: "approve", args: [contracts.DepositVault, amount] }),
  );
  const txHash = await mined(
    token
      ? await wallet.writeContract({ address: contracts.DepositVault, abi: depositVaultAbi, functionName: "depositToken", args: [token, amount, ref] })
      : await wallet.writeContract({ address: contracts.DepositVault, abi: depositVaultAbi, functionName: "deposit", args: [amount, ref] }),
  );
  return { txHash };
}

/**
 * One of anvil's dev accounts calls a contract on a local chain, as its owner would from a browser
 * wallet: the demo's members mint and swap on the demo contracts this way. Resolves with the
 * mined transaction's hash; a reverted call throws.
 */
export async function callFromDevAccount<const TAbi extends Abi>({
  rpcUrl,
  key,
  address,
  abi,
  functionName,
  args,
}: {
  rpcUrl: string;
  key: Hex;
  address: Address;
  abi: TAbi;
  functionName: ContractFunctionName<TAbi, "nonpayable" | "payable">;
  args: readonly unknown[];
}): Promise<Hex> {
  const chain = localChainOf(await createPublicClient({ transport: http(rpcUrl) }).getChainId(), rpcUrl);
  const { publicClient, wallet } = localChainClients(rpcUrl, key, chain);
  const hash = await wallet.writeContract({ address, abi: abi as Abi, functionName, args } as Parameters<typeof wallet.writeContract>[0]);
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  if (receipt.status !== "success") throw new Error(`The local chain reverted ${hash}`);
  return hash;
}
