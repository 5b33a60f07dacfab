import { createPublicClient, createWalletClient, type Chain, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { bsc, sepolia } from "viem/chains";
import { DEV_OPERATOR_PRIVATE_KEY } from "#contracts/dev-accounts";
import type { Env } from "~/services/env.server";
import type { Logger } from "~/lib/logger.server";
import type { ContractAddresses } from "~/modules/chain/contract-addresses.server";
import type { ChainAccess } from "~/modules/wallets/chain-access.server";
import { localChain } from "~/wallet/chain-config";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import type { WithdrawalChains } from "./withdrawal-chain.server";

const CHAINS: Record<number, Chain> = { [bsc.id]: bsc, [sepolia.id]: sepolia, [LOCAL_CHAIN_ID]: localChain };

/**
 * The chains withdrawals are paid on: each chain with a vault and a node. The operator signs with
 * OPERATOR_PRIVATE_KEY, or on the local chain with anvil's dev account 9 when it is unset; a chain
 * without a key gets no wallet, so its withdrawals wait (and this says so once, in the log).
 */
type ChainServices = {
  env: Pick<Env, "OPERATOR_PRIVATE_KEY" | "confirmations">;
  chains: Pick<ChainAccess, "transportFor">;
  contracts: Map<number, ContractAddresses>;
  logger: Logger;
};

/** Built once per set of services: the worker and the Balance screen's actions share the clients. */
const built = new WeakMap<ChainServices, WithdrawalChains>();

export function withdrawalChains(services: ChainServices): WithdrawalChains {
  let result = built.get(services);
  if (!result) built.set(services, (result = buildWithdrawalChains(services)));
  return result;
}

function buildWithdrawalChains({ env, chains, contracts, logger }: ChainServices): WithdrawalChains {
  const result: WithdrawalChains = new Map();
  for (const [chainId, addresses] of contracts) {
    const transport = chains.transportFor(chainId);
    const chain = CHAINS[chainId];
    // A chain without a confirmation count (CONFIRMATIONS) is not paid on, as it is not scanned.
    const confirmations = env.confirmations.get(chainId);
    if (!transport || !chain || confirmations === undefined) continue;
    const key = env.OPERATOR_PRIVATE_KEY ?? (chainId === LOCAL_CHAIN_ID ? DEV_OPERATOR_PRIVATE_KEY : null);
    if (!key) logger.warn({ chainId }, "OPERATOR_PRIVATE_KEY is not set: withdrawals on this chain wait");
    result.set(chainId, {
      publicClient: createPublicClient({ chain, transport }) as PublicClient,
      walletClient: key ? createWalletClient({ chain, transport, account: privateKeyToAccount(key as `0x${string}`) }) : null,
      vault: addresses.DepositVault,
      confirmations,
    });
  }
  return result;
}
