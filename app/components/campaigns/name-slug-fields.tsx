import { useState } from "react";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
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
