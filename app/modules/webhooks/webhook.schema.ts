import { z } from "zod";
import { invalidFields, ok, type FieldErrors } from "~/lib/result";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "~/modules/events/event-types";

/** The endpoint form, shared by the page and its action. Browser-safe. */

const EVENT_TYPE_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as [WebhookEventType, ...WebhookEventType[]];

export const endpointSchema = z.object({
  url: z.string().trim().min(1, "Enter the URL to send events to").max(2000, "At most 2,000 characters"),
  description: z.string().trim().max(300, "At most 300 characters").default(""),
  eventTypes: z
    .array(z.enum(EVENT_TYPE_NAMES, { error: "Choose events from the list" }))
    .min(1, "Choose at least one event")
    .transform((types) => [...new Set(types)]),
});
export type EndpointInput = z.infer<typeof endpointSchema>;

/** The form's fields as the schema takes them: the ticked event types come as several `eventTypes` values. */
export function endpointFormValues(formData: FormData) {
  return {
    url: String(formData.get("url") ?? ""),
    description: String(formData.get("description") ?? ""),
    eventTypes: formData.getAll("eventTypes").map(String),
  };
}

/** The endpoint form parsed, or its field errors (the first of each field; an event type's under `eventTypes`). */
export function parseEndpointForm(formData: FormData) {
  const parsed = endpointSchema.safeParse(endpointFormValues(formData));
  if (parsed.success) return ok({ data: parsed.data });
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return invalidFields(errors);
}

/** The type of the test event the Send test event button delivers. */
export const TEST_EVENT_TYPE = "webhook.test";

/** At most this many endpoints per project. */
export const MAX_ENDPOINTS_PER_PROJECT = 10;
