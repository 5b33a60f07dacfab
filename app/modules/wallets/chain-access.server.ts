import { bsc, sepolia } from "viem/chains";
import type { Env } from "~/services/env.server";
import type { Logger } from "~/lib/logger.server";
import { chainTransport, nodeEndpoints, type ChainConfig } from "~/wallet/chain-config";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { LOCAL_PROJECT_ID } from "~/wallet/wallet-cloud";

export type ChainAccess = {
  /** The initial page props the browser gets: what it needs to reach the chains, nothing more. */
  config: ChainConfig;
  /** Chains members may sign in on. */
  chainIds: number[];
  transportFor: (chainId: number) => ReturnType<typeof chainTransport> | undefined;
};

export function createChainAccess({ env, localChainUrl, logger }: { env: Env; localChainUrl: string | null; logger: Logger }): ChainAccess {
  const config: ChainConfig = {
    rpc: localChainUrl,
    ankr: env.ANKR_KEY ?? null,
    infura: env.INFURA_KEY ?? null,
    blast: env.BLAST_KEY ?? null,
    projectId: env.REOWN_PROJECT_ID ?? LOCAL_PROJECT_ID,
  };
  const endpoints = nodeEndpoints(config, (message) => logger.warn(message));
  const transports = new Map([...endpoints].map(([chainId, urls]) => [chainId, chainTransport(urls)]));
  return {
    config,
    chainIds: [bsc.id, sepolia.id, ...(localChainUrl ? [LOCAL_CHAIN_ID] : [])],
    transportFor: (chainId) => transports.get(chainId),
  };
}
