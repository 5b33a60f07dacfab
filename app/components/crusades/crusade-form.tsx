import { Form } from "react-router";
import { ContainerBasics } from "~/components/containers/container-fields";
import { Card, CardContent } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { TaskPicker, type PickableTask } from "./task-picker";
import { FormError } from "~/components/ui/form-error";
import { CheckboxField, FormActions } from "~/components/ui/form-parts";

export type CrusadeFormDefaults = { name: string; slug: string; description: string; bonusXp: string; published: boolean; taskIds: string[] };

/** Create or edit a crusade (crusadeSchema): name, address, description, bonus XP, published, tasks in order. */
export function CrusadeForm({
  defaults,
  errors,
  tasks,
  crusadeId,
  projectSlug,
  pending,
  submitLabel,
  cancelTo,
  addressPrefix,
}: {
  defaults: CrusadeFormDefaults;
  errors: Record<string, string>;
  tasks: PickableTask[];
  crusadeId: string | null;
  projectSlug: string;
  pending: boolean;
  submitLabel: string;
  cancelTo: string;
  addressPrefix: string;
}) {
  return (
    <Card className="max-w-3xl">
      <CardContent>
        <Form method="post" className="grid gap-5" noValidate>
          <FormError message={errors.form} />
          <ContainerBasics defaults={defaults} errors={errors} addressPrefix={addressPrefix} isNew={crusadeId === null} />
          <Field id="bonusXp" label="Completion bonus (XP)" hint="Paid once to each member who completes every task. 0 for none." error={errors.bonusXp}>
            <Input {...fieldProps("bonusXp", errors.bonusXp)} defaultValue={defaults.bonusXp} inputMode="numeric" className="max-w-40" />
          </Field>
          <TaskPicker tasks={tasks} initial={defaults.taskIds} crusadeId={crusadeId} projectSlug={projectSlug} error={errors.taskIds} />
          <CheckboxField
            name="published"
            label="Published"
            defaultChecked={defaults.published}
            hint="Members see it and can start. Unpublished, only the team sees it."
          />
          <FormActions submitLabel={submitLabel} pending={pending} cancelTo={cancelTo} />
        </Form>
      </CardContent>
    </Card>
  );
}
