import type { Hex, Transport } from "viem";
import type { DemoContracts } from "#contracts/deploy";
import { createLogger } from "~/lib/logger.server";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { buildChainRegistry, localWebSocketUrl, type ChainRegistry } from "~/modules/chain/chain-registry.server";
import type { ContractAddresses, VaultToken } from "~/modules/chain/contract-addresses.server";
import { chainTransport } from "~/wallet/chain-config";
import { knownChain } from "~/wallet/chains";
import { LOCAL_PROJECT_ID } from "~/wallet/wallet-cloud";

/**
 * The registry a server started on the local chain at `url` would build (the same builder), with
 * the contracts given; `others` adds chains as the test describes them (a second local chain among
 * them is offered for sign-in too, as its node makes it). `transport` replaces the local chain's
 * (a test wrapping its requests); `webSocket` is where its new heads are followed (anvil's own
 * socket, as the server's; null: the chain is only polled); `localRpcs` names the other local
 * chains' nodes, as the server hands them to the browser.
 */
export function localRegistry({
  url,
  contracts = null,
  tokens = [],
  demo = null,
  confirmations = 1,
  operatorKey = null,
  others = [],
  transport = chainTransport([url]),
  webSocket = localWebSocketUrl(url),
  localRpcs = {},
}: {
  url: string;
  contracts?: ContractAddresses | null;
  /** The vault's tokens besides QUEST (the stand-in USDC `ensureLocalContracts` deploys). */
  tokens?: VaultToken[];
  /** The demo contracts `ensureLocalContracts` deployed (the Demo dApp's). */
  demo?: DemoContracts | null;
  confirmations?: number;
  operatorKey?: Hex | null;
  others?: Parameters<typeof buildChainRegistry>[0]["chains"];
  transport?: Transport;
  webSocket?: string | null;
  localRpcs?: Partial<Record<number, string>>;
}): ChainRegistry {
  const chainIds = [56, 11155111, LOCAL_CHAIN_ID, ...others.filter((setup) => knownChain(setup.id)?.local).map((setup) => setup.id)];
  return buildChainRegistry({
    config: { localRpcs: { [LOCAL_CHAIN_ID]: url, ...localRpcs }, ankr: null, infura: null, blast: null, projectId: LOCAL_PROJECT_ID, chainIds },
    chainIds,
    chains: [{ id: LOCAL_CHAIN_ID, transport, contracts, tokens, demo, confirmations, operatorKey, webSocket }, ...others],
    logger: createLogger("silent"),
  });
}

/** Contract addresses that only name a deployment (the `n`-th): for registries nothing asks a node through. */
export const namedContracts = (n: number): ContractAddresses => ({
  QuestToken: `0x${"1".repeat(39)}${n}`,
  TokenSale: `0x${"2".repeat(39)}${n}`,
  DepositVault: `0x${"3".repeat(39)}${n}`,
  AirdropDistributor: `0x${"4".repeat(39)}${n}`,
});

/** A node that never answers: registries whose tests ask no chain anything. */
const NO_NODE = "http://127.0.0.1:9";

/** The stand-in USDC (6 decimals) and a project's token LUMEN (18), as a deployment lists them. */
export const LISTED_USDC: VaultToken = { symbol: "USDC", address: `0x${"5".repeat(40)}`, decimals: 6 };
export const LISTED_LUMEN: VaultToken = { symbol: "LUMEN", address: `0x${"6".repeat(40)}`, decimals: 18 };

/**
 * A deployment with vaults on both local chains and `tokens` listed on the second, plus `others`
 * (the registry's own builder; nothing here calls a node).
 */
export function twoVaultRegistry({
  tokens,
  others = [],
}: {
  tokens: VaultToken[];
  others?: Parameters<typeof buildChainRegistry>[0]["chains"];
}): ChainRegistry {
  return localRegistry({
    url: NO_NODE,
    contracts: namedContracts(1),
    others: [{ id: SECOND_LOCAL_CHAIN_ID, transport: chainTransport([NO_NODE]), contracts: namedContracts(2), tokens, confirmations: 1 }, ...others],
  });
}
