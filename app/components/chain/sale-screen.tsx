import { ShoppingCart } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { tokenSaleAbi } from "#contracts/generated/token-sale";
import { AmountField } from "~/components/chain/amount-field";
import { TxProgress } from "~/components/chain/tx-progress";
import { useContractTx } from "~/components/chain/use-contract-tx";
import { useWalletParams } from "~/components/chain/use-wallet-params";
import { NetworkSwitches, Stat, WalletGate } from "~/components/chain/wallet-gate";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/components/ui/toaster";
import { failureMessage } from "~/lib/result";
import { checkAmount, costOf, formatAmount, parseAmount, tokensFor } from "~/lib/token-amounts";
import { countdown, salePhase, saleRefusal, type SaleFacts } from "~/modules/chain/checks";
import type { SaleReading, TokenScreen } from "~/modules/chain/token-screens";
import { isBusy } from "~/modules/chain/tx-machine";
import { useWallet } from "~/wallet/wallet-provider";

export type SaleData = Extract<TokenScreen<SaleReading>, { ok: true }>;

/** The chain's clock, ticking: starts at the loader's block time (same text on server and client), then follows our clock. */
function useChainClock(chainTime: number) {
  const [clock, setClock] = useState({ base: chainTime, now: chainTime });
  useEffect(() => {
    const offset = chainTime - Math.floor(Date.now() / 1000);
    const timer = setInterval(() => setClock({ base: chainTime, now: Math.floor(Date.now() / 1000) + offset }), 1000);
    return () => clearInterval(timer);
  }, [chainTime]);
  return clock.base === chainTime ? clock.now : chainTime;
}

/** The sale's figures, the member's own, and the Buy dialog. */
export function SaleScreen({ data }: { data: SaleData }) {
  const { facts: sale, coin, chainId } = data;
  const wallet = useWallet();
  const revalidator = useRevalidator();
  useWalletParams({ account: sale.member?.address ?? null, chainId, chainIds: data.chainIds });
  const now = useChainClock(sale.chainTime);
  const [open, setOpen] = useState(false);
  const tx = useContractTx({
    storageKey: `questline.tx.sale.${chainId}`,
    onSettled: (confirmed, label) => {
      if (confirmed) toast.success(`${label}: confirmed`);
      void revalidator.revalidate();
    },
  });
  // The modal shows while a flow is under way or has an outcome (also one resumed after a reload);
  // closing it after the outcome starts afresh.
  const dialogOpen = open || tx.state.status !== "idle";
  const onOpenChange = (next: boolean) => {
    if (next) return setOpen(true);
    if (isBusy(tx.state)) return;
    tx.reset();
    setOpen(false);
  };

  const member = sale.member && wallet.address?.toLowerCase() === sale.member.address.toLowerCase() ? sale.member : null;
  const price = BigInt(sale.price);
  const hardCap = BigInt(sale.hardCap);
  const sold = BigInt(sale.sold);
  const walletCap = BigInt(sale.walletCap);
  const facts = { now, startTime: sale.startTime, endTime: sale.endTime, sold, hardCap };
  const phase = salePhase(facts);
  const percent = hardCap > 0n ? Number((sold * 10_000n) / hardCap) / 100 : 0;

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>{sale.symbol} sale</CardTitle>
          <CardDescription>On {data.chainName}.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <div className="flex flex-wrap justify-between gap-2 text-sm">
              <span>
                <span className="font-semibold tabular-nums">
                  {formatAmount(costOf(sold, price), { maxFraction: 4 })} {coin}
                </span>{" "}
                raised
              </span>
              <span className="text-muted-foreground tabular-nums">
                {formatAmount(sold)} / {formatAmount(hardCap)} {sale.symbol} sold
              </span>
            </div>
            <div
              role="progressbar"
              aria-label="Sold of the hard cap"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2.5 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full rounded-full bg-brand" style={{ width: `${Math.min(100, percent)}%` }} />
            </div>
            <p className="text-xs text-muted-foreground">{sold > 0n && percent < 0.01 ? "<0.01" : percent.toFixed(2)}% of the hard cap</p>
          </div>
          <p className="text-sm font-medium" data-testid="sale-phase" suppressHydrationWarning>
            {phase === "upcoming"
              ? `Starts in ${countdown(sale.startTime - now)}`
              : phase === "live"
                ? `Ends in ${countdown(sale.endTime - now)}`
                : phase === "ended"
                  ? "The sale has ended."
                  : "The sale is sold out."}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Button variant="brand" onClick={() => setOpen(true)} disabled={phase !== "live" && !isBusy(tx.state)}>
              <ShoppingCart aria-hidden /> Buy {sale.symbol}
            </Button>
          </div>
        </CardContent>
      </Card>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Price" value={`${formatAmount(price, { maxFraction: 8 })} ${coin}`} hint={`per ${sale.symbol}`} />
        <Stat label="Per-wallet cap" value={`${formatAmount(walletCap)} ${sale.symbol}`} />
        <Stat
          label="You bought"
          value={member ? `${formatAmount(BigInt(member.bought))} ${sale.symbol}` : "—"}
          hint={member ? undefined : "Connect your wallet to see"}
        />
        <Stat
          label="Your balance"
          value={member ? `${formatAmount(BigInt(member.balance))} ${sale.symbol}` : "—"}
          hint={member ? `${formatAmount(BigInt(member.native), { maxFraction: 4 })} ${coin}` : undefined}
        />
      </dl>
      <section className="grid gap-2" aria-label="Networks">
        <p className="text-sm text-muted-foreground">Other networks</p>
        <NetworkSwitches chainId={chainId} />
      </section>
      <Dialog open={dialogOpen} onOpenChange={onOpenChange}>
        <DialogContent aria-describedby="buy-description">
          <DialogTitle>Buy {sale.symbol}</DialogTitle>
          <DialogDescription id="buy-description">
            {formatAmount(price, { maxFraction: 8 })} {coin} per {sale.symbol}, on {data.chainName}.
          </DialogDescription>
          <WalletGate chainId={chainId} action="buy">
            <BuyForm
              busy={isBusy(tx.state)}
              facts={
                member
                  ? {
                      now,
                      startTime: sale.startTime,
                      endTime: sale.endTime,
                      price,
                      hardCap,
                      walletCap,
                      sold,
                      bought: BigInt(member.bought),
                      native: BigInt(member.native),
                      token: sale.symbol,
                      coin,
                    }
                  : null
              }
              onBuy={(amount) =>
                void tx.send(
                  {
                    chainId,
                    address: sale.sale as `0x${string}`,
                    abi: tokenSaleAbi,
                    functionName: "buy",
                    args: [amount],
                    value: costOf(amount, price),
                    context: { token: sale.symbol, coin },
                  },
                  `Buy ${formatAmount(amount)} ${sale.symbol}`,
                )
              }
              price={price}
              token={sale.symbol}
              coin={coin}
            />
          </WalletGate>
          <TxProgress state={tx.state} label={tx.label} onReset={tx.reset} />
        </DialogContent>
      </Dialog>
    </>
  );
}

/** Amount in the native coin or in tokens; each shows the other. */
function BuyForm({
  facts,
  price,
  token,
  coin,
  busy,
  onBuy,
}: {
  facts: SaleFacts | null;
  price: bigint;
  token: string;
  coin: string;
  busy: boolean;
  onBuy: (amount: bigint) => void;
}) {
  const [tokens, setTokens] = useState("");
  const [pay, setPay] = useState("");
  const [edited, setEdited] = useState<"tokens" | "pay">("tokens");
  const [error, setError] = useState<string | undefined>();

  const onTokens = (text: string) => {
    setTokens(text);
    setEdited("tokens");
    setError(undefined);
    const units = parseAmount(text);
    setPay(units !== null && units > 0n ? formatAmount(costOf(units, price), { maxFraction: 18, group: false }) : "");
  };
  const onPay = (text: string) => {
    setPay(text);
    setEdited("pay");
    setError(undefined);
    const wei = parseAmount(text);
    setTokens(wei !== null && wei > 0n ? formatAmount(tokensFor(wei, price), { maxFraction: 18, group: false }) : "");
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkAmount(edited === "tokens" ? tokens : pay);
    if (!checked.ok) return setError(failureMessage(checked));
    const amount = edited === "tokens" ? checked.units : tokensFor(checked.units, price);
    if (amount <= 0n) return setError(`That buys less than the smallest unit of ${token}.`);
    if (!facts) return setError("Your wallet's numbers are still loading: try again in a moment.");
    const refusal = saleRefusal(amount, facts);
    if (refusal) return setError(refusal);
    setError(undefined);
    onBuy(amount);
  };

  const errorId = edited === "tokens" ? "tokens" : "pay";
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <AmountField id="pay" label={`You pay (${coin})`} error={errorId === "pay" ? error : undefined} placeholder="0.05" value={pay} onChange={onPay} />
      <AmountField
        id="tokens"
        label={`You get (${token})`}
        error={errorId === "tokens" ? error : undefined}
        hint="Plus the network fee, paid in the native coin."
        placeholder="100"
        value={tokens}
        onChange={onTokens}
      />
      <Button type="submit" variant="brand" pending={busy}>
        <ShoppingCart aria-hidden /> Buy
      </Button>
    </form>
  );
}
