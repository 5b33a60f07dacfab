import type { Hex, PublicClient } from "viem";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { knownChain } from "~/wallet/chains";

/**
 * A chain whose blocks seed raffles: a raffle's seed takes the hash of a block that did not exist
 * when its entrants were frozen, so nobody (the server included) knew it in advance.
 */
export type DrawChain = {
  chainId: number;
  /** Blocks the draw block must have on top of it (itself included) before it is used. */
  confirmations: number;
  /** How far past the head the draw block is set when entrants are frozen. */
  blocksAhead: number;
  head: () => Promise<bigint>;
  blockHash: (number: bigint) => Promise<Hex | null>;
  /** A local chain mines only when asked: the draw asks it for the blocks it waits for. */
  mine?: () => Promise<void>;
};
export type DrawChains = ReadonlyMap<number, DrawChain>;

/** The chain an XP raffle draws from: the local chain in the local trial, else the first chain with a node. */
export function defaultDrawChainId(chains: DrawChains): number | null {
  return chains.has(LOCAL_CHAIN_ID) ? LOCAL_CHAIN_ID : ([...chains.keys()][0] ?? null);
}

/** The chain this server's XP raffles draw from (see `defaultDrawChainId`), or null when none has a node. */
export function raffleChainIdOf(chains: Pick<ChainRegistry, "confirmedChains">): number | null {
  return defaultDrawChainId(drawChainsFrom(chains));
}

/** A draw chain read through a viem client. */
export function drawChainOf(client: PublicClient, { chainId, confirmations }: { chainId: number; confirmations: number }): DrawChain {
  const local = knownChain(chainId)?.local === true;
  return {
    chainId,
    confirmations,
    blocksAhead: local ? 1 : 5,
    head: () => client.getBlockNumber({ cacheTime: 0 }),
    blockHash: async (number) => {
      try {
        return (await client.getBlock({ blockNumber: number })).hash;
      } catch {
        return null;
      }
    },
    mine: local ? () => client.request({ method: "evm_mine" as never } as never) : undefined,
  };
}

/** Every chain of the registry with a node and a confirmation count, as draw chains. */
export function drawChainsFrom(chains: Pick<ChainRegistry, "confirmedChains">): DrawChains {
  return new Map(chains.confirmedChains().map((chain) => [chain.id, drawChainOf(chain.client, { chainId: chain.id, confirmations: chain.confirmations })]));
}
