import { Sparkles } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { Card, CardContent } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { FormActions } from "~/components/ui/form-parts";
import { cn } from "~/lib/utils";
import type { RewardPoolValues } from "~/modules/rewards/reward-form";
import { DISTRIBUTION_LABELS, MAX_WINNERS } from "~/modules/rewards/reward.schema";
import { DISTRIBUTIONS, type Distribution } from "#db/schema/rewards";

const isDistribution = (v: string): v is Distribution => (DISTRIBUTIONS as readonly string[]).includes(v);

/** Create or edit an XP reward pool (rewardPoolSchema): how it is shared, then its amounts. */
export function RewardPoolForm({
  defaults,
  errors,
  pending,
  submitLabel,
  cancelTo,
}: {
  defaults: RewardPoolValues;
  errors: Record<string, string>;
  pending: boolean;
  submitLabel: string;
  cancelTo: string;
}) {
  const [distribution, setDistribution] = useState<Distribution | "">(isDistribution(defaults.distribution) ? defaults.distribution : "");
  const numeric = { inputMode: "numeric", autoComplete: "off" } as const;
  return (
    <Card className="max-w-2xl">
      <CardContent>
        <Form method="post" className="grid gap-5" noValidate>
          <FormError message={errors.form} />
          <p className="flex items-start gap-2 rounded-lg border bg-muted/40 p-3 text-sm">
            <Sparkles className="mt-0.5 size-4 shrink-0 text-lime-600 dark:text-brand" aria-hidden />
            <span>
              <span className="font-medium">Paid in XP</span>
              <span className="text-muted-foreground">, added to the winners&apos; XP within a minute of the campaign&apos;s end, once.</span>
            </span>
          </p>
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
              <Field id="amount" label="XP per winner" error={errors.amount}>
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
                label="XP by rank"
                hint="Best rank first, separated by commas: 500, 300, 200. The ranks after the last amount get the last amount."
                error={errors.rankAmounts}
              >
                <Textarea {...fieldProps("rankAmounts", errors.rankAmounts)} defaultValue={defaults.rankAmounts} rows={2} placeholder="500, 300, 200, 100" className="min-h-16" />
              </Field>
            </>
          )}
          {distribution === "everyone" && (
            <Field
              id="total"
              label="XP to split"
              hint="Split equally among every member who completed every task; XP that does not divide evenly goes one each to the earliest finishers."
              error={errors.total}
            >
              <Input {...fieldProps("total", errors.total)} {...numeric} defaultValue={defaults.total} placeholder="10000" className="sm:max-w-48" />
            </Field>
          )}

          <FormActions submitLabel={submitLabel} pending={pending} cancelTo={cancelTo} />
        </Form>
      </CardContent>
    </Card>
  );
}
