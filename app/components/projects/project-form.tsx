import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Card, CardContent } from "~/components/ui/card";
import { Field, fieldProps } from "~/components/ui/field";
import { ImageInput } from "~/components/ui/image-input";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { FormActions } from "~/components/ui/form-parts";
import { slugify } from "~/modules/projects/project.schema";
import { ProjectLogo } from "./project-logo";

export const PROJECT_FIELDS = ["name", "slug", "description", "categoryId", "website", "xUrl", "discordUrl", "telegramUrl"] as const;
export type ProjectFormValues = Record<(typeof PROJECT_FIELDS)[number], string>;

/** What a submitted project form held, to show it again next to its errors. */
export function projectFormValues(formData: FormData): ProjectFormValues {
  return Object.fromEntries(PROJECT_FIELDS.map((f) => [f, String(formData.get(f) ?? "")])) as ProjectFormValues;
}

/** The logo and banner files of a submitted project form (null when none was chosen). */
export function projectFormImages(formData: FormData) {
  const file = (name: string) => {
    const value = formData.get(name);
    return value instanceof File && value.size > 0 ? value : null;
  };
  return { logo: file("logo"), banner: file("banner") };
}

/**
 * The Create and Edit form. The address (slug) follows the name until the member edits it; on
 * Edit it is left alone, since changing it changes the project's links.
 */
export function ProjectForm({
  initial,
  errors = {},
  categories,
  current,
  submitLabel,
  cancelTo,
}: {
  initial: ProjectFormValues;
  errors?: Record<string, string>;
  categories: { id: number; name: string }[];
  /** The project's images when editing. */
  current?: { name: string; logoUrl: string | null; bannerUrl: string | null };
  submitLabel: string;
  cancelTo: string;
}) {
  const navigation = useNavigation();
  const [name, setName] = useState(initial.name);
  const [slug, setSlug] = useState(initial.slug);
  const [slugEdited, setSlugEdited] = useState(Boolean(current) || (initial.slug !== "" && initial.slug !== slugify(initial.name)));

  return (
    <Card>
      <CardContent>
        <Form method="post" encType="multipart/form-data" className="grid gap-5" noValidate>
          <Field id="name" label="Name" error={errors.name}>
            <Input
              {...fieldProps("name", errors.name)}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                if (!slugEdited) setSlug(slugify(event.target.value));
              }}
              maxLength={60}
              autoComplete="off"
              required
            />
          </Field>
          <Field id="slug" label="Address" hint={`Lowercase letters, digits and hyphens: /projects/${slug || "your-project"}`} error={errors.slug}>
            <Input
              {...fieldProps("slug", errors.slug)}
              value={slug}
              onChange={(event) => {
                setSlug(event.target.value);
                setSlugEdited(true);
              }}
              maxLength={48}
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              required
            />
          </Field>
          <Field id="description" label="Description" hint="What the project is and why members should join it." error={errors.description}>
            <Textarea {...fieldProps("description", errors.description)} defaultValue={initial.description} maxLength={2000} rows={5} />
          </Field>
          <Field id="categoryId" label="Category" error={errors.categoryId}>
            <Select {...fieldProps("categoryId", errors.categoryId)} defaultValue={initial.categoryId}>
              <option value="">No category</option>
              {categories.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </Select>
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <ImageInput id="logo" label="Logo" hint="Square, PNG, JPEG, GIF or WebP, up to 2 MB." error={errors.logo}>
              {current && <ProjectLogo name={current.name} logoUrl={current.logoUrl} className="size-10" />}
            </ImageInput>
            <ImageInput id="banner" label="Banner" hint="Wide (about 4:1), up to 2 MB." error={errors.banner}>
              {current?.bannerUrl && <img src={current.bannerUrl} alt="" className="h-10 w-24 shrink-0 rounded-md border object-cover" />}
            </ImageInput>
          </div>
          <fieldset className="grid gap-5 sm:grid-cols-2">
            <legend className="mb-3 text-sm font-medium">Links (optional)</legend>
            <LinkField id="website" label="Website" placeholder="https://example.com" value={initial.website} error={errors.website} />
            <LinkField id="xUrl" label="X" placeholder="https://x.com/yourproject" value={initial.xUrl} error={errors.xUrl} />
            <LinkField id="discordUrl" label="Discord" placeholder="https://discord.gg/invite" value={initial.discordUrl} error={errors.discordUrl} />
            <LinkField id="telegramUrl" label="Telegram" placeholder="https://t.me/yourproject" value={initial.telegramUrl} error={errors.telegramUrl} />
          </fieldset>
          {errors.form && (
            <p className="text-sm text-destructive" role="alert">
              {errors.form}
            </p>
          )}
          <FormActions submitLabel={submitLabel} pending={navigation.state === "submitting" && !navigation.formData?.has("intent")} cancelTo={cancelTo} brand />
        </Form>
      </CardContent>
    </Card>
  );
}

function LinkField({ id, label, placeholder, value, error }: { id: string; label: string; placeholder: string; value: string; error?: string }) {
  return (
    <Field id={id} label={label} error={error}>
      <Input {...fieldProps(id, error)} type="url" inputMode="url" defaultValue={value} placeholder={placeholder} maxLength={300} autoComplete="url" />
    </Field>
  );
}
