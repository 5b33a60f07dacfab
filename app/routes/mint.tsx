import { Coins } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import type { Route } from "./+types/mint";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { AmountField } from "~/components/chain/amount-field";
import { TxProgress } from "~/components/chain/tx-progress";
import { useContractTx } from "~/components/chain/use-contract-tx";
import { useWalletParams } from "~/components/chain/use-wallet-params";
import { NetworkSwitches, Stat, TokenScreenUnavailable, WalletGate } from "~/components/chain/wallet-gate";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toaster";
import { pageTitle } from "~/lib/meta";
import { failureMessage } from "~/lib/result";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { checkAmount, costOf, formatAmount, parseAmount } from "~/lib/token-amounts";
import { mintRefusal } from "~/modules/chain/checks";
import { isBusy } from "~/modules/chain/tx-machine";
import { loadTokenScreen, readMint } from "~/modules/chain/token-reads.server";
import { useWallet } from "~/wallet/wallet-provider";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Mint") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  return loadTokenScreen(context.get(servicesContext), request, readMint);
}

/** Mint: buy the token at the public mint's fixed price, up to the per-wallet cap. */
export default function Mint({ loaderData }: Route.ComponentProps) {
  return (
    <div className="grid gap-6">
      <PageHeader title="Mint" description="Mint Questline's token at a fixed price, straight to your wallet." />
      {loaderData.ok ? <MintScreen data={loaderData} /> : <TokenScreenUnavailable state={loaderData} icon={Coins} what="mint" />}
    </div>
  );
}

type MintData = Extract<Route.ComponentProps["loaderData"], { ok: true }>;

function MintScreen({ data }: { data: MintData }) {
  const { facts: mint, coin, chainId } = data;
  const wallet = useWallet();
  const revalidator = useRevalidator();
  useWalletParams({ account: mint.member?.address ?? null, chainId, chainIds: data.chainIds });
  const price = BigInt(mint.price);
  const walletCap = BigInt(mint.walletCap);
  const member = mint.member && wallet.address?.toLowerCase() === mint.member.address.toLowerCase() ? mint.member : null;
  const minted = member ? BigInt(member.minted) : null;

  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | undefined>();
  const tx = useContractTx({
    storageKey: `questline.tx.mint.${chainId}`,
    onSettled: (confirmed, label) => {
      if (confirmed) toast.success(`${label}: confirmed`);
      void revalidator.revalidate();
    },
  });
  const parsed = parseAmount(amount);
  const cost = parsed !== null && parsed > 0n ? costOf(parsed, price) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkAmount(amount);
    if (!checked.ok) return setError(failureMessage(checked));
    if (!member) return setError("Your wallet's numbers are still loading: try again in a moment.");
    const refusal = mintRefusal(checked.units, {
      open: mint.open,
      price,
      walletCap,
      minted: BigInt(member.minted),
      native: BigInt(member.native),
      token: mint.symbol,
      coin,
    });
    if (refusal) return setError(refusal);
    setError(undefined);
    void tx.send(
      {
        chainId,
        address: mint.token as `0x${string}`,
        abi: questTokenAbi,
        functionName: "publicMint",
        args: [checked.units],
        value: costOf(checked.units, price),
        context: { token: mint.symbol, coin },
      },
      `Mint ${formatAmount(checked.units)} ${mint.symbol}`,
    );
  };

  return (
    <>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Price" value={`${formatAmount(price, { maxFraction: 8 })} ${coin}`} hint={`per ${mint.symbol}`} />
        <Stat label="Per-wallet cap" value={`${formatAmount(walletCap)} ${mint.symbol}`} />
        <Stat
          label="Already minted"
          value={minted !== null ? `${formatAmount(minted)} ${mint.symbol}` : "—"}
          hint={minted !== null ? `${formatAmount(walletCap > minted ? walletCap - minted : 0n)} left for this wallet` : "Connect your wallet to see"}
        />
        <Stat
          label="Your balance"
          value={member ? `${formatAmount(BigInt(member.balance))} ${mint.symbol}` : "—"}
          hint={member ? `${formatAmount(BigInt(member.native), { maxFraction: 4 })} ${coin}` : undefined}
        />
      </dl>
      <Card>
        <CardHeader>
          <CardTitle>Mint {mint.symbol}</CardTitle>
          <CardDescription>
            On {data.chainName}. {mint.open ? "The public mint is open." : "The public mint is closed right now."}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <WalletGate chainId={chainId} action="mint">
            <form noValidate onSubmit={submit} className="grid max-w-md gap-4">
              <AmountField
                id="amount"
                label={`Amount (${mint.symbol})`}
                error={error}
                hint={cost !== null ? `Costs ${formatAmount(cost, { maxFraction: 8 })} ${coin}, plus the network fee.` : "How many tokens to mint."}
                placeholder="100"
                value={amount}
                onChange={(value) => {
                  setAmount(value);
                  setError(undefined);
                }}
              />
              <Button type="submit" variant="brand" className="justify-self-start" pending={isBusy(tx.state)} disabled={!mint.open}>
                <Coins aria-hidden /> Mint
              </Button>
            </form>
          </WalletGate>
          <TxProgress state={tx.state} label={tx.label} onReset={tx.reset} />
        </CardContent>
      </Card>
      <section className="grid gap-2" aria-label="Networks">
        <p className="text-sm text-muted-foreground">Other networks</p>
        <NetworkSwitches chainId={chainId} />
      </section>
    </>
  );
}
