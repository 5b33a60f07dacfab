// Deploys Questline's contracts to a chain and writes deployments/<chainId>.json, which the app
// reads (app/modules/chain/contract-addresses.server.ts).
//
//   RPC_URL=https://… DEPLOYER_PRIVATE_KEY=0x… npm run deploy:contracts
//   DEPLOYER_PRIVATE_KEY=0x… npm run deploy:contracts -- --chain 84532
//
// --chain <id>          a chain of the list (app/wallet/chains.ts), reached through the node the app
//                       would use: RPC_URL_<id>, else the first of ANKR_KEY, INFURA_KEY, BLAST_KEY
//                       with an endpoint there; the node must answer with that chain id
// --token <address>     allow-lists an existing ERC-20 on the vault (repeatable), e.g. a testnet's USDC;
//                       its symbol and decimals are read from the chain and written to the file's
//                       `tokens`. On a local chain the stand-in USDC (6 decimals) is deployed and
//                       listed as well, as the app's own local deployment does
// RPC_URL               the chain's node without --chain (default http://127.0.0.1:8545, a local anvil)
// DEPLOYER_PRIVATE_KEY  pays for and sends the deployment; anvil's first dev key by default,
//                       on a local chain only (31337, 31338)
// CONTRACTS_ADMIN       gets the admin roles and the sale's ownership (default: the deployer)
// CONTRACTS_OPERATOR    gets the vault's and the distributor's operator role (default: the admin)
// OPERATOR_PRIVATE_KEY  the operator's key, which keeps the vault's token list: needed to list a token
//                       when the operator is not the deployer (an anvil dev account's key is known)
// DEPLOYMENTS_DIR       where to write <chainId>.json (default deployments/)
// FUND_DEV_ACCOUNTS     "true" on a local chain: mints 10,000 tokens to each anvil dev account

import path from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, isAddress, isHex, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployLocalStablecoin, deployQuestline, fundAccounts, LOCAL_STABLECOIN } from "../contracts/deploy.ts";
import { depositVaultAbi } from "../contracts/generated/deposit-vault.ts";
import { DEFAULT_DEPLOYMENTS_DIR, writeDeploymentFile } from "../contracts/deployment-file.ts";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "../contracts/dev-accounts.ts";
import { knownChain, KNOWN_CHAINS } from "../app/wallet/chains.ts";
import { nodeEndpoints } from "../app/wallet/chain-config.ts";
import { vaultTokensSchema, type VaultToken } from "../app/modules/chain/contract-addresses.server.ts";

const LOCAL_CHAIN_ID = 31337;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values: args } = parseArgs({ options: { chain: { type: "string" }, token: { type: "string", multiple: true } } });
const tokenAddresses = (args.token ?? []).map((value) =>
  isAddress(value) ? getAddress(value) : fail(`--token must be a 0x address of 40 hex digits, not ${value}`),
);
const asked = args.chain === undefined ? null : Number(args.chain);
if (asked !== null && (!Number.isInteger(asked) || !knownChain(asked) || asked === LOCAL_CHAIN_ID)) {
  fail(
    `--chain must name a chain of the list: ${KNOWN_CHAINS.filter((c) => c.id !== LOCAL_CHAIN_ID)
      .map((c) => `${c.id} (${c.name})`)
      .join(", ")}`,
  );
}
const rpcUrl = asked === null ? process.env.RPC_URL || "http://127.0.0.1:8545" : nodeOf(asked);
const transport = http(rpcUrl);
const probe = createPublicClient({ transport });
const chainId = await probe
  .getChainId()
  .catch((error: Error) => fail(`Cannot reach the node of chain ${asked ?? ""} at ${new URL(rpcUrl).host}: ${error.message}`));
if (asked !== null && chainId !== asked) fail(`The node answered with chain id ${chainId}, not ${asked}: check RPC_URL_${asked}`);
const known = knownChain(chainId);
const chain = {
  id: chainId,
  name: known?.name ?? `chain ${chainId}`,
  nativeCurrency: { name: known?.nativeSymbol ?? "Ether", symbol: known?.nativeSymbol ?? "ETH", decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
};

/** The node the app would read `chainId` through: its RPC_URL_<id>, else the first provider with a key and an endpoint there. */
function nodeOf(chainId: number): string {
  const own = process.env[`RPC_URL_${chainId}`];
  if (own) return own;
  const env = process.env;
  const [first] = nodeEndpoints({ localRpcs: {}, ankr: env.ANKR_KEY || null, infura: env.INFURA_KEY || null, blast: env.BLAST_KEY || null }).get(chainId) ?? [];
  if (!first) fail(`No node for chain ${chainId}: set RPC_URL_${chainId}, or ANKR_KEY, INFURA_KEY or BLAST_KEY`);
  return first;
}

const local = known?.local === true;
const key = process.env.DEPLOYER_PRIVATE_KEY || (local ? DEV_PRIVATE_KEYS[0] : undefined);
if (!key) fail(`DEPLOYER_PRIVATE_KEY is required on chain ${chainId} (only a local chain has a default)`);
if (!isHex(key) || key.length !== 66) fail("DEPLOYER_PRIVATE_KEY must be 0x and 64 hex digits");
const optionalAddress = (name: string): Address | undefined => {
  const value = process.env[name];
  if (!value) return undefined;
  if (!isAddress(value)) fail(`${name} must be a 0x address`);
  return value;
};

const publicClient = createPublicClient({ chain, transport, pollingInterval: local ? 10 : 2_000 });
const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(key as Hex) });
const admin = optionalAddress("CONTRACTS_ADMIN");
const operator = optionalAddress("CONTRACTS_OPERATOR") ?? admin ?? wallet.account.address;

/** An existing token the vault is to take, as the chain names it: read before anything is deployed, so a wrong address moves nothing. */
async function existingToken(address: Address): Promise<VaultToken> {
  const read = async <F extends "symbol" | "decimals">(functionName: F) =>
    publicClient
      .readContract({ address, abi: erc20Abi, functionName })
      .catch((error: Error) => fail(`--token ${address}: the chain gives no ERC-20 ${functionName}() there (${error.message.split("\n")[0]})`));
  return { symbol: await read("symbol"), address, decimals: Number(await read("decimals")) };
}
const existing = await Promise.all(tokenAddresses.map(existingToken));
const named = existing.map((token) => `${token.symbol} ${token.address}`).join(", ");
const listed = vaultTokensSchema.safeParse(existing);
if (!listed.success)
  fail(`--token: the vault's tokens ${listed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`.trim()).join("; ")} (${named})`);
if (local && existing.some((token) => token.symbol === LOCAL_STABLECOIN.symbol))
  fail(
    `--token: a local chain lists its stand-in ${LOCAL_STABLECOIN.symbol} already; another token named ${LOCAL_STABLECOIN.symbol} cannot be listed beside it (${named})`,
  );

/** Who keeps the vault's token list: the deployer when it is the operator, else OPERATOR_PRIVATE_KEY (or a local dev account's known key). */
function operatorWallet() {
  const keys = [key, process.env.OPERATOR_PRIVATE_KEY, ...(local ? DEV_PRIVATE_KEYS : [])].filter((k): k is string => Boolean(k));
  const own = keys.find((k) => isHex(k) && k.length === 66 && privateKeyToAccount(k).address === operator);
  if (!own) fail(`Listing a token needs the vault's operator ${operator} to sign: set OPERATOR_PRIVATE_KEY to its key`);
  return createWalletClient({ chain, transport, account: privateKeyToAccount(own as Hex) });
}
const lister = local || existing.length > 0 ? operatorWallet() : null;

const started = performance.now();
const deployment = await deployQuestline({
  wallet,
  publicClient,
  settings: { admin, operator, pollingInterval: publicClient.pollingInterval },
});
if (process.env.FUND_DEV_ACCOUNTS === "true" && local) {
  await fundAccounts({
    wallet,
    publicClient,
    token: deployment.contracts.QuestToken,
    accounts: DEV_ADDRESSES,
    amount: parseEther("10000"),
    pollingInterval: 10,
  });
}
// The vault's tokens besides QUEST, as the app's local deployment records them: the stand-in USDC
// on a local chain (each dev account funded when asked), then each --token, allow-listed by the operator.
const tokens: VaultToken[] = [];
if (local) {
  tokens.push(
    await deployLocalStablecoin({
      wallet,
      operator: lister!,
      publicClient,
      vault: deployment.contracts.DepositVault,
      accounts: process.env.FUND_DEV_ACCOUNTS === "true" ? DEV_ADDRESSES : [],
      amount: 10_000n * 10n ** BigInt(LOCAL_STABLECOIN.decimals),
      pollingInterval: 10,
    }),
  );
}
for (const token of existing) {
  const hash = await lister!.writeContract({
    address: deployment.contracts.DepositVault,
    abi: depositVaultAbi,
    functionName: "setTokenAllowed",
    args: [token.address, true],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: publicClient.pollingInterval });
  if (receipt.status !== "success") fail(`Allow-listing ${token.symbol} (${token.address}) on the vault reverted in ${hash}`);
  tokens.push(token);
}
const recorded = { ...deployment, tokens };
const file = writeDeploymentFile(path.resolve(process.env.DEPLOYMENTS_DIR || DEFAULT_DEPLOYMENTS_DIR), recorded);
console.log(`Deployed to chain ${chainId} in ${Math.round(performance.now() - started)} ms → ${path.relative(process.cwd(), file)}`);
for (const [name, address] of Object.entries(deployment.contracts)) console.log(`  ${name.padEnd(20)} ${address}`);
for (const token of tokens) console.log(`  ${token.symbol.padEnd(20)} ${token.address} (${token.decimals} decimals, listed on the vault)`);
