import { z } from "zod";
import type { FailureOnField, Ok } from "~/lib/result";
import type { TaskType } from "./task-types";

/** The one action each task type takes on its page: the form's `intent` and `attemptTask`'s input kind. */
export const ATTEMPT_KINDS = {
  visit_link: "visit",
  quiz: "answer",
  submit_text: "text",
  submit_url: "url",
  submit_image: "image",
  hold_token: "check",
  nft_hold: "check",
  // A pasted hash; "Find my transaction" (intent `find`) looks for it instead.
  contract_call: "transaction",
  // Found by the event scanner: the member only asks for the check.
  event_emitted: "check",
  wallet_activity: "check",
  wallet_connected: "check",
  referral: "check",
  // Checked through the provider's API (an X follow may also take reviewed proof: see PROOF).
  x_follow: "check",
  x_like: "check",
  x_repost: "check",
  x_post: "check",
  youtube_subscribe: "check",
  tiktok_post: "check",
  instagram_post: "check",
  // A screenshot or a link, reviewed by the team.
  tiktok_follow: "proof",
  instagram_follow: "proof",
  // The project's own server is asked when the member presses Check.
  api_check: "check",
  // Read through Discord with the member's token, or by the project's Telegram bot.
  discord_join: "check",
  discord_role: "check",
  telegram_join: "check",
} as const satisfies Record<TaskType, AttemptKind>;
export type AttemptKind = "visit" | "answer" | "text" | "url" | "image" | "check" | "proof" | "transaction" | "find";

/** The form field an attempt's refusal belongs to: the kind's own input, or the whole form for a visit or a check. */
export function attemptField(type: TaskType, kind: AttemptKind = ATTEMPT_KINDS[type]): AttemptField {
  // A pasted hash and "Find my transaction" answer on the hash's field.
  if (kind === "transaction" || kind === "find") return "txHash";
  return kind === "visit" || kind === "check" ? "form" : kind;
}
export type AttemptField = "answer" | "text" | "url" | "image" | "proof" | "txHash" | "form";

/** The task page's form. A text's length is the task's own rule, checked by `attemptTask`. */
export const attemptSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("visit") }),
  z.object({ intent: z.literal("answer"), answer: z.string().trim().min(1, "Enter your answer").max(200, "Keep the answer under 200 characters") }),
  z.object({ intent: z.literal("text"), text: z.string().default("") }),
  z.object({ intent: z.literal("url"), url: z.string().trim().min(1, "Enter the link") }),
  z.object({ intent: z.literal("image"), image: z.instanceof(File, { error: "Choose an image" }) }),
  z.object({ intent: z.literal("check") }),
  z.object({
    intent: z.literal("transaction"),
    txHash: z
      .string()
      .trim()
      .regex(/^0x[0-9a-fA-F]{64}$/, "Paste the transaction's hash: 0x and 64 hexadecimal characters"),
  }),
  z.object({ intent: z.literal("find") }),
  // A screenshot, a link, or both; at least one (checked by attemptFromForm, which stores the image).
  z.object({
    intent: z.literal("proof"),
    proofUrl: z.string().trim().max(2000, "Keep the link under 2000 characters").default(""),
    image: z.instanceof(File).optional(),
  }),
]);

/**
 * What the task page's form gets back (attemptFromForm). Every refusal is shown on the task's
 * field, with the quiz's wait and what the member typed; its code says how it is answered (a
 * wrong input 400, a check that found the task not done yet 200).
 */
export type AttemptOutcome = Ok<{ status: "approved" | "pending"; xpAwarded: number }> | (FailureOnField & { value?: string });
