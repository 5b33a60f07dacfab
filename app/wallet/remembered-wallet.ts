/**
 * The wallet connection the browser remembers, in a cookie the server reads too, so that the
 * first paint already shows the connected wallet (the header's address, the member's own figures
 * on Balance, Mint and Token sale) instead of "Connect wallet" until the wallet stack has loaded.
 * It holds only a public address and a network; the wallet stack remains the truth once loaded.
 */
export const REMEMBERED_WALLET_COOKIE = "wallet";

export type RememberedWallet = { address: `0x${string}`; chainId: number };

const VALUE = /^(0x[0-9a-fA-F]{40}):(\d{1,12})$/;

/** The remembered wallet from a Cookie header, or null. */
export function rememberedWallet(cookieHeader: string | null): RememberedWallet | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== REMEMBERED_WALLET_COOKIE) continue;
    const match = VALUE.exec(decodeURIComponent(rest.join("=")));
    return match ? { address: match[1] as `0x${string}`, chainId: Number(match[2]) } : null;
  }
  return null;
}

/** Remembers (or, with null, forgets) the connected wallet for the next page load. */
export function rememberWallet(wallet: RememberedWallet | null) {
  document.cookie = wallet
    ? `${REMEMBERED_WALLET_COOKIE}=${wallet.address}:${wallet.chainId}; Path=/; Max-Age=31536000; SameSite=Lax`
    : `${REMEMBERED_WALLET_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}
