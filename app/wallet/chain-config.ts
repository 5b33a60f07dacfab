import { defineChain, fallback, http, type Chain, type Transport } from "viem";
import { bsc } from "viem/chains";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { CHAIN_DETAILS, type NodeProvider } from "./chain-details";
import { KNOWN_CHAINS, knownChain } from "./chains";
import { hasWalletCloud } from "./wallet-cloud";

/**
 * What the server hands the browser to reach the chains (the initial page props): the nodes of
 * the local development chains this deployment runs, the three node providers' keys, and the
 * wallet-modal project id. Nothing else about the server's configuration reaches the browser (a
 * public chain's own `RPC_URL_<chainId>` may carry a secret and stays on the server).
 */
export type ChainConfig = {
  /** Each running local chain's node (anvil on a loopback port), by chain id. */
  localRpcs: Partial<Record<number, string>>;
  ankr: string | null;
  infura: string | null;
  blast: string | null;
  projectId: string;
  /** The chains members may sign in on, from the server's list: the wallet modal's networks and the network pickers. */
  chainIds: number[];
};

/** The social sign-ins the wallet modal offers (AppKit's names). */
const SOCIAL_SIGN_INS = ["google", "x", "github", "discord", "apple", "facebook", "farcaster"] as const;

/**
 * The wallet modal's optional features. E-mail and social sign-in, on-ramp and swaps run through
 * the wallet vendor's cloud, which answers only for a real project id: without one they are off.
 */
export function walletFeatures(config: Pick<ChainConfig, "projectId">): {
  email: boolean;
  socials: (typeof SOCIAL_SIGN_INS)[number][] | false;
  onramp: boolean;
  swaps: boolean;
  analytics: false;
} {
  const cloud = hasWalletCloud(config);
  return {
    email: cloud,
    socials: cloud ? [...SOCIAL_SIGN_INS] : false,
    onramp: cloud,
    swaps: cloud,
    analytics: false,
  };
}

/** Our networks where the wallet modal can swap (its own list holds BNB Smart Chain, not Sepolia or the local chain). */
export const SWAP_CHAIN_IDS: readonly number[] = [bsc.id];

/** A local development chain of the list (anvil, `local` in chains.ts), as viem describes a chain: its id, our name for it and its node. */
export function localChainOf(chainId: number = LOCAL_CHAIN_ID, rpc = "http://127.0.0.1:8545"): Chain {
  const known = knownChain(chainId);
  if (!known?.local) throw new Error(`Chain ${chainId} is not a local chain of the list`);
  return defineChain({
    id: known.id,
    name: known.name,
    nativeCurrency: { name: "Ether", symbol: known.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
    testnet: true,
  });
}

/** The chains a node provider has endpoints for (every known chain but the local ones). */
export const ENDPOINT_CHAIN_IDS: readonly number[] = KNOWN_CHAINS.filter((chain) => Object.keys(CHAIN_DETAILS[chain.id]?.endpoints ?? {}).length > 0).map(
  (chain) => chain.id,
);

/** Each provider's endpoint pattern per chain, from the list of chains; `{key}` is the provider key. A chain a provider lacks is absent. */
export const PROVIDER_ENDPOINTS: Record<NodeProvider, Partial<Record<number, string>>> = {
  ankr: endpointsOf("ankr"),
  infura: endpointsOf("infura"),
  blast: endpointsOf("blast"),
};

function endpointsOf(provider: NodeProvider): Partial<Record<number, string>> {
  return Object.fromEntries(
    KNOWN_CHAINS.flatMap((chain) => {
      const pattern = CHAIN_DETAILS[chain.id]?.endpoints[provider];
      return pattern ? [[chain.id, pattern]] : [];
    }),
  );
}

export const RANK_INTERVAL_MS = 60_000;
export const RETRY_COUNT = 2;

/**
 * Node endpoints per chain id, from every provider that has a key, de-duplicated. A configured
 * provider without an endpoint for one of the chains is reported through `warn` and skipped.
 */
export function nodeEndpoints(
  config: Pick<ChainConfig, "localRpcs" | NodeProvider>,
  warn: (message: string) => void = () => {},
  table: Record<NodeProvider, Partial<Record<number, string>>> = PROVIDER_ENDPOINTS,
): Map<number, string[]> {
  const endpoints = new Map<number, string[]>();
  const add = (chainId: number, url: string) => {
    const list = endpoints.get(chainId) ?? [];
    if (!list.includes(url)) list.push(url);
    endpoints.set(chainId, list);
  };
  for (const [chainId, url] of Object.entries(config.localRpcs)) if (url) add(Number(chainId), url);
  for (const provider of ["ankr", "infura", "blast"] as const) {
    const key = config[provider];
    if (!key) continue;
    for (const chainId of ENDPOINT_CHAIN_IDS) {
      const pattern = table[provider][chainId];
      if (!pattern) {
        warn(`No ${provider} endpoint for chain ${chainId}; skipped`);
        continue;
      }
      add(chainId, pattern.replace("{key}", encodeURIComponent(key)));
    }
  }
  return endpoints;
}

/** How long one request to a node may take, and how often a failed one is tried again. */
/**
 * How a transport asks a node: `timeoutMs` and `retryCount` bound each request; `batch` sends the
 * requests made in the same tick as JSON-RPC batches of up to BATCH_SIZE (viem's batching, which
 * holds each request for one timer tick): for reads that ask many things at once, such as "Find my
 * transaction" reading a range of blocks.
 */
export type NodeDeadline = { timeoutMs?: number; retryCount?: number; batch?: boolean };

/** Requests in one JSON-RPC batch: within what providers accept in one body. */
const BATCH_SIZE = 50;

/**
 * One transport for a chain: its endpoints in a ranked fallback, its one endpoint alone (nothing to
 * rank, so no pings), or the chain's public RPC when none is configured. `deadline` bounds each
 * request (viem's own: 10 s, tried three times).
 */
export function chainTransport(urls: string[] | undefined, { timeoutMs, retryCount = RETRY_COUNT, batch = false }: NodeDeadline = {}): Transport {
  const batching = batch ? { batch: { batchSize: BATCH_SIZE } } : {};
  if (!urls || urls.length === 0) return http(undefined, { timeout: timeoutMs, retryCount, ...batching });
  if (urls.length === 1) return http(urls[0], { timeout: timeoutMs, retryCount, ...batching });
  return fallback(
    urls.map((url) => http(url, { timeout: timeoutMs, retryCount: 0, ...batching })),
    { rank: { interval: RANK_INTERVAL_MS }, retryCount },
  );
}
