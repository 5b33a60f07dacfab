import type { z } from "zod";
import { normalizeLineBreaks } from "./form-text";
import { invalidFields, ok, type FieldErrors, type FieldFailure, type Ok } from "./result";

export type { FieldErrors } from "./result";

/**
 * Parses a submitted form with its schema; on failure, the first message of each field. Text
 * fields have their line breaks made LF first, so lengths count as the browser's field did.
 * (Forms with control characters never get here: see form-body.server.ts.)
 */
export function parseForm<S extends z.ZodType>(schema: S, formData: FormData): Ok<{ data: z.infer<S> }> | FieldFailure {
  const values: Record<string, unknown> = {};
  for (const [key, value] of formData) values[key] = typeof value === "string" ? normalizeLineBreaks(value) : value;
  return parseInput(schema, values);
}

/** Parses a form's values already read (a domain function's `input`) with its schema; on failure, the first message of each field. */
export function parseInput<S extends z.ZodType>(schema: S, values: unknown): Ok<{ data: z.infer<S> }> | FieldFailure {
  const parsed = schema.safeParse(values);
  if (parsed.success) return ok({ data: parsed.data as z.infer<S> });
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "form";
    errors[key] ??= issue.message;
  }
  return invalidFields(errors);
}

/** A form field as text ("" when absent), its line breaks made LF. */
export const formText = (formData: FormData, name: string) => normalizeLineBreaks(String(formData.get(name) ?? ""));
