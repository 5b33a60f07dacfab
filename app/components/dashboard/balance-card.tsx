import { Landmark } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatAmount } from "~/lib/token-amounts";
import { route } from "~/lib/routes";

type Balance = { asset: string; symbol: string; chainName: string; available: string; held: string };

/** The member's Questline balance per asset, with the way to deposit and withdraw. */
export function BalanceCard({ balances }: { balances: Balance[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Balance</CardTitle>
        <CardDescription>Tokens you hold inside Questline.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {balances.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing yet: deposit tokens from your wallet to hold them here.</p>
        ) : (
          <dl className="grid gap-2">
            {balances.map((b) => (
              <div key={b.asset} className="flex items-baseline justify-between gap-3">
                <dt className="text-sm text-muted-foreground">{b.chainName}</dt>
                <dd className="text-right font-semibold tabular-nums" data-balance={b.asset}>
                  {formatAmount(BigInt(b.available))} {b.symbol}
                  {BigInt(b.held) > 0n && <span className="block text-xs font-normal text-muted-foreground">{formatAmount(BigInt(b.held))} held</span>}
                </dd>
              </div>
            ))}
          </dl>
        )}
        <Button asChild variant="outline" className="justify-self-start">
          <Link to={route("balance")}>
            <Landmark aria-hidden /> Deposit or withdraw
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
