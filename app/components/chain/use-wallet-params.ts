import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { useWallet } from "~/wallet/wallet-provider";

/**
 * Keeps `?account=` and `?chain=` in step with the connected wallet, so the loader reads the
 * member's own numbers (minted, bought, balances) on the wallet's network.
 */
export function useWalletParams({ account, chainId, chainIds }: { account: string | null; chainId: number; chainIds: number[] }) {
  const wallet = useWallet();
  const [, setParams] = useSearchParams();
  useEffect(() => {
    const wantAccount = wallet.address && wallet.address.toLowerCase() !== (account ?? "").toLowerCase() ? wallet.address : null;
    const wantChain = wallet.chainId && wallet.chainId !== chainId && chainIds.includes(wallet.chainId) ? wallet.chainId : null;
    if (!wantAccount && !wantChain) return;
    setParams(
      (params) => {
        if (wantAccount) params.set("account", wantAccount);
        if (wantChain) params.set("chain", String(wantChain));
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [wallet.address, wallet.chainId, account, chainId, chainIds, setParams]);
}
