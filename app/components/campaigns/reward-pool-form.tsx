import { Sparkles } from "lucide-react";
import { useState } from "react";
import { Form, Link } from "react-router";
import { Card, CardContent } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { FormActions } from "~/components/ui/form-parts";
import { GateFields } from "~/components/trust/gate-fields";
import type { GateValues } from "~/modules/trust/gate-values";
import { cn } from "~/lib/utils";
import type { RewardPoolValues } from "~/modules/rewards/reward-form";
import { MAX_WINNERS } from "~/modules/rewards/reward.schema";
import { DISTRIBUTION_LABELS, DISTRIBUTIONS, type Distribution, type RewardKind } from "~/modules/rewards/pool-types";
import { Select } from "~/components/ui/select";
import { formatAmount } from "~/lib/token-amounts";
import { assetSchema, type Asset } from "~/modules/ledger/assets";
import { rewardAssetLabel } from "~/modules/projects/reward-asset";

const isDistribution = (v: string): v is Distribution => (DISTRIBUTIONS as readonly string[]).includes(v);

/** A token the project's treasury holds, with its `decimals` (the registry's), in which its amounts are typed and shown. */
export type TreasuryAsset = { asset: string; balance: bigint; decimals: number };

/**
 * Create or edit a reward pool (rewardPoolSchemaFor): what it pays, how it is shared, then its
 * amounts. A new pool's `defaults.asset` is the project's rewards token, preselected even while
 * the treasury holds none of it (the field then says how to fund it); any token the treasury
 * holds can be chosen instead.
 */
export function RewardPoolForm({
  defaults,
  errors,
  pending,
  submitLabel,
  cancelTo,
  treasury,
  defaultsDecimals = null,
  kindFixed,
  note = null,
  fundTo,
  gate = null,
}: {
  defaults: RewardPoolValues;
  errors: Record<string, string>;
  pending: boolean;
  submitLabel: string;
  cancelTo: string;
  treasury: TreasuryAsset[];
  /** The decimals of `defaults.asset` when the treasury holds none of it, null for none. */
  defaultsDecimals?: number | null;
  kindFixed: boolean;
  /** Why the reward can be raised but not lowered now, or null. */
  note?: string | null;
  fundTo: string;
  /** Who may win it (its own gate, besides the campaign's), as saved or typed, and the networks a holding rule may name. */
  gate?: { defaults: GateValues; networks: { id: number; name: string }[] } | null;
}) {
  const [distribution, setDistribution] = useState<Distribution | "">(isDistribution(defaults.distribution) ? defaults.distribution : "");
  const [kind, setKind] = useState<RewardKind>(defaults.kind);
  const [asset, setAsset] = useState(defaults.asset || treasury[0]?.asset || "");
  const unit = kind === "xp" ? "XP" : asset.split(":")[0] || "tokens";
  const numeric = kind === "xp" ? ({ inputMode: "numeric", autoComplete: "off" } as const) : ({ inputMode: "decimal", autoComplete: "off" } as const);
  return (
    <Card className="max-w-2xl">
      <CardContent>
        <Form method="post" className="grid gap-5" noValidate>
          <FormError message={errors.form} />
          {note && <p className="text-sm text-muted-foreground">{note}</p>}
          <PaysField
            kind={kind}
            setKind={setKind}
            asset={asset}
            setAsset={setAsset}
            preferred={defaults.asset}
            preferredDecimals={defaultsDecimals}
            treasury={treasury}
            fixed={kindFixed}
            fundTo={fundTo}
            errors={errors}
          />
          <fieldset className="grid gap-2" aria-describedby={errors.distribution ? "distribution-error" : undefined}>
            <legend className="mb-2 text-sm font-medium">How it is shared</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {DISTRIBUTIONS.map((d) => (
                <label
                  key={d}
                  className={cn(
                    "flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm transition-colors hover:bg-accent/50",
                    distribution === d && "border-lime-600 bg-lime-600/5 dark:border-brand dark:bg-brand/10",
                    errors.distribution && "border-destructive",
                  )}
                >
                  <input
                    type="radio"
                    name="distribution"
                    value={d}
                    checked={distribution === d}
                    onChange={() => setDistribution(d)}
                    className="mt-0.5 size-4 accent-lime-600"
                  />
                  <span className="grid gap-0.5">
                    <span className="font-medium">{DISTRIBUTION_LABELS[d].title}</span>
                    <span className="text-muted-foreground">{DISTRIBUTION_LABELS[d].description}</span>
                  </span>
                </label>
              ))}
            </div>
            {errors.distribution && (
              <p id="distribution-error" className="text-sm text-destructive" role="alert">
                {errors.distribution}
              </p>
            )}
          </fieldset>

          {(distribution === "fcfs" || distribution === "raffle") && (
            <div className="grid gap-5 sm:grid-cols-2">
              <Field id="winners" label="Winners" hint={`How many members are paid, up to ${MAX_WINNERS.toLocaleString("en")}.`} error={errors.winners}>
                <Input {...fieldProps("winners", errors.winners)} {...numeric} defaultValue={defaults.winners} placeholder="100" />
              </Field>
              <Field id="amount" label={`${unit} per winner`} error={errors.amount}>
                <Input {...fieldProps("amount", errors.amount)} {...numeric} defaultValue={defaults.amount} placeholder="50" />
              </Field>
            </div>
          )}
          {distribution === "ranking" && (
            <>
              <Field id="winners" label="Ranks paid" hint="The top N of the campaign leaderboard when it ends." error={errors.winners}>
                <Input {...fieldProps("winners", errors.winners)} {...numeric} defaultValue={defaults.winners} placeholder="10" className="sm:max-w-48" />
              </Field>
              <Field
                id="rankAmounts"
                label={`${unit} by rank`}
                hint="Best rank first, separated by commas: 500, 300, 200. The ranks after the last amount get the last amount."
                error={errors.rankAmounts}
              >
                <Textarea
                  {...fieldProps("rankAmounts", errors.rankAmounts)}
                  defaultValue={defaults.rankAmounts}
                  rows={2}
                  placeholder="500, 300, 200, 100"
                  className="min-h-16"
                />
              </Field>
            </>
          )}
          {distribution === "everyone" && (
            <Field
              id="total"
              label={`${unit} to split`}
              hint={
                kind === "xp"
                  ? "Split equally among every member who completed every task; XP that does not divide evenly goes one each to the earliest finishers."
                  : "Split equally among every member who completed every task; what does not divide evenly goes back to the treasury."
              }
              error={errors.total}
            >
              <Input {...fieldProps("total", errors.total)} {...numeric} defaultValue={defaults.total} placeholder="10000" className="sm:max-w-48" />
            </Field>
          )}

          {gate && <GateFields defaults={gate.defaults} errors={errors} networks={gate.networks} what="reward" />}
          <FormActions submitLabel={submitLabel} pending={pending} cancelTo={cancelTo} />
        </Form>
      </CardContent>
    </Card>
  );
}

/** What the reward pays: XP, or a token from the project's treasury (escrowed in full when saved). */
function PaysField({
  kind,
  setKind,
  asset,
  setAsset,
  preferred,
  preferredDecimals,
  treasury,
  fixed,
  fundTo,
  errors,
}: {
  kind: RewardKind;
  setKind: (kind: RewardKind) => void;
  asset: string;
  setAsset: (asset: string) => void;
  /** The asset offered even when the treasury holds none: the project's rewards token, or the pool's own. */
  preferred: string;
  /** `preferred`'s decimals, null for none. */
  preferredDecimals: number | null;
  treasury: TreasuryAsset[];
  fixed: boolean;
  fundTo: string;
  errors: Record<string, string>;
}) {
  const held = treasury.find((t) => t.asset === asset);
  const symbol = asset.split(":")[0];
  const decimals = held?.decimals ?? (asset === preferred ? preferredDecimals : null);
  // How the amounts are typed: in the token's own decimals (USDC's 6), no more.
  const places =
    decimals === null ? "" : ` Amounts are in ${symbol}, which has ${decimals} decimal${decimals === 1 ? "" : "s"}: type at most ${decimals} after the point.`;
  const unheld = assetSchema.safeParse(preferred).success && !treasury.some((t) => t.asset === preferred);
  const fundLink = (
    <Link className="font-medium text-foreground underline underline-offset-4" to={fundTo}>
      fund the project&apos;s treasury
    </Link>
  );
  return (
    <fieldset className="grid gap-3 rounded-lg border bg-muted/40 p-3" aria-describedby={errors.kind ? "kind-error" : undefined}>
      <legend className="sr-only">What it pays</legend>
      {fixed && <input type="hidden" name="kind" value={kind} />}
      {fixed && kind === "token" && <input type="hidden" name="asset" value={asset} />}
      <div className="flex flex-wrap gap-4 text-sm">
        {(["xp", "token"] as const).map((k) => (
          <label key={k} className="flex items-center gap-2">
            <input
              type="radio"
              name={fixed ? undefined : "kind"}
              value={k}
              checked={kind === k}
              disabled={fixed || (k === "token" && treasury.length === 0 && !unheld)}
              onChange={() => setKind(k)}
              className="size-4 accent-lime-600"
            />
            <span className="font-medium">{k === "xp" ? "XP" : "Tokens from the treasury"}</span>
          </label>
        ))}
      </div>
      {kind === "xp" ? (
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <Sparkles className="mt-0.5 size-4 shrink-0 text-lime-600 dark:text-brand" aria-hidden />
          Added to the winners&apos; XP within a minute of the campaign&apos;s end, once.
        </p>
      ) : (
        <>
          <Field
            id="asset"
            label="Token"
            error={errors.asset}
            hint={
              held ? (
                `The treasury holds ${formatAmount(held.balance, { decimals: held.decimals })} ${symbol}. The whole reward is escrowed from it when you save.${places}`
              ) : !fixed && asset === preferred && unheld ? (
                <>
                  The treasury holds no {rewardAssetLabel(asset as Asset)} yet: {fundLink} first{treasury.length > 0 ? ", or choose a token it holds" : ""}. The
                  whole reward is escrowed from it when you save.{places}
                </>
              ) : (
                places.trim() || undefined
              )
            }
          >
            <Select
              {...fieldProps("asset", errors.asset)}
              name={fixed ? undefined : "asset"}
              value={asset}
              disabled={fixed}
              onChange={(e) => setAsset(e.currentTarget.value)}
            >
              {treasury.map((t) => (
                <option key={t.asset} value={t.asset}>
                  {rewardAssetLabel(t.asset as Asset)}
                </option>
              ))}
              {unheld && <option value={preferred}>{rewardAssetLabel(preferred as Asset)} (none in the treasury)</option>}
            </Select>
          </Field>
          <p className="text-xs text-muted-foreground">Paid to the winners&apos; Questline balance when the campaign ends, from which they can withdraw it.</p>
        </>
      )}
      {treasury.length === 0 && !fixed && !unheld && <p className="text-xs text-muted-foreground">To pay tokens, {fundLink} first.</p>}
      {errors.kind && (
        <p id="kind-error" className="text-sm text-destructive" role="alert">
          {errors.kind}
        </p>
      )}
    </fieldset>
  );
}
