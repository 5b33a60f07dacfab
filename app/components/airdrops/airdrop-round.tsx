import { Loader2, Undo2 } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { TxHash } from "~/components/chain/tx-progress";
import { LocalTime } from "~/components/campaigns/local-time";
import { FormError } from "~/components/ui/form-error";
import { Button } from "~/components/ui/button";
import { formatAmount } from "~/lib/token-amounts";

/** The round as the page gets it (`RoundView`, JSON). */
export type RoundPanelData = {
  step: "funding" | "approving" | "opening" | "open" | "sweeping" | "swept" | "failed" | "previous_chain";
  chainId: number;
  roundId: number | null;
  deadline: string;
  openTxHash: string | null;
  swept: string | null;
  sweepTxHash: string | null;
  failure: string | null;
};

const UNDER_WAY: Partial<Record<RoundPanelData["step"], string>> = {
  funding: "The round is being funded from the vault.",
  approving: "The round is funded; the airdrop contract is being allowed to take its tokens.",
  opening: "The round is being opened on chain.",
  sweeping: "What was not claimed is being swept back to the treasury.",
};

/**
 * The round for the project's team: where it stands on chain, why a step waits, and, once the
 * chain's clock has passed the deadline, the Sweep button that brings the unclaimed rest back to
 * the project's treasury.
 */
export function RoundPanel({ round, symbol, sweepable, error }: { round: RoundPanelData; symbol: string; sweepable: boolean; error?: string }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "sweep";
  const underWay = UNDER_WAY[round.step];
  return (
    <section aria-label="Round on chain" className="grid gap-2 border-t pt-3 text-sm">
      {underWay && (
        <p role="status" className="flex items-start gap-2">
          <Loader2 className="mt-0.5 size-4 shrink-0 animate-spin" aria-hidden /> {underWay}
        </p>
      )}
      {round.failure && (
        <p role="alert" className="text-muted-foreground">
          {round.failure}
        </p>
      )}
      {round.roundId !== null && round.openTxHash && (
        <p className="grid gap-1">
          <span className="text-muted-foreground">Round {round.roundId} opened in</span>
          <TxHash hash={round.openTxHash} chainId={round.chainId} short />
        </p>
      )}
      {round.step === "swept" && (
        <p className="grid gap-1">
          <span>
            {formatAmount(BigInt(round.swept ?? "0"))} {symbol} not claimed went back to the treasury.
          </span>
          {round.sweepTxHash && <TxHash hash={round.sweepTxHash} chainId={round.chainId} short />}
        </p>
      )}
      {round.step === "open" &&
        (sweepable ? (
          <Form method="post" className="grid justify-items-start gap-2">
            <FormError message={error} />
            <p className="text-muted-foreground">Claims closed on chain: bring what was not claimed back to the project's treasury.</p>
            <Button type="submit" name="intent" value="sweep" variant="outline" size="sm" pending={pending}>
              <Undo2 aria-hidden /> Sweep the rest back
            </Button>
          </Form>
        ) : (
          <p className="text-muted-foreground">
            After claims close (<LocalTime value={round.deadline} />) you can sweep what was not claimed back to the treasury.
          </p>
        ))}
    </section>
  );
}
