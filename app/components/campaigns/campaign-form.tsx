import { Form } from "react-router";
import { ContainerBasics, WindowFields } from "~/components/containers/container-fields";
import { Card, CardContent } from "~/components/ui/card";
import { FormError } from "~/components/ui/form-error";
import { CheckboxField, FormActions } from "~/components/ui/form-parts";
import { GateFields } from "~/components/trust/gate-fields";
import { CAMPAIGN_ENTERED } from "~/modules/rewards/promise-words";
import type { GateValues } from "~/modules/trust/gate-values";
import type { DateValue } from "./date-time-input";

export type CampaignFormDefaults = {
  name: string;
  slug: string;
  description: string;
  startsAt: DateValue;
  endsAt: DateValue;
  published: boolean;
};

/** Create or edit a campaign (campaignSchema): name, address, description, dates, published, who may take part. */
export function CampaignForm({
  defaults,
  errors,
  pending,
  submitLabel,
  cancelTo,
  addressPrefix,
  isNew,
  keptNote = null,
  gate,
}: {
  defaults: CampaignFormDefaults;
  errors: Record<string, string>;
  pending: boolean;
  submitLabel: string;
  cancelTo: string;
  addressPrefix: string;
  isNew: boolean;
  /** Why the campaign stays published and started, its token rewards only raised (members entered it), or null. */
  keptNote?: string | null;
  /** Who may take part: the gate's fields as saved or typed, and the networks a holding rule may name. */
  gate: { defaults: GateValues; networks: { id: number; name: string }[] };
}) {
  return (
    <Card className="max-w-2xl">
      <CardContent>
        <Form method="post" className="grid gap-5" noValidate>
          <FormError message={errors.form} />
          {keptNote && <p className="text-sm text-muted-foreground">{keptNote}</p>}
          <ContainerBasics
            defaults={defaults}
            errors={errors}
            addressPrefix={addressPrefix}
            isNew={isNew}
            descriptionHint="What members do and what they earn. Up to 4000 characters."
            descriptionRows={5}
          />
          <WindowFields startsAt={defaults.startsAt} endsAt={defaults.endsAt} errors={errors} />
          <CheckboxField
            name="published"
            label="Published"
            defaultChecked={defaults.published}
            hint="Members see it from now on; it goes live at its start. Unpublished, only the team sees it."
            error={errors.published}
            keptOn={keptNote && defaults.published ? CAMPAIGN_ENTERED.unpublish : null}
          />
          <GateFields defaults={gate.defaults} errors={errors} networks={gate.networks} what="campaign" />
          <FormActions submitLabel={submitLabel} pending={pending} cancelTo={cancelTo} />
        </Form>
      </CardContent>
    </Card>
  );
}
