import { useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { CHAIN_NAMES } from "~/wallet/chains";
import { useWallet } from "~/wallet/wallet-provider";

/** Asks the wallet to move to a network (adding it if it lacks it) and says how it went in a toast. */
export function useNetworkSwitch() {
  const wallet = useWallet();
  const [switching, setSwitching] = useState(false);
  const switchTo = async (chainId: number) => {
    setSwitching(true);
    try {
      await wallet.switchChain(chainId);
      toast.success(`Switched to ${CHAIN_NAMES[chainId] ?? `chain ${chainId}`}`);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The wallet could not switch network.");
    } finally {
      setSwitching(false);
    }
  };
  return { switching, switchTo };
}

/** "Switch to Questline Local": one network, the one a page needs. */
export function SwitchNetworkButton({ chainId, variant = "ghost" }: { chainId: number; variant?: "ghost" | "outline" | "brand" }) {
  const wallet = useWallet();
  const { switching, switchTo } = useNetworkSwitch();
  return (
    <Button type="button" variant={variant} pending={switching} disabled={wallet.chainId === chainId} onClick={() => void switchTo(chainId)}>
      Switch to {CHAIN_NAMES[chainId] ?? `chain ${chainId}`}
    </Button>
  );
}
