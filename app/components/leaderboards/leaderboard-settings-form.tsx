import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

export type LeaderboardSettingsValues = { visible: boolean; displayName: string };

/** Settings › Leaderboard: visibility on public boards and the name shown on them. */
export function LeaderboardSettingsForm({
  values,
  profileName,
  errors,
  pending,
}: {
  values: LeaderboardSettingsValues;
  profileName: string;
  errors: Record<string, string>;
  pending: boolean;
}) {
  return (
    <Form method="post" className="grid gap-6" noValidate>
      <div className="flex items-start gap-3 rounded-lg border p-4">
        <input
          id="visible"
          name="visible"
          type="checkbox"
          defaultChecked={values.visible}
          aria-describedby="visible-hint"
          className="mt-0.5 size-4 shrink-0 accent-lime-600 dark:accent-brand"
        />
        <div className="grid gap-1.5">
          <label htmlFor="visible" className="text-sm leading-none font-medium">
            Show me on public leaderboards
          </label>
          <p id="visible-hint" className="text-sm text-muted-foreground">
            When this is off, other members and visitors do not see you on any board. You still see your own rank, the place you would have, and you keep
            earning XP.
          </p>
        </div>
      </div>
      <Field
        id="displayName"
        label="Name on leaderboards"
        hint={
          profileName
            ? `2–30 characters. Leave it empty to use your profile name, ${profileName}.`
            : "2–30 characters. Leave it empty to use your profile name."
        }
        error={errors.displayName}
      >
        <Input {...fieldProps("displayName", errors.displayName)} defaultValue={values.displayName} autoComplete="off" className="max-w-sm" />
      </Field>
      <Button type="submit" className="w-fit" pending={pending}>
        Save leaderboard settings
      </Button>
    </Form>
  );
}
