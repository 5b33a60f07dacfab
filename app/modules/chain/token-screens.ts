/**
 * What a token screen's loader gives its page (token-reads.server.ts builds it): the network shown
 * and its facts, or why they cannot be shown. Plain data (bigints as decimal strings), so the
 * screens' components can take it as props.
 */
export type TokenScreenHead = { chainId: number; chainName: string; coin: string; chainIds: number[] };

export type TokenScreen<T> = ({ ok: true; facts: T } & TokenScreenHead) | { ok: false; reason: "none" } | ({ ok: false; reason: "node" } & TokenScreenHead);

/** The token sale's facts, and the member's when a wallet is known. */
export type SaleReading = {
  sale: string;
  symbol: string;
  price: string;
  startTime: number;
  endTime: number;
  hardCap: string;
  walletCap: string;
  sold: string;
  /** The chain's own clock (its latest block), which may run ahead of ours (a test chain). */
  chainTime: number;
  member: { address: string; bought: string; balance: string; native: string } | null;
};

/**
 * A vault's facts for one of the tokens it takes (readVault): the token (its listed symbol and
 * decimals), the vault, every symbol the vault lists (QUEST first), and the connected wallet's
 * balance of the token and allowance for the vault, in the token's own units.
 */
export type VaultReading = {
  token: `0x${string}`;
  vault: `0x${string}`;
  symbol: string;
  decimals: number;
  tokens: string[];
  member: { address: `0x${string}`; balance: string; allowance: string } | null;
};
