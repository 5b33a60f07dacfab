import { z } from "zod";
import type { FieldFailure, Ok } from "~/lib/result";
import type { TaskType } from "./task-types";

/** The one action each task type takes on its page: the form's `intent` and `attemptTask`'s input kind. */
export const ATTEMPT_KINDS = {
  visit_link: "visit",
  quiz: "answer",
  submit_text: "text",
  submit_url: "url",
  submit_image: "image",
  hold_token: "check",
  wallet_connected: "check",
  referral: "check",
} as const satisfies Record<TaskType, "visit" | "answer" | "text" | "url" | "image" | "check">;

/** The form field an attempt's refusal belongs to: the kind's own input, or the whole form for a visit or a check. */
export function attemptField(type: TaskType): AttemptField {
  const kind = ATTEMPT_KINDS[type];
  return kind === "visit" || kind === "check" ? "form" : kind;
}
export type AttemptField = "answer" | "text" | "url" | "image" | "form";

/** The task page's form. A text's length is the task's own rule, checked by `attemptTask`. */
export const attemptSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("visit") }),
  z.object({ intent: z.literal("answer"), answer: z.string().trim().min(1, "Enter your answer").max(200, "Keep the answer under 200 characters") }),
  z.object({ intent: z.literal("text"), text: z.string().default("") }),
  z.object({ intent: z.literal("url"), url: z.string().trim().min(1, "Enter the link") }),
  z.object({ intent: z.literal("image"), image: z.instanceof(File, { error: "Choose an image" }) }),
  z.object({ intent: z.literal("check") }),
]);

/**
 * What the task page's form gets back (attemptFromForm). Every refusal is the form's: its message
 * on the task's field (answered 400), with the quiz's wait and what the member typed.
 */
export type AttemptOutcome = Ok<{ status: "approved" | "pending"; xpAwarded: number }> | (FieldFailure & { retryAfterSeconds?: number; value?: string });
