import type { Hex, Transport } from "viem";
import { createLogger } from "~/lib/logger.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
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
    chains: [{ id: LOCAL_CHAIN_ID, transport, contracts, tokens, confirmations, operatorKey, webSocket }, ...others],
    logger: createLogger("silent"),
  });
}
