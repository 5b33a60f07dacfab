import { createPublicClient, createWalletClient, keccak256, type Address, type Chain, type Hex, type PublicClient, type Transport } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import * as viemChains from "viem/chains";
import type { DemoContracts } from "#contracts/deploy";
import { DEV_OPERATOR_PRIVATE_KEY } from "#contracts/dev-accounts";
import type { Env } from "~/services/env.server";
import type { Database } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { chainTransport, localChainOf, nodeEndpoints, type ChainConfig } from "~/wallet/chain-config";
import { CHAIN_DETAILS } from "~/wallet/chain-details";
import { CHAIN_NAMES, KNOWN_CHAINS, knownChain } from "~/wallet/chains";
import { LOCAL_PROJECT_ID } from "~/wallet/wallet-cloud";
import type { OperatorWallet } from "./operator-outbox.server";
import { CONTRACT_KEYS, readDeployments, type ContractAddresses, type ContractCodeHashes, type VaultToken } from "./contract-addresses.server";
import { agreeLocalContracts } from "./contracts.server";

/** viem's own object of each chain in the list (a local chain's carries its id and our name for it). */
const VIEM_CHAINS: ReadonlyMap<number, Chain> = new Map(
  KNOWN_CHAINS.map((known) => [
    known.id,
    known.local ? localChainOf(known.id) : (viemChains as unknown as Record<string, Chain>)[CHAIN_DETAILS[known.id]!.viem]!,
  ]),
);

/** One chain as the server reaches it: built once at start, shared by every request and job. */
export type RegisteredChain = {
  id: number;
  name: string;
  /** A local development chain (anvil, `local` in the list), which mines only when asked. */
  local: boolean;
  /** Reads for the background jobs, through the chain's ranked fallback transport (CHAIN_TIMEOUT_MS, one retry). */
  client: PublicClient;
  /**
   * Reads made while a member waits (pages, actions, sign-in): one try within CHAIN_PAGE_TIMEOUT_MS,
   * so a node that hangs costs a page that long and the page says the chain could not be reached.
   */
  pageClient: PublicClient;
  /** Signs as the vault's operator (withdrawals, and later airdrop rounds); null where no key is configured. */
  operator: OperatorWallet | null;
  /** Questline's contracts on this chain, or null where none are deployed. */
  contracts: ContractAddresses | null;
  /**
   * The tokens this chain's vault takes and pays, each the ledger's asset `SYMBOL:<chainId>`:
   * QUEST (the vault's own token, 18 decimals) first, then those the deployment names (the local
   * chains' stand-in USDC). Empty where no contracts are deployed.
   */
  tokens: readonly VaultToken[];
  /**
   * The demo contracts on-chain tasks can be tried on (an ERC-721, an ERC-1155, a QUEST/USDC swap;
   * the Demo dApp page): deployed at start on a fresh local chain only; null on every other chain.
   */
  demo: DemoContracts | null;
  /** Blocks an event needs (its own included) before it counts; null: nothing on this chain is scanned, paid or drawn. */
  confirmations: number | null;
  /** The first block deposits are read from (DEPOSIT_START_BLOCKS), when configured. */
  startBlock: bigint | null;
  /** The node's WebSocket, where the chain's new heads are followed (head-follower.server.ts); null: the chain is only polled. */
  webSocket: string | null;
  /** How many of the latest blocks "Find my transaction" looks through (FIND_TX_BLOCKS). */
  findTxBlocks: number;
};

/** A chain with a vault, a node and a confirmation count: deposits are scanned and withdrawals paid there. */
export type VaultChain = RegisteredChain & { contracts: ContractAddresses; confirmations: number; vault: Address };

export type ChainRegistry = {
  /** The initial page props the browser gets: what it needs to reach the chains, nothing more. */
  config: ChainConfig;
  /** Chains members may sign in on (a chain without a node too: an ordinary account's signature needs none). */
  chainIds: number[];
  /** Every chain with a node, in chain id order of the configuration. */
  list: readonly RegisteredChain[];
  get: (chainId: number) => RegisteredChain | undefined;
  /** Chains with a vault, a node and a confirmation count. */
  vaultChains: () => VaultChain[];
  /** Chains with a node and a confirmation count: where raffles may draw their seed block. */
  confirmedChains: () => Array<RegisteredChain & { confirmations: number }>;
};

/** What one chain is made of, before its clients are built. */
export type ChainSetup = {
  id: number;
  transport: Transport;
  /** The transport of reads made while a member waits; `transport` when not given. */
  pageTransport?: Transport;
  contracts?: ContractAddresses | null;
  /** The vault's tokens besides QUEST, as the deployment names them. */
  tokens?: VaultToken[];
  /** The demo contracts, on a local chain (ignored on any other). */
  demo?: DemoContracts | null;
  confirmations?: number | null;
  startBlock?: number | null;
  /** The operator's key; on a local chain anvil's dev account 9 signs when it is unset. */
  operatorKey?: Hex | null;
  /** The node's WebSocket URL (`ws://`, `wss://`), where new heads are followed; none unless given. */
  webSocket?: string | null;
  /** Blocks "Find my transaction" looks through; 2,000 unless given. */
  findTxBlocks?: number;
};

/**
 * Builds the registry from chains already described: each gets one public client over its
 * transport and, where a key is known, one operator wallet. Nothing else in the server builds a
 * client for serving (the local chain's deployment at start uses its own deployer account).
 */
export function buildChainRegistry({
  config,
  chainIds,
  chains,
  logger,
}: {
  config: ChainConfig;
  chainIds: number[];
  chains: ChainSetup[];
  logger: Logger;
}): ChainRegistry {
  return registryOf({ config, chainIds, list: chains.map(registerChain), logger });
}

/** The registry over chains already registered (their contracts checked, where they were). */
function registryOf({ config, chainIds, list, logger }: { config: ChainConfig; chainIds: number[]; list: RegisteredChain[]; logger: Logger }): ChainRegistry {
  for (const chain of list) {
    if (chain.contracts && chain.confirmations === null) {
      logger.warn({ chainId: chain.id }, "this chain's deposits are not scanned nor its withdrawals paid: CONFIRMATIONS names no confirmation count for it");
    } else if (chain.contracts && !chain.operator) {
      logger.warn({ chainId: chain.id }, "OPERATOR_PRIVATE_KEY is not set: withdrawals on this chain wait");
    }
  }
  const byId = new Map(list.map((chain) => [chain.id, chain]));
  const vaultChains = list.flatMap((chain): VaultChain[] =>
    chain.contracts && chain.confirmations !== null
      ? [{ ...chain, contracts: chain.contracts, confirmations: chain.confirmations, vault: chain.contracts.DepositVault }]
      : [],
  );
  const confirmedChains = list.flatMap((chain) => (chain.confirmations !== null ? [{ ...chain, confirmations: chain.confirmations }] : []));
  return { config, chainIds, list, get: (chainId) => byId.get(chainId), vaultChains: () => vaultChains, confirmedChains: () => confirmedChains };
}

function registerChain({
  id,
  transport,
  pageTransport = transport,
  contracts = null,
  tokens = [],
  demo = null,
  confirmations = null,
  startBlock = null,
  operatorKey = null,
  webSocket = null,
  findTxBlocks = 2_000,
}: ChainSetup): RegisteredChain {
  const chain = VIEM_CHAINS.get(id);
  const local = knownChain(id)?.local === true;
  const key = operatorKey ?? (local ? DEV_OPERATOR_PRIVATE_KEY : null);
  return {
    id,
    name: CHAIN_NAMES[id] ?? `chain ${id}`,
    local,
    client: createPublicClient({ chain, transport }) as PublicClient,
    pageClient: createPublicClient({ chain, transport: pageTransport }) as PublicClient,
    operator: key && chain ? createWalletClient({ chain, transport, account: privateKeyToAccount(key) }) : null,
    contracts,
    tokens: vaultTokensOf(contracts, tokens),
    demo: local ? demo : null,
    confirmations,
    startBlock: startBlock === null ? null : BigInt(startBlock),
    webSocket,
    findTxBlocks,
  };
}

/** QUEST's symbol and decimals: the vault's own token on every chain. */
export const QUEST_TOKEN = { symbol: "QUEST", decimals: 18 } as const;

/** A chain's vault tokens: QUEST from its contracts first, then the deployment's others; none without contracts. */
export function vaultTokensOf(contracts: ContractAddresses | null, others: VaultToken[]): VaultToken[] {
  return contracts ? [{ ...QUEST_TOKEN, address: contracts.QuestToken }, ...others] : [];
}

/** The token a chain's vault takes under `symbol` (an asset's `SYMBOL` on that chain), or undefined where it takes none. */
export const chainToken = (chain: Pick<RegisteredChain, "tokens">, symbol: string): VaultToken | undefined =>
  chain.tokens.find((token) => token.symbol === symbol);

/** The local chain's WebSocket: anvil serves it on its HTTP port (`http://127.0.0.1:8545` → `ws://127.0.0.1:8545`). */
export function localWebSocketUrl(rpcUrl: string): string {
  return rpcUrl.replace(/^http/, "ws");
}

/**
 * The registry this server runs with: node endpoints from the keys in the environment (and the
 * local chain's URL), contract addresses from `deployments/` and the environment, Questline's
 * contracts deployed to a fresh local chain (once for all the processes sharing `database`),
 * confirmations and start blocks per chain.
 */
export async function createChainRegistry({
  env,
  localChainUrls,
  logger,
  database,
}: {
  env: Env;
  /** The node of each local chain this deployment runs (started by the process, LOCAL_CHAIN_RPC_URL or RPC_URL_<id>). */
  localChainUrls: ReadonlyMap<number, string>;
  logger: Logger;
  database: Pick<Database, "exclusively">;
}): Promise<ChainRegistry> {
  // Members sign in on every chain in the list (an ordinary account's signature needs no node), and on a local one while its node runs.
  const chainIds = KNOWN_CHAINS.filter((known) => !known.local || localChainUrls.has(known.id)).map((known) => known.id);
  const config: ChainConfig = {
    chainIds,
    localRpcs: Object.fromEntries(localChainUrls),
    ankr: env.ANKR_KEY ?? null,
    infura: env.INFURA_KEY ?? null,
    blast: env.BLAST_KEY ?? null,
    projectId: env.REOWN_PROJECT_ID ?? LOCAL_PROJECT_ID,
  };
  const deployments = readDeployments({ dir: env.DEPLOYMENTS_DIR, overrides: env.contractAddresses });
  // Each local chain gets its contracts (once per fresh chain, whichever process comes first) and the dev accounts their tokens.
  const demos = new Map<number, DemoContracts | null>();
  for (const [id, rpcUrl] of localChainUrls) {
    const known = deployments.get(id);
    const local = await agreeLocalContracts({ database, chainId: id, rpcUrl, known: known?.contracts, knownTokens: known?.tokens, logger });
    deployments.set(id, { contracts: local.addresses, codeHashes: {}, tokens: local.tokens });
    demos.set(id, local.demo);
  }
  const endpoints = nodeEndpoints(config, (message) => logger.warn(message));
  // A chain's own RPC_URL_<chainId> comes first, before the providers' endpoints.
  for (const [id, url] of env.rpcUrls) endpoints.set(id, [url, ...(endpoints.get(id) ?? []).filter((other) => other !== url)]);
  const chains = [...endpoints].map(([id, urls]): ChainSetup => ({
    id,
    transport: chainTransport(urls, { timeoutMs: env.CHAIN_TIMEOUT_MS, retryCount: 1 }),
    // Reads while a member waits go in JSON-RPC batches: "Find my transaction" reads up to thousands of blocks at once.
    pageTransport: chainTransport(urls, { timeoutMs: env.CHAIN_PAGE_TIMEOUT_MS, retryCount: 0, batch: true }),
    contracts: deployments.get(id)?.contracts ?? null,
    tokens: deployments.get(id)?.tokens ?? [],
    demo: demos.get(id) ?? null,
    confirmations: env.confirmations.get(id) ?? null,
    startBlock: env.depositStartBlocks.get(id) ?? null,
    operatorKey: (env.OPERATOR_PRIVATE_KEY as Hex | undefined) ?? null,
    // New heads come over the node's WebSocket: RPC_WS_URL_<chainId>, or a local chain's own.
    webSocket: env.rpcWebSocketUrls.get(id) ?? (localChainUrls.has(id) ? localWebSocketUrl(localChainUrls.get(id)!) : null),
    findTxBlocks: env.FIND_TX_BLOCKS,
  }));
  // The local chains' contracts were deployed by this start (or agreed on) just above; every other chain's are checked.
  const checked = await Promise.all(
    chains
      .map(registerChain)
      .map(async (chain) =>
        localChainUrls.has(chain.id) ? chain : withContracts(chain, await contractsOnChain(chain, deployments.get(chain.id)?.codeHashes ?? {}, logger)),
      ),
  );
  return registryOf({ config, chainIds, list: checked, logger });
}

/** A chain with its contracts as checked: a chain whose contracts were dropped carries no tokens either. */
const withContracts = (chain: RegisteredChain, contracts: ContractAddresses | null): RegisteredChain =>
  contracts ? { ...chain, contracts } : { ...chain, contracts: null, tokens: [] };

/**
 * A chain's contracts as the deployment names them, checked against the chain at start through
 * the chain's own page client (one try within a page's wait): its node must answer with the
 * chain's id, each address must hold code, and that code's keccak256 must be the hash the
 * deployment recorded (runtime code carries immutables, so the hash is read from the chain at
 * deployment, not computed from the compiler's output). A chain that fails is kept for sign-in
 * but carries no money (its contracts dropped), said in one log line; so is a deployment that
 * recorded no hash. A node that does not answer leaves the addresses unchecked, also said.
 */
async function contractsOnChain(chain: RegisteredChain, codeHashes: ContractCodeHashes, logger: Logger): Promise<ContractAddresses | null> {
  const { id, name, contracts } = chain;
  if (!contracts) return null;
  const redeploy = `npm run deploy:contracts -- --chain ${id}`;
  const unhashed = CONTRACT_KEYS.filter((key) => !codeHashes[key]);
  if (unhashed.length > 0) {
    logger.error(
      { chainId: id, unhashed },
      `${name}: its deployment records no code hash for ${unhashed.join(", ")} (a deployment file from before code hashes, or an address set in the environment), so no money moves on it; deploy again (${redeploy}) or add each contract's codeHashes (keccak256 of its eth_getCode) to deployments/${id}.json`,
    );
    return null;
  }
  let answered: { chainId: number; codes: (Hex | undefined)[] };
  try {
    const [chainId, ...codes] = await Promise.all([
      chain.pageClient.getChainId(),
      ...CONTRACT_KEYS.map((key) => chain.pageClient.getCode({ address: contracts[key] })),
    ]);
    answered = { chainId, codes };
  } catch {
    logger.warn({ chainId: id }, `${name}: its node did not answer at start, so its contracts were not checked`);
    return contracts;
  }
  if (answered.chainId !== id) {
    logger.error(
      { chainId: id, answered: answered.chainId },
      `${name}: its node answers as chain ${answered.chainId}, so no money moves on it; point its node setting at chain ${id}`,
    );
    return null;
  }
  const missing = CONTRACT_KEYS.filter((_, i) => !answered.codes[i] || answered.codes[i] === "0x");
  if (missing.length > 0) {
    logger.error(
      { chainId: id, missing },
      `${name}: the deployment names ${missing.join(", ")} where the chain holds no code, so no money moves on it; deploy again (${redeploy}) or fix the addresses`,
    );
    return null;
  }
  const differing = CONTRACT_KEYS.filter((key, i) => keccak256(answered.codes[i]!) !== codeHashes[key]);
  if (differing.length > 0) {
    logger.error(
      { chainId: id, differing },
      `${name}: the code at ${differing.map((key) => `${key} (${contracts[key]})`).join(", ")} is not the code its deployment recorded (the code hash differs), so no money moves on it; deploy again (${redeploy}) or fix deployments/${id}.json`,
    );
    return null;
  }
  return contracts;
}
