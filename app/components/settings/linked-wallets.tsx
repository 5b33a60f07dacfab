import { Star, Wallet } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { NetworkPicker } from "~/components/wallet/network-picker";
import { CHAIN_NAMES, shortAddress } from "~/wallet/chains";
import { useWallet } from "~/wallet/wallet-provider";

export type LinkedWalletView = { address: string; chainIds: number[]; isPrimary: boolean };

/** Settings › Profile: the member's wallets, linking a new one, unlinking, and the network helpers. */
export function LinkedWallets({ wallets, error }: { wallets: LinkedWalletView[]; error?: string }) {
  const wallet = useWallet();
  const navigation = useNavigation();
  const unlinking = navigation.state === "submitting" && navigation.formData?.get("intent") === "unlink-wallet";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Wallets</CardTitle>
        <CardDescription>Sign in with any linked wallet. Each network asks for its own signature once.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {wallets.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">No wallet linked yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Linked wallets">
            {wallets.map((w) => (
              <li key={w.address} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3">
                <div className="flex min-w-0 items-center gap-3">
                  <Wallet className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <div className="min-w-0">
                    <p className="flex items-center gap-2 font-mono text-sm" title={w.address}>
                      {shortAddress(w.address)}
                      {w.isPrimary && (
                        <span className="inline-flex items-center gap-1 rounded-full bg-brand px-2 py-0.5 font-sans text-xs font-medium text-brand-foreground">
                          <Star className="size-3" aria-hidden /> Primary
                        </span>
                      )}
                    </p>
                    <p className="text-xs text-muted-foreground">{w.chainIds.map((id) => CHAIN_NAMES[id] ?? `Chain ${id}`).join(", ")}</p>
                  </div>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="unlink-wallet" />
                  <input type="hidden" name="address" value={w.address} />
                  <Button type="submit" variant="outline" size="sm" pending={unlinking && navigation.formData?.get("address") === w.address}>
                    Unlink
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" pending={wallet.status === "loading"} onClick={() => void wallet.open("Connect")}>
            <Wallet aria-hidden /> Link a wallet
          </Button>
        </div>
        {wallet.address && <NetworkPicker />}
      </CardContent>
    </Card>
  );
}
