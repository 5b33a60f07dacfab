import { getAddress, isAddress, type Address, type PublicClient } from "viem";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { tokenSaleAbi } from "#contracts/generated/token-sale";
import type { Services } from "~/services/services.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { NATIVE_SYMBOLS } from "~/wallet/chains";
import { rememberedWallet } from "~/wallet/remembered-wallet";
import { QUEST_TOKEN, type ChainRegistry } from "./chain-registry.server";
import type { ContractAddresses, VaultToken } from "./contract-addresses.server";
import type { SaleReading, TokenScreen, VaultReading } from "./token-screens";

/** The chain a token screen shows: `?chain=` when Questline has contracts there, else the local chain, else the first one. */
function pickChain(chains: ChainRegistry, requested: string | null) {
  const usable = chains.list.flatMap((chain) => (chain.contracts ? [{ ...chain, contracts: chain.contracts }] : []));
  const ids = usable.map((chain) => chain.id);
  const wanted = Number(requested);
  const chainId = ids.includes(wanted) ? wanted : ids.includes(LOCAL_CHAIN_ID) ? LOCAL_CHAIN_ID : ids[0];
  const chain = usable.find((candidate) => candidate.id === chainId);
  if (!chain) return null;
  return {
    chainId: chain.id,
    chainName: chain.name,
    coin: NATIVE_SYMBOLS[chain.id] ?? "ETH",
    contracts: chain.contracts,
    tokens: chain.tokens,
    client: chain.pageClient,
    chainIds: ids,
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
  services: Pick<Services, "chains" | "logger">,
  request: Request,
  read: (input: ChainReadInput) => Promise<T>,
): Promise<TokenScreen<T>> {
  const url = new URL(request.url);
  const remembered = rememberedWallet(request.headers.get("cookie"));
  const chain = pickChain(services.chains, url.searchParams.get("chain") ?? (remembered ? String(remembered.chainId) : null));
  if (!chain) return { ok: false as const, reason: "none" as const };
  const head = { chainId: chain.chainId, chainName: chain.chainName, coin: chain.coin, chainIds: chain.chainIds };
  try {
    const facts = await read({
      client: chain.client,
      contracts: chain.contracts,
      tokens: chain.tokens,
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

/**
 * What a token screen's read gets: the registry's client for the chain shown, our contracts and
 * the vault's tokens there (QUEST first), the account asked about.
 */
type ChainReadInput = { client: PublicClient; contracts: ContractAddresses; tokens: readonly VaultToken[]; account: Address | null };

/** Bigints travel as decimal strings. */
const s = (value: bigint) => value.toString();

export async function readMint({ client: c, contracts, account }: ChainReadInput) {
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

export async function readSale({ client: c, contracts, account }: ChainReadInput): Promise<SaleReading> {
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

/**
 * A vault's chain facts (the Balance screen, a project's deposit): the token `symbol` names among
 * those the chain's vault lists (`?token=`; QUEST when it names none of them), its address and
 * decimals as listed, every listed symbol (the screen's token picker), the vault, and the
 * connected wallet's balance of that token and allowance for the vault. The token's `decimals()`
 * is read too: the node answers, and a deployment that lists other decimals than the token has
 * is not shown as if its amounts were right.
 */
export async function readVault({ client: c, contracts, tokens, account, symbol = null }: ChainReadInput & { symbol?: string | null }): Promise<VaultReading> {
  const quest = tokens.find((listed) => listed.symbol === QUEST_TOKEN.symbol) ?? { ...QUEST_TOKEN, address: contracts.QuestToken };
  const chosen = tokens.find((listed) => listed.symbol === symbol) ?? quest;
  // Every listed token is an ERC-20: QuestToken's functions read here are the standard's.
  const token = { address: chosen.address, abi: questTokenAbi } as const;
  const [decimals, member] = await Promise.all([
    c.readContract({ ...token, functionName: "decimals" }),
    account
      ? Promise.all([
          c.readContract({ ...token, functionName: "balanceOf", args: [account] }),
          c.readContract({ ...token, functionName: "allowance", args: [account, contracts.DepositVault] }),
        ]).then(([balance, allowance]) => ({ address: account, balance: s(balance), allowance: s(allowance) }))
      : null,
  ]);
  if (decimals !== chosen.decimals) {
    throw new Error(`${chosen.symbol} at ${chosen.address} has ${decimals} decimals on chain; the deployment lists ${chosen.decimals}`);
  }
  return {
    token: chosen.address,
    vault: contracts.DepositVault,
    symbol: chosen.symbol,
    decimals: chosen.decimals,
    tokens: tokens.map((listed) => listed.symbol),
    member,
  };
}
