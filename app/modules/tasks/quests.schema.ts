import { z } from "zod";
import { addressField } from "~/modules/projects/project.schema";
import { FORM_DATE_RANGE_MESSAGE, isFormDate } from "./local-datetime";

/** A date-time field of a quest form (campaign, airdrop). */
export const dateField = (message: string) =>
  z
    .string()
    .trim()
    .min(1, message)
    .transform((v) => new Date(v))
    .refine((d) => !Number.isNaN(d.getTime()), message)
    .refine(isFormDate, FORM_DATE_RANGE_MESSAGE);

/** The "published" checkbox. */
export const publishedField = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");

export const campaignSchema = z
  .object({
    name: z.string().trim().min(3, "A name has at least 3 characters").max(80, "Keep the name under 80 characters"),
    slug: addressField,
    description: z.string().trim().max(4000, "Keep the description under 4000 characters").default(""),
    startsAt: dateField("Enter when it starts"),
    endsAt: dateField("Enter when it ends"),
    published: publishedField,
  })
  .refine((v) => v.endsAt > v.startsAt, { path: ["endsAt"], message: "The end comes after the start" });
export type CampaignInput = z.output<typeof campaignSchema>;

export const crusadeSchema = z.object({
  name: z.string().trim().min(3, "A name has at least 3 characters").max(80, "Keep the name under 80 characters"),
  slug: addressField,
  description: z.string().trim().max(4000).default(""),
  bonusXp: z.coerce.number({ error: "Enter the bonus XP" }).int("A whole number").min(0, "Zero or more").max(100_000),
  published: publishedField,
  /** Task ids in order, one per line or comma-separated. */
  taskIds: z
    .string()
    .default("")
    .transform((v) => v.split(/[\s,]+/).filter(Boolean)),
});
export type CrusadeInput = z.output<typeof crusadeSchema>;
