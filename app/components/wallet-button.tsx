import { Wallet } from "lucide-react";
import { Button } from "~/components/ui/button";
import { shortAddress } from "~/wallet/chains";
import { useWallet } from "~/wallet/wallet-provider";

/** The header's wallet entry: "Connect wallet", or the connected address opening the account view. */
export function WalletButton() {
  const wallet = useWallet();
  const address = shortAddress(wallet.address);
  return (
    <Button
      variant="outline"
      size="sm"
      // A remembered wallet shows its address from the first paint while the wallet stack loads.
      pending={wallet.status === "loading" && !address}
      onClick={() => void wallet.open(address ? "Account" : "Connect")}
      aria-label={address ? `Wallet ${address}` : "Connect wallet"}
    >
      <Wallet aria-hidden />
      <span className="hidden sm:inline">{address ?? "Connect wallet"}</span>
    </Button>
  );
}
