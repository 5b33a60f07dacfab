import { Wallet } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { useWallet } from "~/wallet/wallet-provider";

/** Opens the wallet modal; connecting a wallet asks it to sign the sign-in message. */
export function WalletSignInButton({ onOpen }: { onOpen?: () => void }) {
  const wallet = useWallet();
  const [opening, setOpening] = useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      pending={opening}
      onClick={async () => {
        setOpening(true);
        onOpen?.();
        try {
          await wallet.open("Connect");
        } finally {
          setOpening(false);
        }
      }}
    >
      <Wallet aria-hidden /> Continue with a wallet
    </Button>
  );
}
