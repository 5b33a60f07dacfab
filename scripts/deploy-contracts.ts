// Deploys Questline's contracts to a chain and writes deployments/<chainId>.json, which the app
// reads (app/modules/chain/contract-addresses.server.ts).
//
//   RPC_URL=https://… DEPLOYER_PRIVATE_KEY=0x… npm run deploy:contracts
//   DEPLOYER_PRIVATE_KEY=0x… npm run deploy:contracts -- --chain 84532
//
// --chain <id>          a chain of the list (app/wallet/chains.ts), reached through the node the app
//                       would use: RPC_URL_<id>, else the first of ANKR_KEY, INFURA_KEY, BLAST_KEY
//                       with an endpoint there; the node must answer with that chain id
// RPC_URL               the chain's node without --chain (default http://127.0.0.1:8545, a local anvil)
// DEPLOYER_PRIVATE_KEY  pays for and sends the deployment; anvil's first dev key by default,
//                       on a local chain only (31337, 31338)
// CONTRACTS_ADMIN       gets the admin roles and the sale's ownership (default: the deployer)
// CONTRACTS_OPERATOR    gets the vault's and the distributor's operator role (default: the admin)
// DEPLOYMENTS_DIR       where to write <chainId>.json (default deployments/)
// FUND_DEV_ACCOUNTS     "true" on a local chain: mints 10,000 tokens to each anvil dev account

import path from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, createWalletClient, http, isAddress, isHex, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployQuestline, fundAccounts } from "../contracts/deploy.ts";
import { DEFAULT_DEPLOYMENTS_DIR, writeDeploymentFile } from "../contracts/deployment-file.ts";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "../contracts/dev-accounts.ts";
import { knownChain, KNOWN_CHAINS } from "../app/wallet/chains.ts";
import { nodeEndpoints } from "../app/wallet/chain-config.ts";

const LOCAL_CHAIN_ID = 31337;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values: args } = parseArgs({ options: { chain: { type: "string" } } });
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
const started = performance.now();
const deployment = await deployQuestline({
  wallet,
  publicClient,
  settings: { admin: optionalAddress("CONTRACTS_ADMIN"), operator: optionalAddress("CONTRACTS_OPERATOR"), pollingInterval: publicClient.pollingInterval },
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
const file = writeDeploymentFile(path.resolve(process.env.DEPLOYMENTS_DIR || DEFAULT_DEPLOYMENTS_DIR), deployment);
console.log(`Deployed to chain ${chainId} in ${Math.round(performance.now() - started)} ms → ${path.relative(process.cwd(), file)}`);
for (const [name, address] of Object.entries(deployment.contracts)) console.log(`  ${name.padEnd(20)} ${address}`);
