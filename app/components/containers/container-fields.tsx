import { useState } from "react";
import { DateTimeInput, TimeZoneHint, type DateValue } from "~/components/campaigns/date-time-input";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { slugify } from "~/modules/projects/project.schema";

/**
 * The name and the web address. On a new item the address follows the name (slugified) until
 * the member edits it; an existing address is never rewritten by a change of name.
 */
export function NameSlugFields({
  name,
  slug,
  errors,
  addressPrefix,
  follow,
}: {
  name: string;
  slug: string;
  errors: Record<string, string>;
  addressPrefix: string;
  follow: boolean;
}) {
  const [nameValue, setName] = useState(name);
  const [slugValue, setSlug] = useState(slug);
  const [slugEdited, setSlugEdited] = useState(!follow || (slug !== "" && slug !== slugify(name)));
  return (
    <>
      <Field id="name" label="Name" error={errors.name}>
        <Input
          {...fieldProps("name", errors.name)}
          value={nameValue}
          onChange={(e) => {
            setName(e.target.value);
            if (!slugEdited) setSlug(slugify(e.target.value));
          }}
          maxLength={80}
          autoComplete="off"
        />
      </Field>
      <Field id="slug" label="Address" hint={`${addressPrefix}${slugValue || "…"}`} error={errors.slug}>
        <Input
          {...fieldProps("slug", errors.slug)}
          value={slugValue}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugEdited(e.target.value !== "");
          }}
          maxLength={48}
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
    </>
  );
}

/** The container's description. */
export function DescriptionField({ value, error, hint, rows = 4 }: { value: string; error?: string; hint?: string; rows?: number }) {
  return (
    <Field id="description" label="Description" hint={hint} error={error}>
      <Textarea {...fieldProps("description", error)} defaultValue={value} rows={rows} maxLength={4000} />
    </Field>
  );
}

/** Name, web address and description: what every container's form starts with. */
export function ContainerBasics({
  defaults,
  errors,
  addressPrefix,
  isNew,
  descriptionHint,
  descriptionRows,
}: {
  defaults: { name: string; slug: string; description: string };
  errors: Record<string, string>;
  addressPrefix: string;
  isNew: boolean;
  descriptionHint?: string;
  descriptionRows?: number;
}) {
  return (
    <>
      <NameSlugFields name={defaults.name} slug={defaults.slug} errors={errors} addressPrefix={addressPrefix} follow={isNew} />
      <DescriptionField value={defaults.description} error={errors.description} hint={descriptionHint} rows={descriptionRows} />
    </>
  );
}

/** When a container runs: starts and ends, typed in the member's time zone. */
export function WindowFields({ startsAt, endsAt, errors }: { startsAt: DateValue; endsAt: DateValue; errors: Record<string, string> }) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field id="startsAt" label="Starts" hint={<TimeZoneHint />} error={errors.startsAt}>
        <DateTimeInput id="startsAt" error={errors.startsAt} value={startsAt} />
      </Field>
      <Field id="endsAt" label="Ends" error={errors.endsAt}>
        <DateTimeInput id="endsAt" error={errors.endsAt} value={endsAt} />
      </Field>
    </div>
  );
}
