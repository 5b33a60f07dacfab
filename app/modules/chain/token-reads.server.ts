import { createPublicClient, getAddress, isAddress, type Address, type Transport } from "viem";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { tokenSaleAbi } from "#contracts/generated/token-sale";
import type { Services } from "~/services/services.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { CHAIN_NAMES, NATIVE_SYMBOLS } from "~/wallet/chains";
import { rememberedWallet } from "~/wallet/remembered-wallet";
import type { ContractAddresses } from "./contract-addresses.server";
import type { SaleReading, TokenScreen } from "./token-screens";

/** The chain a token screen shows: `?chain=` when Questline has contracts there, else the local chain, else the first one. */
function pickChain(services: Pick<Services, "contracts" | "chains">, requested: string | null) {
  const usable = [...services.contracts.keys()].filter((id) => services.chains.transportFor(id));
  const wanted = Number(requested);
  const chainId = usable.includes(wanted) ? wanted : usable.includes(LOCAL_CHAIN_ID) ? LOCAL_CHAIN_ID : usable[0];
  if (chainId === undefined) return null;
  return {
    chainId,
    chainName: CHAIN_NAMES[chainId] ?? `chain ${chainId}`,
    coin: NATIVE_SYMBOLS[chainId] ?? "ETH",
    contracts: services.contracts.get(chainId)!,
    transport: services.chains.transportFor(chainId)!,
    chainIds: usable,
  };
}

/**
 * A token screen's loader (Mint, Token sale, Balance): the network to show (`?chain=`, else the
 * remembered wallet's, else the local chain, else the first with our contracts), then `read` on
 * it for `?account=`, else the remembered wallet (so the first paint shows the member's own
 * figures). No network with our contracts and a node that does not answer are states the page
 * shows, not errors.
 */
export async function loadTokenScreen<T>(
  services: Pick<Services, "contracts" | "chains" | "logger">,
  request: Request,
  read: (input: { transport: Transport; contracts: ContractAddresses; account: Address | null }) => Promise<T>,
): Promise<TokenScreen<T>> {
  const url = new URL(request.url);
  const remembered = rememberedWallet(request.headers.get("cookie"));
  const chain = pickChain(services, url.searchParams.get("chain") ?? (remembered ? String(remembered.chainId) : null));
  if (!chain) return { ok: false as const, reason: "none" as const };
  const head = { chainId: chain.chainId, chainName: chain.chainName, coin: chain.coin, chainIds: chain.chainIds };
  try {
    const facts = await read({
      transport: chain.transport,
      contracts: chain.contracts,
      account: accountParam(url.searchParams.get("account") ?? remembered?.address ?? null),
    });
    return { ok: true as const, ...head, facts };
  } catch (error) {
    services.logger.warn({ err: error, chainId: chain.chainId, screen: url.pathname }, "token screen: the node did not answer");
    return { ok: false as const, reason: "node" as const, ...head };
  }
}

/** `?account=` as a checksummed address, or null. */
function accountParam(value: string | null): Address | null {
  return value && isAddress(value) ? getAddress(value) : null;
}

const client = (transport: Transport) => createPublicClient({ transport });

/** Bigints travel as decimal strings. */
const s = (value: bigint) => value.toString();

export async function readMint({ transport, contracts, account }: { transport: Transport; contracts: ContractAddresses; account: Address | null }) {
  const c = client(transport);
  const token = { address: contracts.QuestToken, abi: questTokenAbi } as const;
  const [symbol, open, price, walletCap, totalSupply, cap] = await Promise.all([
    c.readContract({ ...token, functionName: "symbol" }),
    c.readContract({ ...token, functionName: "publicMintOpen" }),
    c.readContract({ ...token, functionName: "publicMintPrice" }),
    c.readContract({ ...token, functionName: "publicMintWalletCap" }),
    c.readContract({ ...token, functionName: "totalSupply" }),
    c.readContract({ ...token, functionName: "cap" }),
  ]);
  const member = account
    ? await Promise.all([
        c.readContract({ ...token, functionName: "publicMinted", args: [account] }),
        c.readContract({ ...token, functionName: "balanceOf", args: [account] }),
        c.getBalance({ address: account }),
      ]).then(([minted, balance, native]) => ({ address: account, minted: s(minted), balance: s(balance), native: s(native) }))
    : null;
  return { token: contracts.QuestToken, symbol, open, price: s(price), walletCap: s(walletCap), totalSupply: s(totalSupply), cap: s(cap), member };
}

export async function readSale({
  transport,
  contracts,
  account,
}: {
  transport: Transport;
  contracts: ContractAddresses;
  account: Address | null;
}): Promise<SaleReading> {
  const c = client(transport);
  const sale = { address: contracts.TokenSale, abi: tokenSaleAbi } as const;
  const [symbol, price, startTime, endTime, hardCap, walletCap, sold, block] = await Promise.all([
    c.readContract({ address: contracts.QuestToken, abi: questTokenAbi, functionName: "symbol" }),
    c.readContract({ ...sale, functionName: "price" }),
    c.readContract({ ...sale, functionName: "startTime" }),
    c.readContract({ ...sale, functionName: "endTime" }),
    c.readContract({ ...sale, functionName: "hardCap" }),
    c.readContract({ ...sale, functionName: "walletCap" }),
    c.readContract({ ...sale, functionName: "sold" }),
    c.getBlock({ blockTag: "latest" }),
  ]);
  const member = account
    ? await Promise.all([
        c.readContract({ ...sale, functionName: "bought", args: [account] }),
        c.readContract({ address: contracts.QuestToken, abi: questTokenAbi, functionName: "balanceOf", args: [account] }),
        c.getBalance({ address: account }),
      ]).then(([bought, balance, native]) => ({ address: account, bought: s(bought), balance: s(balance), native: s(native) }))
    : null;
  return {
    sale: contracts.TokenSale,
    symbol,
    price: s(price),
    startTime: Number(startTime),
    endTime: Number(endTime),
    hardCap: s(hardCap),
    walletCap: s(walletCap),
    sold: s(sold),
    chainTime: Number(block.timestamp),
    member,
  };
}

/** The Balance screen's chain facts: the token, the vault, and the connected wallet's token balance and allowance for the vault. */
export async function readVault({ transport, contracts, account }: { transport: Transport; contracts: ContractAddresses; account: Address | null }) {
  const c = client(transport);
  const token = { address: contracts.QuestToken, abi: questTokenAbi } as const;
  const symbol = await c.readContract({ ...token, functionName: "symbol" });
  const member = account
    ? await Promise.all([
        c.readContract({ ...token, functionName: "balanceOf", args: [account] }),
        c.readContract({ ...token, functionName: "allowance", args: [account, contracts.DepositVault] }),
      ]).then(([balance, allowance]) => ({ address: account, balance: s(balance), allowance: s(allowance) }))
    : null;
  return { token: contracts.QuestToken, vault: contracts.DepositVault, symbol, member };
}
