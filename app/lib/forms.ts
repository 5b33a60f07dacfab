import type { z } from "zod";
import { normalizeLineBreaks } from "./form-text";

export type FieldErrors = Record<string, string>;

/**
 * Parses a submitted form with its schema; on failure, the first message of each field. Text
 * fields have their line breaks made LF first, so lengths count as the browser's field did.
 * (Forms with control characters never get here: see form-body.server.ts.)
 */
export function parseForm<S extends z.ZodType>(schema: S, formData: FormData): { ok: true; data: z.infer<S> } | { ok: false; errors: FieldErrors } {
  const values: Record<string, unknown> = {};
  for (const [key, value] of formData) values[key] = typeof value === "string" ? normalizeLineBreaks(value) : value;
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "form";
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** A form field as text ("" when absent), its line breaks made LF. */
export const formText = (formData: FormData, name: string) => normalizeLineBreaks(String(formData.get(name) ?? ""));
