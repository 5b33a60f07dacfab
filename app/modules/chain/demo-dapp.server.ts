import { getAddress, isAddress, type Address } from "viem";
import { demoCollectionAbi } from "#contracts/generated/demo-collection";
import { demoItemsAbi } from "#contracts/generated/demo-items";
import { demoSwapAbi } from "#contracts/generated/demo-swap";
import { questTokenAbi } from "#contracts/generated/quest-token";
import type { Services } from "~/services/services.server";
import { NATIVE_SYMBOLS } from "~/wallet/chains";
import { rememberedWallet } from "~/wallet/remembered-wallet";
import type { RegisteredChain } from "./chain-registry.server";
import type { DemoChainReading, DemoToken } from "./demo-dapp";

/** The local chains with demo contracts (none on a server without local chains). */
export const demoChains = (services: Pick<Services, "chains">) => services.chains.list.flatMap((chain) => (chain.demo ? [{ ...chain, demo: chain.demo }] : []));

/**
 * The Demo dApp page's facts on every local chain with demo contracts, for `?account=` or else the
 * remembered wallet. A node that does not answer is that chain's state, said on the page.
 */
export async function loadDemoDapp(services: Pick<Services, "chains" | "logger">, request: Request): Promise<DemoChainReading[]> {
  const url = new URL(request.url);
  const asked = url.searchParams.get("account") ?? rememberedWallet(request.headers.get("cookie"))?.address ?? null;
  const account = asked && isAddress(asked) ? getAddress(asked) : null;
  return Promise.all(
    demoChains(services).map(async (chain) => {
      try {
        return await readDemoChain(chain, account);
      } catch (error) {
        services.logger.warn({ err: error, chainId: chain.id }, "demo dApp: the node did not answer");
        return { ok: false as const, chainId: chain.id, chainName: chain.name };
      }
    }),
  );
}

const s = (value: bigint) => value.toString();

async function readDemoChain(chain: RegisteredChain & { demo: NonNullable<RegisteredChain["demo"]> }, account: Address | null): Promise<DemoChainReading> {
  const c = chain.pageClient;
  const { DemoCollection: collection, DemoItems: items, DemoSwap: swap } = chain.demo;
  const [tokenA, tokenB, rate] = await Promise.all([
    c.readContract({ address: swap, abi: demoSwapAbi, functionName: "tokenA" }),
    c.readContract({ address: swap, abi: demoSwapAbi, functionName: "tokenB" }),
    c.readContract({ address: swap, abi: demoSwapAbi, functionName: "rate" }),
  ]);
  // Both are ERC-20s: QuestToken's functions read here are the standard's.
  const erc20 = (address: Address) => ({ address, abi: questTokenAbi }) as const;
  const token = async (address: Address): Promise<DemoToken> => {
    const [symbol, decimals] = await Promise.all([
      c.readContract({ ...erc20(address), functionName: "symbol" }),
      c.readContract({ ...erc20(address), functionName: "decimals" }),
    ]);
    return { address, symbol, decimals };
  };
  const [a, b, reserveA, reserveB, block, member] = await Promise.all([
    token(tokenA),
    token(tokenB),
    c.readContract({ ...erc20(tokenA), functionName: "balanceOf", args: [swap] }),
    c.readContract({ ...erc20(tokenB), functionName: "balanceOf", args: [swap] }),
    c.getBlock({ blockTag: "latest" }),
    account
      ? Promise.all([
          c.readContract({ address: collection, abi: demoCollectionAbi, functionName: "balanceOf", args: [account] }),
          c.readContract({
            address: items,
            abi: demoItemsAbi,
            functionName: "balanceOfBatch",
            args: [
              [account, account, account],
              [1n, 2n, 3n],
            ],
          }),
          c.readContract({ ...erc20(tokenA), functionName: "balanceOf", args: [account] }),
          c.readContract({ ...erc20(tokenB), functionName: "balanceOf", args: [account] }),
          c.readContract({ ...erc20(tokenA), functionName: "allowance", args: [account, swap] }),
          c.readContract({ ...erc20(tokenB), functionName: "allowance", args: [account, swap] }),
        ]).then(([explorers, held, balanceA, balanceB, allowanceA, allowanceB]) => ({
          address: account,
          explorers: s(explorers),
          items: [s(held[0]!), s(held[1]!), s(held[2]!)] as [string, string, string],
          a: s(balanceA),
          b: s(balanceB),
          allowanceA: s(allowanceA),
          allowanceB: s(allowanceB),
        }))
      : null,
  ]);
  return {
    ok: true,
    chainId: chain.id,
    chainName: chain.name,
    coin: NATIVE_SYMBOLS[chain.id] ?? "ETH",
    collection,
    items,
    swap,
    tokenA: a,
    tokenB: b,
    rate: s(rate),
    reserves: { a: s(reserveA), b: s(reserveB) },
    chainTime: Number(block.timestamp),
    member,
  };
}
