import { useState } from "react";
import { Form, Link } from "react-router";
import { DateTimeInput, type DateValue } from "~/components/campaigns/date-time-input";
import { ContainerBasics, WindowFields } from "~/components/containers/container-fields";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { CheckboxField, FormActions } from "~/components/ui/form-parts";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { RULE_LABELS } from "~/modules/airdrops/airdrop-phase";
import { AIRDROP_RULES } from "~/modules/airdrops/airdrop-types";
import { formatAmount } from "~/lib/token-amounts";
import { AIRDROP_ENTERED } from "~/modules/rewards/promise-words";
import type { Asset } from "~/modules/ledger/assets";
import { rewardAssetLabel } from "~/modules/projects/reward-asset";
import { GateFields } from "~/components/trust/gate-fields";
import type { GateValues } from "~/modules/trust/gate-values";

export type AirdropFormDefaults = {
  name: string;
  slug: string;
  description: string;
  asset: string;
  rule: string;
  total: string;
  rankAmounts: string;
  minPoints: string;
  startsAt: DateValue;
  endsAt: DateValue;
  claimDeadline: DateValue;
  published: boolean;
};

/** A token an airdrop can pay (its chain has an AirdropDistributor), with what the project's treasury holds of it. */
export type AirdropToken = { asset: string; label: string; treasury: bigint };

const symbolOf = (asset: string) => asset.split(":")[0] || "tokens";

/**
 * Create or edit an airdrop (airdropSchema): name, address, description, the token and how its
 * total is shared, the minimum points, its window, when claims close, published. A live airdrop's
 * token and rule are shown but fixed (`locked`): its members are earning points under them. A new
 * airdrop starts on the project's rewards token where an airdrop can pay it (any other token in
 * the list can be chosen); where it cannot, the form says so.
 */
export function AirdropForm({
  defaults,
  errors,
  tokens,
  locked,
  pending,
  submitLabel,
  cancelTo,
  addressPrefix,
  isNew,
  keptNote = null,
  rewardAsset = null,
  fundTo,
  gate = null,
}: {
  defaults: AirdropFormDefaults;
  errors: Record<string, string>;
  tokens: AirdropToken[];
  locked: boolean;
  pending: boolean;
  submitLabel: string;
  cancelTo: string;
  addressPrefix: string;
  isNew: boolean;
  /** Why it stays published and started, with its token, rule and at least its total (members earned points), or null. */
  keptNote?: string | null;
  /** The project's rewards token (its settings), or null when none is chosen. */
  rewardAsset?: Asset | null;
  /** The project's Rewards page, where its treasury is funded. */
  fundTo: string;
  /** Who may take part: the gate's fields as saved or typed, and the networks a holding rule may name. */
  gate?: { defaults: GateValues; networks: { id: number; name: string }[] } | null;
}) {
  const payable = rewardAsset !== null && tokens.some((t) => t.asset === rewardAsset);
  const [asset, setAsset] = useState(defaults.asset || (payable ? rewardAsset! : "") || tokens[0]?.asset || "");
  const [rule, setRule] = useState(defaults.rule || "pro_rata");
  const held = tokens.find((t) => t.asset === asset);
  const symbol = symbolOf(asset);
  const fixedHint = keptNote ? "Fixed: members have earned points under it." : "Fixed while the airdrop is live: members are earning points under it.";
  return (
    <Form method="post" className="grid max-w-3xl gap-6" noValidate>
      <FormError message={errors.form} />
      {keptNote && <p className="text-sm text-muted-foreground">{keptNote}</p>}
      <Card>
        <CardHeader>
          <CardTitle>Airdrop</CardTitle>
          <CardDescription>What members see on its page and cards.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <ContainerBasics
            defaults={defaults}
            errors={errors}
            addressPrefix={addressPrefix}
            isNew={isNew}
            descriptionHint="What members do to earn points and what the airdrop pays. Up to 4000 characters."
            descriptionRows={4}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>What it pays</CardTitle>
          <CardDescription>
            Members earn its tasks&apos; XP as points while it runs. At the end the total is shared by points and frozen; each member then claims their share on
            chain with a linked wallet.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <Field
              id="asset"
              label="Token"
              hint={
                locked ? (
                  fixedHint
                ) : tokens.length === 0 ? (
                  "No network here has an airdrop contract: an airdrop cannot be created yet."
                ) : held && held.treasury > 0n ? (
                  `The treasury holds ${formatAmount(held.treasury)} ${symbol}. Publishing escrows the whole total from it.`
                ) : (
                  <>
                    The treasury holds no {symbol} yet: fund it from{" "}
                    <Link className="font-medium text-foreground underline underline-offset-4" to={fundTo}>
                      the project&apos;s Rewards page
                    </Link>{" "}
                    before publishing.
                  </>
                )
              }
              error={errors.asset}
            >
              <Select
                {...fieldProps("asset", errors.asset)}
                name={locked ? undefined : "asset"}
                value={asset}
                disabled={locked || tokens.length === 0}
                onChange={(e) => setAsset(e.target.value)}
              >
                {tokens.map((t) => (
                  <option key={t.asset} value={t.asset}>
                    {t.label}
                  </option>
                ))}
                {asset && !tokens.some((t) => t.asset === asset) && <option value={asset}>{asset}</option>}
              </Select>
              {locked && <input type="hidden" name="asset" value={asset} />}
            </Field>
            <Field id="rule" label="Shared" hint={locked ? fixedHint : undefined} error={errors.rule}>
              <Select
                {...fieldProps("rule", errors.rule)}
                name={locked ? undefined : "rule"}
                value={rule}
                disabled={locked}
                onChange={(e) => setRule(e.target.value)}
              >
                {AIRDROP_RULES.map((r) => (
                  <option key={r} value={r}>
                    {RULE_LABELS[r]}
                  </option>
                ))}
              </Select>
              {locked && <input type="hidden" name="rule" value={rule} />}
            </Field>
          </div>
          {!locked && rewardAsset && !payable && (
            <p className="text-sm text-muted-foreground">
              The project&apos;s rewards token, {rewardAssetLabel(rewardAsset)}, cannot be airdropped here: an airdrop pays a token of the list above.
            </p>
          )}
          {rule === "top" ? (
            <Field
              id="rankAmounts"
              label={`Amount per rank (${symbol})`}
              hint="Best rank first, separated by commas or lines, like 500, 300, 200. The total is their sum; ranks beyond the list get nothing."
              error={errors.rankAmounts}
            >
              <Textarea {...fieldProps("rankAmounts", errors.rankAmounts)} defaultValue={defaults.rankAmounts} rows={3} />
            </Field>
          ) : (
            <Field
              id="total"
              label={`Total (${symbol})`}
              hint="Each member gets total × their points ÷ all eligible points, rounded down; the rounding dust goes to the last eligible rank."
              error={errors.total}
            >
              <Input {...fieldProps("total", errors.total)} defaultValue={defaults.total} inputMode="decimal" autoComplete="off" className="max-w-60" />
            </Field>
          )}
          <Field
            id="minPoints"
            label="Minimum points"
            hint="Members with fewer points at the end get no share. The project's own team never does."
            error={errors.minPoints}
          >
            <Input {...fieldProps("minPoints", errors.minPoints)} defaultValue={defaults.minPoints} inputMode="numeric" className="max-w-40" />
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>When</CardTitle>
          <CardDescription>Its tasks earn points between the start and the end. Times are in your time zone.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <WindowFields startsAt={defaults.startsAt} endsAt={defaults.endsAt} errors={errors} />
          <Field
            id="claimDeadline"
            label="Claims close"
            hint="At least a day after the end. What is not claimed by then goes back to the project."
            error={errors.claimDeadline}
          >
            <DateTimeInput id="claimDeadline" error={errors.claimDeadline} value={defaults.claimDeadline} />
          </Field>
          <CheckboxField
            name="published"
            label="Published"
            defaultChecked={defaults.published}
            hint="Members see it from now on and earn points from its start; its total is escrowed from the treasury. Unpublished, only the team sees it."
            error={errors.published}
            keptOn={keptNote && defaults.published ? AIRDROP_ENTERED.unpublish : null}
          />
        </CardContent>
      </Card>
      {gate && (
        <Card>
          <CardContent>
            <GateFields defaults={gate.defaults} errors={errors} networks={gate.networks} what="airdrop" />
          </CardContent>
        </Card>
      )}
      <FormActions submitLabel={submitLabel} pending={pending} cancelTo={cancelTo} />
    </Form>
  );
}
