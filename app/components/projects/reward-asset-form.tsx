import { Coins } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { FormError } from "~/components/ui/form-error";
import { Select } from "~/components/ui/select";
import type { Asset } from "~/modules/ledger/assets";
import { rewardAssetLabel, type RewardAssetOption } from "~/modules/projects/reward-asset";
import { REWARD_ASSET_INTENT } from "~/modules/projects/reward-asset.schema";

/**
 * The project's Rewards token on its edit screen: one of the assets this deployment pays, or none.
 * Its own form (intent `reward-asset`), so that saving it leaves the project's fields alone.
 */
export function RewardAssetForm({
  current,
  options,
  chosen,
  errors = {},
}: {
  /** The saved choice, null for none. */
  current: Asset | null;
  options: RewardAssetOption[];
  /** What the refused form held, to show it again beside its error. */
  chosen?: string;
  errors?: Record<string, string>;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === REWARD_ASSET_INTENT;
  // A saved asset this deployment no longer pays (its chain was taken away) stays visible, named as such.
  const stale = current !== null && !options.some((option) => option.asset === current);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Coins className="size-4" aria-hidden /> Rewards token
        </CardTitle>
        <CardDescription>
          The chain and token the project&apos;s rewards are paid in. New token rewards and airdrops start with it; each can still pay another token the
          treasury holds.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" noValidate>
          <FormError message={errors.form} />
          <input type="hidden" name="intent" value={REWARD_ASSET_INTENT} />
          <Field
            id="rewardAsset"
            label="Token"
            error={errors.rewardAsset}
            hint={options.length === 0 ? "No network here has Questline's vault yet: there is no token to choose." : undefined}
          >
            <Select {...fieldProps("rewardAsset", errors.rewardAsset)} defaultValue={chosen ?? current ?? ""}>
              <option value="">None chosen</option>
              {options.map((option) => (
                <option key={option.asset} value={option.asset}>
                  {option.label}
                </option>
              ))}
              {stale && <option value={current}>{rewardAssetLabel(current)} (no longer paid here)</option>}
            </Select>
          </Field>
          <Button type="submit" variant="outline" className="justify-self-start" pending={pending}>
            Save rewards token
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
