import { useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { CHAIN_NAMES } from "~/wallet/chains";
import { useWallet } from "~/wallet/wallet-provider";

/** "Switch to BNB Smart Chain" / "Switch to Sepolia": asks the wallet (adding the network if it lacks it) and says how it went. */
export function SwitchNetworkButton({ chainId, variant = "ghost" }: { chainId: number; variant?: "ghost" | "outline" | "brand" }) {
  const wallet = useWallet();
  const [switching, setSwitching] = useState(false);
  const name = CHAIN_NAMES[chainId] ?? `chain ${chainId}`;

  const switchTo = async () => {
    setSwitching(true);
    try {
      await wallet.switchChain(chainId);
      toast.success(`Switched to ${name}`);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The wallet could not switch network.");
    } finally {
      setSwitching(false);
    }
  };

  return (
    <Button type="button" variant={variant} pending={switching} disabled={wallet.chainId === chainId} onClick={() => void switchTo()}>
      Switch to {name}
    </Button>
  );
}
