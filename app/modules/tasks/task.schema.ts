import { z } from "zod";
import { FORM_DATE_RANGE_MESSAGE, isFormDate } from "./local-datetime";
import { TASK_TYPES, type TaskType } from "./task-types";

/** Each task type's settings, as stored in `task.config`. */
export const taskConfigSchemas = {
  visit_link: z.object({ url: z.url({ protocol: /^https?$/, error: "Enter the link to visit" }) }),
  quiz: z.object({
    question: z.string().trim().min(3, "Write the question").max(500),
    answers: z.array(z.string().trim().min(1).max(200)).min(1, "Give at least one accepted answer").max(20),
    retryDelaySeconds: z.number().int().min(0).max(86_400).default(0),
  }),
  submit_text: z.object({ prompt: z.string().trim().max(500).default(""), minLength: z.number().int().min(1).max(5000).default(1) }),
  submit_url: z.object({ prompt: z.string().trim().max(500).default("") }),
  submit_image: z.object({ prompt: z.string().trim().max(500).default("") }),
  hold_token: z.object({
    chainId: z.number().int().positive(),
    /** Null for the chain's native coin. */
    tokenAddress: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "Enter a 0x token address, or leave it empty for the native coin")
      .nullable(),
    /** The minimum balance in the token's smallest unit, as a decimal string. */
    minBalance: z.string().regex(/^\d{1,78}$/, "Enter a whole amount"),
    symbol: z.string().trim().max(12).default(""),
    decimals: z.number().int().min(0).max(36).default(18),
  }),
  wallet_connected: z.object({}),
  referral: z.object({ count: z.number().int().min(1, "At least 1").max(1000) }),
} satisfies Record<TaskType, z.ZodType>;

export type TaskConfig<T extends TaskType> = z.output<(typeof taskConfigSchemas)[T]>;

export const TASK_TYPE_LABELS: Record<TaskType, string> = {
  visit_link: "Visit a link",
  quiz: "Quiz",
  submit_text: "Submit text",
  submit_url: "Submit a link",
  submit_image: "Submit an image",
  hold_token: "Hold a token",
  wallet_connected: "Connect a wallet",
  referral: "Invite members",
};

/** Which verification modes make sense for each type. */
export const VERIFICATION_MODES: Record<TaskType, readonly ("auto" | "review" | "none")[]> = {
  visit_link: ["none"],
  quiz: ["auto"],
  submit_text: ["review", "none"],
  submit_url: ["review", "none"],
  submit_image: ["review"],
  hold_token: ["auto"],
  wallet_connected: ["auto"],
  referral: ["auto"],
};

const optionalDate = z
  .string()
  .trim()
  .transform((v) => (v === "" ? null : new Date(v)))
  .refine((d) => d === null || !Number.isNaN(d.getTime()), "Enter a valid date and time")
  .refine((d) => d === null || isFormDate(d), FORM_DATE_RANGE_MESSAGE);

const optionalInt = (message: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : Number(v)))
    .refine((n) => n === null || (Number.isInteger(n) && n >= 1), message);

/** The task form's common fields; the type's own fields are parsed by `taskConfigSchemas`. */
export const taskFormSchema = z
  .object({
    title: z.string().trim().min(3, "A title has at least 3 characters").max(120, "Keep the title under 120 characters"),
    description: z.string().trim().max(2000).default(""),
    type: z.enum(TASK_TYPES, { error: "Choose a task type" }),
    xp: z.coerce.number({ error: "Enter the XP" }).int("XP is a whole number").min(1, "At least 1 XP").max(100_000, "At most 100,000 XP"),
    verification: z.enum(["auto", "review", "none"]),
    recurrence: z.enum(["once", "daily"]).default("once"),
    startsAt: optionalDate,
    endsAt: optionalDate,
    cap: optionalInt("The cap is a whole number of at least 1"),
    campaignId: z
      .string()
      .trim()
      .transform((v) => v || null),
    airdropId: z
      .string()
      .trim()
      .default("")
      .transform((v) => v || null),
  })
  .superRefine((v, ctx) => {
    if (!VERIFICATION_MODES[v.type].includes(v.verification)) {
      ctx.addIssue({
        code: "custom",
        path: ["verification"],
        message: `"${TASK_TYPE_LABELS[v.type]}" tasks are verified: ${VERIFICATION_MODES[v.type].join(" or ")}`,
      });
    }
    if (v.startsAt && v.endsAt && v.endsAt <= v.startsAt) {
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "The end comes after the start" });
    }
    // A task belongs to one container: its XP counts toward one campaign or one airdrop.
    if (v.campaignId && v.airdropId) {
      ctx.addIssue({ code: "custom", path: ["airdropId"], message: "A task counts toward one campaign or one airdrop: choose one of them" });
    }
  });

/** Reads the type's own fields from a submitted form (`config.*` names). */
export function parseTaskConfig(type: TaskType, form: FormData) {
  const get = (name: string) => String(form.get(`config.${name}`) ?? "").trim();
  const raw: Record<TaskType, () => unknown> = {
    visit_link: () => ({ url: get("url") }),
    quiz: () => ({
      question: get("question"),
      answers: get("answers")
        .split("\n")
        .map((a) => a.trim())
        .filter(Boolean),
      retryDelaySeconds: Number(get("retryDelaySeconds") || 0),
    }),
    submit_text: () => ({ prompt: get("prompt"), minLength: Number(get("minLength") || 1) }),
    submit_url: () => ({ prompt: get("prompt") }),
    submit_image: () => ({ prompt: get("prompt") }),
    hold_token: () => ({
      chainId: Number(get("chainId")),
      tokenAddress: get("tokenAddress") || null,
      minBalance: get("minBalance"),
      symbol: get("symbol"),
      decimals: Number(get("decimals") || 18),
    }),
    wallet_connected: () => ({}),
    referral: () => ({ count: Number(get("count")) }),
  };
  return taskConfigSchemas[type].safeParse(raw[type]());
}

/** Quiz answers match ignoring case and spaces. */
export function normalizeAnswer(answer: string) {
  return answer.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
}

export const rejectSchema = z.object({ reason: z.string().trim().min(3, "Say why, so the member can do better").max(500) });
