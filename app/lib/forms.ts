import type { z } from "zod";

export type FieldErrors = Record<string, string>;

/** Parses a submitted form with its schema; on failure, the first message of each field. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  formData: FormData,
): { ok: true; data: z.infer<S> } | { ok: false; errors: FieldErrors } {
  const values: Record<string, unknown> = {};
  for (const [key, value] of formData) values[key] = value;
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "form";
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** A form field as text ("" when absent). */
export const formText = (formData: FormData, name: string) => String(formData.get(name) ?? "");
