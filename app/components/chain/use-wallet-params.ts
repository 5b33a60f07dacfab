import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import { useWallet } from "~/wallet/wallet-provider";

/**
 * Keeps `?account=` in step with the connected wallet, so the loader reads the member's own
 * numbers (minted, bought, balances), and follows the wallet to its network (`?chain=`) when the
 * wallet moves there, or when it connects to a page that names no network. A network the member
 * picked on the page while the wallet stays where it is is kept.
 */
export function useWalletParams({ account, chainId, chainIds }: { account: string | null; chainId: number; chainIds: number[] }) {
  const wallet = useWallet();
  const [params, setParams] = useSearchParams();
  const named = params.has("chain");
  // The wallet's last network seen on this page (none before it connects).
  const seenChain = useRef<number | null>(null);
  useEffect(() => {
    const moved = wallet.chainId !== null && wallet.chainId !== seenChain.current && (seenChain.current !== null || !named);
    if (wallet.chainId !== null) seenChain.current = wallet.chainId;
    const wantAccount = wallet.address && wallet.address.toLowerCase() !== (account ?? "").toLowerCase() ? wallet.address : null;
    const wantChain = moved && wallet.chainId && wallet.chainId !== chainId && chainIds.includes(wallet.chainId) ? wallet.chainId : null;
    if (!wantAccount && !wantChain) return;
    setParams(
      (next) => {
        if (wantAccount) next.set("account", wantAccount);
        if (wantChain) next.set("chain", String(wantChain));
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [wallet.address, wallet.chainId, account, chainId, chainIds, named, setParams]);
}
