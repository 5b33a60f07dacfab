import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { CheckboxField, FormActions } from "~/components/ui/form-parts";
import { DateTimeInput, TimeZoneHint, type DateValue } from "~/components/campaigns/date-time-input";
import { PROVIDER_LABELS, type SocialProvider } from "~/modules/social/providers";
import { howChecked } from "~/modules/tasks/task-checks";
import type { TaskType } from "~/modules/tasks/task-types";
import type { ApiCheckTools } from "./api-check-fields";
import { TaskConfigFields } from "./task-config-fields";

export type TaskFormProps = {
  /** Every type, with its label, the verification modes it allows, and the provider a social type needs when it is not set up here. */
  types: { value: TaskType; label: string; modes: readonly ("auto" | "review" | "none")[]; notSetUp?: SocialProvider | null }[];
  values: Record<string, string>;
  errors?: Record<string, string>;
  campaigns: { id: string; name: string; status: string }[];
  /** The project's airdrops that still take tasks (and the task's own). */
  airdrops: { id: string; name: string; status: string }[];
  networks: { id: number; name: string }[];
  /** On edit: members holding a place (the cap cannot go below it; the type is fixed once someone did it). */
  slotsTaken?: number;
  submitLabel: string;
  cancelTo: string;
  /** An api_check task's "Try it" and signing secret, for owners and admins (null: not shown). */
  apiCheck?: ApiCheckTools | null;
};

const NO_ERRORS: Record<string, string> = {};

/** A stored moment comes as an ISO string ending in Z; what the member typed, as the input gave it. */
const dateValue = (value: string | undefined): DateValue => (!value ? null : value.endsWith("Z") ? { at: value } : { typed: value });

/** Create and edit a task: the common fields, then only the chosen type's own. Works without JavaScript. */
export function TaskForm({
  types,
  values,
  errors = NO_ERRORS,
  campaigns,
  airdrops,
  networks,
  slotsTaken = 0,
  submitLabel,
  cancelTo,
  apiCheck = null,
}: TaskFormProps) {
  const navigation = useNavigation();
  const typeOf = (value: string | undefined) => types.find((t) => t.value === value);
  const [type, setType] = useState<TaskType>(typeOf(values.type)?.value ?? types[0]!.value);
  const chosen = typeOf(type)!;
  const modes = chosen.modes;
  const verification = modes.find((m) => m === values.verification) ?? modes[0];
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [errors]);

  return (
    <Form method="post" className="grid gap-6" noValidate ref={form}>
      {errors.form && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive">
          {errors.form}
        </p>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Task</CardTitle>
          <CardDescription>What members see on the task&apos;s page and cards.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <Field id="title" label="Title" error={errors.title}>
            <Input {...fieldProps("title", errors.title)} defaultValue={values.title ?? ""} maxLength={120} />
          </Field>
          <Field id="description" label="Description" hint="Optional. Why it matters, or any detail." error={errors.description}>
            <Textarea {...fieldProps("description", errors.description)} defaultValue={values.description ?? ""} rows={4} />
          </Field>
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <Field
              id="type"
              label="Type"
              hint={
                slotsTaken > 0
                  ? "Members have done this task: its type stays."
                  : chosen.notSetUp
                    ? `${PROVIDER_LABELS[chosen.notSetUp]} is not set up on this server: members see this task but cannot do it until it is.`
                    : undefined
              }
              error={errors.type}
            >
              <Select {...fieldProps("type", errors.type)} value={type} onChange={(e) => setType(typeOf(e.target.value)?.value ?? type)}>
                {types.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.notSetUp ? `${t.label} (not set up on this server)` : t.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="xp" label="XP" error={errors.xp}>
              <Input {...fieldProps("xp", errors.xp)} type="number" inputMode="numeric" min={1} max={100000} defaultValue={values.xp ?? ""} />
            </Field>
          </div>
          <Field id="verification" label="Verification" error={errors.verification}>
            <Select {...fieldProps("verification", errors.verification)} key={type} defaultValue={verification}>
              {modes.map((m) => (
                <option key={m} value={m}>
                  {howChecked({ type, verification: m })}
                </option>
              ))}
            </Select>
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{chosen.label}</CardTitle>
          <CardDescription>What members do for this type of task.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <TaskConfigFields key={type} type={type} values={values} errors={errors} networks={networks} apiCheck={apiCheck} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Schedule and places</CardTitle>
          <CardDescription>Times are in your time zone. A daily task can be done once per UTC day (it starts at 00:00 UTC).</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <Field id="recurrence" label="Recurrence" error={errors.recurrence}>
              <Select {...fieldProps("recurrence", errors.recurrence)} defaultValue={values.recurrence ?? "once"}>
                <option value="once">Once</option>
                <option value="daily">Daily (UTC day)</option>
              </Select>
            </Field>
            <Field
              id="cap"
              label="Places"
              hint={slotsTaken > 0 ? `Empty for no limit. ${slotsTaken} taken so far.` : "Empty for no limit: first come, first served."}
              error={errors.cap}
            >
              <Input {...fieldProps("cap", errors.cap)} type="number" inputMode="numeric" min={Math.max(1, slotsTaken)} defaultValue={values.cap ?? ""} />
            </Field>
            <Field
              id="startsAt"
              label="Opens"
              hint={
                <>
                  Optional. <TimeZoneHint />
                </>
              }
              error={errors.startsAt}
            >
              <DateTimeInput id="startsAt" error={errors.startsAt} value={dateValue(values.startsAt)} />
            </Field>
            <Field
              id="endsAt"
              label="Closes"
              hint={
                <>
                  Optional. <TimeZoneHint />
                </>
              }
              error={errors.endsAt}
            >
              <DateTimeInput id="endsAt" error={errors.endsAt} value={dateValue(values.endsAt)} />
            </Field>
          </div>
          <div className="grid items-start gap-5 sm:grid-cols-2">
            <Field id="campaignId" label="Campaign" hint="Optional. The task then counts toward the campaign." error={errors.campaignId}>
              <Select {...fieldProps("campaignId", errors.campaignId)} defaultValue={values.campaignId ?? ""}>
                <option value="">No campaign</option>
                {campaigns.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.status})
                  </option>
                ))}
              </Select>
            </Field>
            {(airdrops.length > 0 || values.airdropId) && (
              <Field
                id="airdropId"
                label="Airdrop"
                hint="Optional. Its XP then also counts as points on the airdrop's board while it runs. A task is in one campaign or one airdrop."
                error={errors.airdropId}
              >
                <Select {...fieldProps("airdropId", errors.airdropId)} defaultValue={values.airdropId ?? ""}>
                  <option value="">No airdrop</option>
                  {airdrops.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} ({a.status})
                    </option>
                  ))}
                </Select>
              </Field>
            )}
          </div>
          <CheckboxField
            name="published"
            label="Published"
            defaultChecked={values.published === "on"}
            hint="Members see and do published tasks. A draft is seen only by the project's team."
          />
        </CardContent>
      </Card>

      <FormActions submitLabel={submitLabel} pending={navigation.state === "submitting"} cancelTo={cancelTo} />
    </Form>
  );
}
