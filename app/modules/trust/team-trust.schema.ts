import { z } from "zod";

/** The team's trust forms, shared by the forms and the actions that read them. */

const reason = z
  .string({ error: "Say why, in a few words" })
  .trim()
  .min(3, "Say why in at least 3 characters: the member reads it")
  .max(500, "Keep the reason to 500 characters");

/** Where the members are kept out: `project`, `pool:<id>` or `airdrop:<id>` (one of the options the page lists). */
const target = z
  .string({ error: "Choose what to exclude them from" })
  .regex(/^(project|(pool|airdrop):[\w-]{1,100})$/, "Choose what to exclude them from")
  .transform((value) => {
    const [scope, scopeId = ""] = value.split(":") as ["project" | "pool" | "airdrop", string?];
    return { scope, scopeId };
  });

export const excludeSchema = z
  .object({
    intent: z.literal("exclude"),
    target,
    /** One member, or every participant of one cluster. */
    userId: z.string().trim().max(100).optional(),
    clusterId: z.string().trim().max(100).optional(),
    reason,
  })
  .refine((v) => Boolean(v.userId) !== Boolean(v.clusterId), { path: ["form"], message: "Exclude one member or one cluster" });

export const liftSchema = z.object({
  intent: z.literal("lift"),
  exclusionId: z.string().trim().min(1, "Choose the exclusion to lift").max(100),
  reason,
});

export const teamTrustSchema = z.discriminatedUnion("intent", [excludeSchema, liftSchema], { error: "Choose an action" });
export type TeamTrustForm = z.infer<typeof teamTrustSchema>;

/** The value of a target option in the form. */
export const targetValue = (t: { scope: string; scopeId: string }) => (t.scope === "project" ? "project" : `${t.scope}:${t.scopeId}`);

/** What an action answers the form (its own fetcher) that asked: its refusal, field by field, or done. */
export type TeamTrustActionData = { errors?: Record<string, string>; ok?: boolean };
