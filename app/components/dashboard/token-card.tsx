import { ArrowLeftRight, Coins, Store } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";
import { useWallet } from "~/wallet/wallet-provider";

/** The dashboard's way to the token: the public mint, the sale, and swaps from the wallet (where the wallet service is set up). */
export function TokenCard() {
  const { cloud } = useWallet();
  return (
    <Card className="lg:col-span-1">
      <CardHeader>
        <CardTitle>Questline token</CardTitle>
        <CardDescription>
          {cloud
            ? "Mint it at a fixed price, buy it in the token sale, or swap tokens from your wallet."
            : "Mint it at a fixed price or buy it in the token sale."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button asChild variant="brand">
          <Link to={route("mint")}>
            <Coins aria-hidden /> Mint
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={route("sale")}>
            <Store aria-hidden /> Token sale
          </Link>
        </Button>
        {cloud && (
          <Button asChild variant="ghost">
            <Link to={route("swap")}>
              <ArrowLeftRight aria-hidden /> Swap
            </Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
