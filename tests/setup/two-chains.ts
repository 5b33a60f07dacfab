import { toHex, type Hex } from "viem";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { chainTransport } from "~/wallet/chain-config";
import { localRegistry } from "./local-registry.ts";
import { rpc, vaultOnChain, type VaultOnChain } from "./withdrawal-chain.ts";

/** The two local chains the tests run Questline on at once: the trial's own and the second one. */
export const CHAIN_IDS = [LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID] as const;
export type TestChainId = (typeof CHAIN_IDS)[number];

/** One of the two chains: its anvil and Questline's contracts there, with a funded vault (`vaultOnChain`). */
export type ChainUnderTest = { chainId: TestChainId; node: LocalChain; vault: VaultOnChain };

/**
 * Two anvils (chain ids 31337 and 31338), each with Questline's contracts deployed (dev account 9
 * the operator) and its vault funded, and the registry a server on both would build. The second
 * chain's contracts are deployed at other addresses than the first's (its deployer starts at
 * another nonce), so that a read of the wrong chain finds no contract rather than the twin.
 */
export async function startTwoChains() {
  const nodes = await Promise.all(CHAIN_IDS.map((chainId) => startLocalChain({ chainId })));
  let vaults: VaultOnChain[];
  try {
    await rpc(nodes[1]!.url, "anvil_setNonce", [DEV_ADDRESSES[0], toHex(100)]);
    vaults = await Promise.all(nodes.map((node) => vaultOnChain(node.url)));
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw error;
  }
  const chains: ChainUnderTest[] = CHAIN_IDS.map((chainId, i) => ({ chainId, node: nodes[i]!, vault: vaults[i]! }));
  const [first, second] = chains as [ChainUnderTest, ChainUnderTest];
  return {
    chains,
    /** The chain with this id. */
    of: (chainId: number): ChainUnderTest => {
      const chain = chains.find((candidate) => candidate.chainId === chainId);
      if (!chain) throw new Error(`no test chain ${chainId}`);
      return chain;
    },
    /**
     * The registry of a server on both chains (the same builder as the server's): each chain with its
     * contracts and `confirmations`, reached at its node or at the URL `urls` gives for it (a proxy).
     */
    registry: ({ urls = {}, confirmations = 1 }: { urls?: Partial<Record<TestChainId, string>>; confirmations?: number } = {}): ChainRegistry =>
      localRegistry({
        url: urls[LOCAL_CHAIN_ID] ?? first.node.url,
        contracts: first.vault.addresses,
        confirmations,
        others: [
          {
            id: SECOND_LOCAL_CHAIN_ID,
            transport: chainTransport([urls[SECOND_LOCAL_CHAIN_ID] ?? second.node.url]),
            contracts: second.vault.addresses,
            confirmations,
          },
        ],
      }),
    /** Each chain's state now, to go back to with `revert` (e.g. before each run of a property). */
    snapshot: async () => new Map(await Promise.all(chains.map(async (chain) => [chain.chainId, await rpc<Hex>(chain.node.url, "evm_snapshot")] as const))),
    revert: (snapshots: Map<number, Hex>) => Promise.all(chains.map((chain) => rpc(chain.node.url, "evm_revert", [snapshots.get(chain.chainId)]))),
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

export type TwoChains = Awaited<ReturnType<typeof startTwoChains>>;
