import { ArrowDownUp, ArrowLeftRight } from "lucide-react";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { demoSwapAbi } from "#contracts/generated/demo-swap";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { AmountField } from "~/components/chain/amount-field";
import { TxProgress } from "~/components/chain/tx-progress";
import { WalletGate } from "~/components/chain/wallet-gate";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failureMessage } from "~/lib/result";
import { checkAmount, formatAmount } from "~/lib/token-amounts";
import type { DemoChainReading, DemoToken } from "~/modules/chain/demo-dapp";
import { isBusy } from "~/modules/chain/tx-machine";
import { useWallet } from "~/wallet/wallet-provider";
import { useDemoTx } from "./use-demo-tx";

type DemoChain = Extract<DemoChainReading, { ok: true }>;
/** The swap to send once its approval is confirmed. */
type SwapCall = { tokenIn: DemoToken; tokenOut: DemoToken; units: bigint; out: bigint; to: `0x${string}` };

/** Swaps sent from this page expire 20 minutes after they are signed (by our clock or the chain's, whichever is ahead), as a DEX's front end sets them. */
const DEADLINE_SECONDS = 20 * 60;

/** What `units` of `tokenIn` buy at the swap's fixed rate (DemoSwap.quote). */
export function quoteOf(chain: Pick<DemoChain, "tokenA" | "rate">, tokenIn: DemoToken, units: bigint): bigint {
  const rate = BigInt(chain.rate);
  return tokenIn.address === chain.tokenA.address ? units / rate : units * rate;
}

/**
 * "Swap": DemoSwap.swapExactTokensForTokens at its fixed rate, QUEST to USDC or back. The wallet
 * approves the swap for the amount when its allowance is short (step 1 of 2), then swaps (step 2).
 */
export function SwapCard({ chain }: { chain: DemoChain }) {
  const wallet = useWallet();
  const [forward, setForward] = useState(true);
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | undefined>();
  const next = useRef<SwapCall | null>(null);
  const tx = useDemoTx(`questline.tx.demo-swap.${chain.chainId}`);
  const { send } = tx;
  const [tokenIn, tokenOut] = forward ? [chain.tokenA, chain.tokenB] : [chain.tokenB, chain.tokenA];
  const member = chain.member && wallet.address?.toLowerCase() === chain.member.address.toLowerCase() ? chain.member : null;
  const amountOf = (units: bigint, token: DemoToken, maxFraction = 4) => `${formatAmount(units, { decimals: token.decimals, maxFraction })} ${token.symbol}`;

  const swap = useCallback(
    ({ tokenIn, tokenOut, units, out, to }: SwapCall, step: string) =>
      void send(
        {
          chainId: chain.chainId,
          address: chain.swap,
          abi: demoSwapAbi,
          functionName: "swapExactTokensForTokens",
          args: [units, out, [tokenIn.address, tokenOut.address], to, BigInt(Math.max(Math.floor(Date.now() / 1000), chain.chainTime) + DEADLINE_SECONDS)],
          context: { token: tokenIn.symbol, coin: chain.coin },
        },
        `Swap ${formatAmount(units, { decimals: tokenIn.decimals, maxFraction: tokenIn.decimals })} ${tokenIn.symbol} for ${formatAmount(out, { decimals: tokenOut.decimals, maxFraction: tokenOut.decimals })} ${tokenOut.symbol}${step}`,
      ),
    [send, chain.chainId, chain.swap, chain.coin, chain.chainTime],
  );
  // Step 2 of 2 follows as soon as the approval is confirmed.
  useEffect(() => {
    if (tx.state.status !== "confirmed" || next.current === null) return;
    const call = next.current;
    next.current = null;
    swap(call, " (step 2 of 2)");
  }, [tx.state.status, swap]);

  const parsed = checkAmount(amount, tokenIn.decimals);
  const preview = parsed.ok ? quoteOf(chain, tokenIn, parsed.units) : null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!parsed.ok) return setError(failureMessage(parsed));
    if (!member || !wallet.address) return setError("Your wallet's numbers are still loading: try again in a moment.");
    const units = parsed.units;
    const [balance, allowance, reserve] = forward
      ? [BigInt(member.a), BigInt(member.allowanceA), BigInt(chain.reserves.b)]
      : [BigInt(member.b), BigInt(member.allowanceB), BigInt(chain.reserves.a)];
    if (units > balance) return setError(`Your wallet holds ${amountOf(balance, tokenIn)}.`);
    const out = quoteOf(chain, tokenIn, units);
    if (out === 0n)
      return setError(
        `That buys less than the smallest amount of ${tokenOut.symbol}: swap at least ${amountOf(BigInt(chain.rate), tokenIn, tokenIn.decimals)}.`,
      );
    if (out > reserve) return setError(`The swap holds only ${amountOf(reserve, tokenOut)}: swap less.`);
    setError(undefined);
    const call = { tokenIn, tokenOut, units, out, to: wallet.address as `0x${string}` };
    if (allowance >= units) return swap(call, "");
    next.current = call;
    void send(
      {
        chainId: chain.chainId,
        address: tokenIn.address,
        // Both tokens are ERC-20s: QuestToken's `approve` is the standard's.
        abi: questTokenAbi,
        functionName: "approve",
        args: [chain.swap, units],
        context: { token: tokenIn.symbol, coin: chain.coin },
      },
      `Approve ${amountOf(units, tokenIn, tokenIn.decimals)} for the swap (step 1 of 2)`,
    );
  };

  const oneA = 10n ** BigInt(chain.tokenA.decimals);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Swap</CardTitle>
        <CardDescription>
          {chain.tokenA.symbol} and {chain.tokenB.symbol} at a fixed rate: 1 {chain.tokenA.symbol} ={" "}
          {amountOf(quoteOf(chain, chain.tokenA, oneA), chain.tokenB, 6)}. A demo, not a market: it pays from its own reserves (
          {amountOf(BigInt(chain.reserves.a), chain.tokenA, 0)} and {amountOf(BigInt(chain.reserves.b), chain.tokenB, 2)}), through a Uniswap V2 style call.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <WalletGate chainId={chain.chainId} action="swap">
          <form noValidate onSubmit={submit} className="grid gap-4">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span>
                From <strong>{tokenIn.symbol}</strong> to <strong>{tokenOut.symbol}</strong>
              </span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => {
                  setForward(!forward);
                  setError(undefined);
                }}
              >
                <ArrowDownUp aria-hidden /> Swap {tokenOut.symbol} for {tokenIn.symbol} instead
              </Button>
            </div>
            <AmountField
              id={`demo-swap-amount-${chain.chainId}`}
              label={`Amount (${tokenIn.symbol})`}
              error={error}
              hint={
                preview !== null
                  ? `You get ${amountOf(preview, tokenOut, tokenOut.decimals)}.`
                  : member
                    ? `Your wallet holds ${amountOf(BigInt(forward ? member.a : member.b), tokenIn)}.`
                    : `How much ${tokenIn.symbol} to swap.`
              }
              placeholder={forward ? "100" : "1"}
              value={amount}
              onChange={(value) => {
                setAmount(value);
                setError(undefined);
              }}
            />
            <Button type="submit" variant="brand" className="justify-self-start" pending={isBusy(tx.state)}>
              <ArrowLeftRight aria-hidden /> Swap
            </Button>
          </form>
        </WalletGate>
        <TxProgress state={tx.state} label={tx.label} onReset={tx.reset} />
      </CardContent>
    </Card>
  );
}
