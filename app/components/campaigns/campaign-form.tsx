import { Form } from "react-router";
import { Card, CardContent } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { DateTimeInput, TimeZoneHint, type DateValue } from "./date-time-input";
import { NameSlugFields } from "./name-slug-fields";
import { FormError } from "~/components/ui/form-error";
import { CheckboxField, FormActions } from "~/components/ui/form-parts";

export type CampaignFormDefaults = {
  name: string;
  slug: string;
  description: string;
  startsAt: DateValue;
  endsAt: DateValue;
  published: boolean;
};

/** Create or edit a campaign (campaignSchema): name, address, description, dates, published. */
export function CampaignForm({
  defaults,
  errors,
  pending,
  submitLabel,
  cancelTo,
  addressPrefix,
  isNew,
}: {
  defaults: CampaignFormDefaults;
  errors: Record<string, string>;
  pending: boolean;
  submitLabel: string;
  cancelTo: string;
  addressPrefix: string;
  isNew: boolean;
}) {
  return (
    <Card className="max-w-2xl">
      <CardContent>
        <Form method="post" className="grid gap-5" noValidate>
          <FormError message={errors.form} />
          <NameSlugFields name={defaults.name} slug={defaults.slug} errors={errors} addressPrefix={addressPrefix} follow={isNew} />
          <Field id="description" label="Description" hint="What members do and what they earn. Up to 4000 characters." error={errors.description}>
            <Textarea {...fieldProps("description", errors.description)} defaultValue={defaults.description} rows={5} maxLength={4000} />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="startsAt" label="Starts" hint={<TimeZoneHint />} error={errors.startsAt}>
              <DateTimeInput id="startsAt" error={errors.startsAt} value={defaults.startsAt} />
            </Field>
            <Field id="endsAt" label="Ends" error={errors.endsAt}>
              <DateTimeInput id="endsAt" error={errors.endsAt} value={defaults.endsAt} />
            </Field>
          </div>
          <CheckboxField
            name="published"
            label="Published"
            defaultChecked={defaults.published}
            hint="Members see it from now on; it goes live at its start. Unpublished, only the team sees it."
          />
          <FormActions submitLabel={submitLabel} pending={pending} cancelTo={cancelTo} />
        </Form>
      </CardContent>
    </Card>
  );
}
