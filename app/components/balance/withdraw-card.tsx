import { ArrowUpFromLine, PauseCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { toast } from "~/components/ui/toaster";
import type { BalanceActionData, BalancePage } from "~/modules/balance/balance-page";
import { formatAmount } from "~/lib/token-amounts";
import { route } from "~/lib/routes";

type Props = { balance: BalancePage["balances"][number]; limits: BalancePage["limits"]; destinations: string[]; paused: boolean };

/**
 * Withdraw: an amount of the chosen (chain, token) asset to one of the member's linked wallets; it
 * is held at once and paid by the platform's job. The limits come in that token's own units.
 */
export function WithdrawCard({ balance, limits, destinations, paused }: Props) {
  const fetcher = useFetcher<BalanceActionData>();
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const [amount, setAmount] = useState("");
  const result = fetcher.state === "idle" && fetcher.data?.intent === "withdraw" ? fetcher.data : undefined;
  const errors = result && !result.ok ? result.errors : {};
  // A new form (fresh request key, empty amount) once a request went through.
  const [handled, setHandled] = useState<string | null>(null);
  if (result?.ok && result.id !== handled) {
    setHandled(result.id);
    setRequestKey(crypto.randomUUID());
    setAmount("");
  }
  useEffect(() => {
    if (result?.ok) toast.success(paused ? "Withdrawal requested: it waits until withdrawals resume." : "Withdrawal requested: it is on its way.");
  }, [result, paused]);
  const symbol = balance.symbol;
  const fee = BigInt(limits.fee);
  const inToken = (units: string | bigint) => `${formatAmount(BigInt(units), { decimals: balance.decimals, maxFraction: balance.decimals })} ${symbol}`;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Withdraw</CardTitle>
        <CardDescription>
          From your balance to one of your wallets on {balance.chainName}. Available: {formatAmount(BigInt(balance.available), { decimals: balance.decimals })}{" "}
          {symbol}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {paused && (
          <p role="status" className="flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm">
            <PauseCircle className="mt-0.5 size-4 shrink-0" aria-hidden /> Withdrawals are paused by the operators. Requests wait and go out when they resume.
          </p>
        )}
        {destinations.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Link a wallet first: withdrawals go only to wallets you have signed in with. Use the wallet button at the top of the page, then sign with it; your
            linked wallets are listed in{" "}
            <Link className="underline underline-offset-2" to={route("settings.profile")}>
              your profile
            </Link>
            .
          </p>
        ) : (
          <fetcher.Form method="post" noValidate className="grid gap-4">
            <input type="hidden" name="intent" value="withdraw" />
            <input type="hidden" name="asset" value={balance.asset} />
            <input type="hidden" name="requestKey" value={requestKey} />
            <FormError message={errors.form} />
            <Field
              id="withdraw-amount"
              label={`Withdrawal amount (${symbol})`}
              error={errors.amount}
              hint={`At least ${inToken(limits.minimum)}; up to ${inToken(limits.dailyLimit)} a day.${fee > 0n ? ` A fee of ${inToken(fee)} is taken from it.` : ""}`}
            >
              <Input
                {...fieldProps("withdraw-amount", errors.amount)}
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                placeholder="50"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
              />
            </Field>
            <Field id="withdraw-destination" label="To wallet" error={errors.destination}>
              <Select {...fieldProps("withdraw-destination", errors.destination)} name="destination" defaultValue={destinations[0]}>
                {destinations.map((address) => (
                  <option key={address} value={address}>
                    {address}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit" variant="brand" className="justify-self-start" pending={fetcher.state !== "idle"}>
              <ArrowUpFromLine aria-hidden /> Withdraw
            </Button>
          </fetcher.Form>
        )}
      </CardContent>
    </Card>
  );
}
