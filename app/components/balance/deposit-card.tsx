import { ArrowDownToLine, CreditCard } from "lucide-react";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { AmountField } from "~/components/chain/amount-field";
import { TxProgress } from "~/components/chain/tx-progress";
import { useContractTx } from "~/components/chain/use-contract-tx";
import { useWalletParams } from "~/components/chain/use-wallet-params";
import { WalletGate } from "~/components/chain/wallet-gate";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toaster";
import type { VaultChain } from "~/modules/balance/balance-page";
import { checkAmount, formatAmount } from "~/lib/token-amounts";
import { isBusy } from "~/modules/chain/tx-machine";
import { knownChain } from "~/wallet/chains";
import { failureMessage } from "~/lib/result";
import { useWallet } from "~/wallet/wallet-provider";

/** The vault's own token: deposited with `deposit`, every other listed token with `depositToken`. */
const QUEST = "QUEST";

/** The vault call that deposits: QUEST's own `deposit`, another listed token's `depositToken` (decision 056). */
type DepositCall = { token: `0x${string}`; symbol: string; decimals: number; units: bigint };

/**
 * Deposit by amount of the chosen token (`chain.facts`, in its own decimals): the wallet approves
 * the vault for the amount (when its allowance is short), then calls `DepositVault.deposit(amount,
 * reference)` for QUEST or `depositToken(token, amount, reference)` for another token the vault
 * lists; the server credits the balance after the network's confirmations. Deposit by card: the
 * wallet modal's on-ramp, where it exists.
 */
export function DepositCard({
  chain,
  depositRef,
  onSent,
  into = {
    title: "Deposit",
    description: `From your wallet on ${chain.chainName} into your Questline balance.`,
    credited: "your balance is credited",
    key: "deposit",
  },
}: {
  chain: VaultChain;
  depositRef: string;
  onSent: () => void;
  /** Where the deposit goes (a project's treasury instead of the member's balance), in words, and its transaction's storage key. */
  into?: { title: string; description: string; credited: string; key: string };
}) {
  const { facts, chainId } = chain;
  const wallet = useWallet();
  useWalletParams({ account: facts.member?.address ?? null, chainId, chainIds: chain.chainIds });
  const member = facts.member && wallet.address?.toLowerCase() === facts.member.address.toLowerCase() ? facts.member : null;
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | undefined>();
  const next = useRef<DepositCall | null>(null);
  const tx = useContractTx({
    storageKey: `questline.tx.${into.key}.${chainId}`,
    onSettled: (confirmed, label) => {
      if (!confirmed) next.current = null;
      else if (label.startsWith("Deposit")) {
        toast.success(`Deposit sent: ${into.credited} once the network confirms it.`);
        setAmount("");
      }
      onSent();
    },
  });
  const { send } = tx;
  const deposit = useCallback(
    ({ token, symbol, decimals, units }: DepositCall, step: string) =>
      void send(
        {
          chainId,
          address: facts.vault,
          abi: depositVaultAbi,
          ...(symbol === QUEST ? { functionName: "deposit", args: [units, depositRef] } : { functionName: "depositToken", args: [token, units, depositRef] }),
          context: { token: symbol, coin: chain.coin },
        },
        `Deposit ${formatAmount(units, { decimals, maxFraction: decimals })} ${symbol}${step}`,
      ),
    [send, chainId, facts.vault, depositRef, chain.coin],
  );

  // Step 2 of 2 follows as soon as the approval is confirmed (of the token approved, whichever is chosen by then).
  useEffect(() => {
    if (tx.state.status !== "confirmed" || next.current === null) return;
    const call = next.current;
    next.current = null;
    deposit(call, " (step 2 of 2)");
  }, [tx.state.status, deposit]);

  /** An amount of the chosen token in words: as typed (every decimal it has), or a wallet's figure to four. */
  const amountText = (units: bigint, maxFraction = facts.decimals) => `${formatAmount(units, { decimals: facts.decimals, maxFraction })} ${facts.symbol}`;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkAmount(amount, facts.decimals);
    if (!checked.ok) return setError(failureMessage(checked));
    if (!member) return setError("Your wallet's numbers are still loading: try again in a moment.");
    if (checked.units > BigInt(member.balance)) return setError(`Your wallet holds ${amountText(BigInt(member.balance), 4)}.`);
    setError(undefined);
    const call = { token: facts.token, symbol: facts.symbol, decimals: facts.decimals, units: checked.units };
    if (BigInt(member.allowance) >= checked.units) return deposit(call, "");
    next.current = call;
    void tx.send(
      {
        chainId,
        address: facts.token,
        // Every token the vault lists is an ERC-20: QuestToken's `approve` is the standard's.
        abi: questTokenAbi,
        functionName: "approve",
        args: [facts.vault, checked.units],
        context: { token: facts.symbol, coin: chain.coin },
      },
      `Approve ${amountText(checked.units)} for the vault (step 1 of 2)`,
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{into.title}</CardTitle>
        <CardDescription>{into.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <WalletGate chainId={chainId} action="deposit">
          <form noValidate onSubmit={submit} className="grid gap-4">
            <AmountField
              id="deposit-amount"
              label={`Deposit amount (${facts.symbol})`}
              error={error}
              hint={member ? `Your wallet holds ${amountText(BigInt(member.balance), 4)}.` : undefined}
              placeholder="100"
              value={amount}
              onChange={(value) => {
                setAmount(value);
                setError(undefined);
              }}
            />
            <Button type="submit" variant="brand" className="justify-self-start" pending={isBusy(tx.state)}>
              <ArrowDownToLine aria-hidden /> Deposit
            </Button>
          </form>
        </WalletGate>
        <TxProgress state={tx.state} label={tx.label} onReset={tx.reset} />
        {wallet.cloud && !knownChain(chainId)?.local && into.key === "deposit" && <DepositByCard />}
      </CardContent>
    </Card>
  );
}

/**
 * The wallet modal's on-ramp buys tokens to the connected wallet; then a deposit by amount brings
 * them in. Offered only where it can work: with the wallet service set up, off the local chain.
 */
function DepositByCard() {
  const wallet = useWallet();
  const buy = () => void wallet.open(wallet.address ? "OnRampProviders" : "Connect");
  return (
    <div className="grid gap-2 border-t pt-4">
      <p className="text-sm font-medium">Deposit by card</p>
      <p className="text-sm text-muted-foreground">Buy crypto with a card straight to your wallet, then deposit it here.</p>
      <Button type="button" variant="outline" className="justify-self-start" onClick={buy}>
        <CreditCard aria-hidden /> Buy with card
      </Button>
    </div>
  );
}
