import { z } from "zod";
import { MAX_TOKEN_UNITS, MAX_TOKENS_TEXT, readTokenAmount, TOO_LARGE_WORDS } from "~/lib/token-amounts";
import type { Asset } from "~/modules/ledger/assets";
import { addressField } from "~/modules/projects/project.schema";
import { dateField, publishedField } from "~/modules/tasks/quests.schema";
import { AIRDROP_RULES } from "./airdrop-types";

/** The most ranks a `top` airdrop pays by name. */
export const MAX_AIRDROP_RANKS = 1_000;
/** A claim window shorter than this would close before most members see the airdrop ended. */
export const MIN_CLAIM_WINDOW_MS = 24 * 60 * 60 * 1000;

const tokens = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter ${what}`)
    .transform((text, ctx) => {
      const value = readTokenAmount(text);
      if (typeof value === "bigint") return value;
      const problem = value === "too-large" ? TOO_LARGE_WORDS : "a number above 0, like 1000 or 2.5 (at most 18 decimals)";
      ctx.addIssue({ code: "custom", message: `Enter ${what}: ${problem}` });
      return z.NEVER;
    });

const rankAmounts = z
  .string()
  .default("")
  .transform((text, ctx) => {
    const parts = text.split(/[\s,;]+/).filter(Boolean);
    if (parts.length === 0) {
      ctx.addIssue({ code: "custom", message: "Enter the amount of each rank, best first, like 500, 300, 200" });
      return z.NEVER;
    }
    if (parts.length > MAX_AIRDROP_RANKS) {
      ctx.addIssue({ code: "custom", message: `Pay at most ${MAX_AIRDROP_RANKS.toLocaleString("en")} ranks by name` });
      return z.NEVER;
    }
    const values = parts.map((part) => readTokenAmount(part));
    const bad = values.findIndex((value) => typeof value !== "bigint");
    if (bad >= 0) {
      const shown = parts[bad]!.length > 24 ? `${parts[bad]!.slice(0, 24)}…` : parts[bad];
      const problem = values[bad] === "too-large" ? `is more than a token can count (at most ${MAX_TOKENS_TEXT})` : "is not a number above 0";
      ctx.addIssue({ code: "custom", message: `Rank ${bad + 1}'s amount "${shown}" ${problem}` });
      return z.NEVER;
    }
    const amounts = values as bigint[];
    if (amounts.reduce((sum, amount) => sum + amount, 0n) > MAX_TOKEN_UNITS) {
      ctx.addIssue({ code: "custom", message: `The ranks' amounts add up to more than ${MAX_TOKENS_TEXT}, the most a token can count` });
      return z.NEVER;
    }
    return amounts;
  });

/** An airdrop's form: `total` for `pro_rata`, `rankAmounts` for `top` (the total is their sum). */
export const airdropSchema = z
  .object({
    name: z.string().trim().min(3, "A name has at least 3 characters").max(80, "Keep the name under 80 characters"),
    slug: addressField,
    description: z.string().trim().max(4000, "Keep the description under 4000 characters").default(""),
    asset: z
      .string("Choose the token the airdrop pays")
      .regex(/^[A-Z][A-Z0-9]{1,11}:[1-9]\d{0,11}$/, "Choose the token the airdrop pays")
      .transform((value) => value as Asset),
    rule: z.enum(AIRDROP_RULES, "Choose how the total is shared"),
    total: z.string().default(""),
    rankAmounts: z.string().default(""),
    minPoints: z
      .string()
      .trim()
      .default("0")
      .transform((v) => (v === "" ? 0 : Number(v)))
      .pipe(z.number("Enter the points needed, like 100").int("A whole number, like 100").min(0, "Zero or more").max(1_000_000_000, "At most 1,000,000,000")),
    startsAt: dateField("Enter when it starts"),
    endsAt: dateField("Enter when it ends"),
    claimDeadline: dateField("Enter when claims close"),
    published: publishedField,
  })
  .superRefine((v, ctx) => {
    // A date that did not parse is reported on its own field (zod runs this check anyway): compare only real dates.
    const dated = (d: unknown): d is Date => d instanceof Date && !Number.isNaN(d.getTime());
    if (dated(v.startsAt) && dated(v.endsAt) && v.endsAt <= v.startsAt)
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "The end comes after the start" });
    if (dated(v.endsAt) && dated(v.claimDeadline) && v.claimDeadline.getTime() < v.endsAt.getTime() + MIN_CLAIM_WINDOW_MS) {
      ctx.addIssue({ code: "custom", path: ["claimDeadline"], message: "Claims close at least a day after the end" });
    }
    // The amounts are checked here too, so a form with bad dates also hears about its amounts.
    const amounts = amountsOf(v);
    if (amounts && !amounts.parsed.success) ctx.addIssue({ code: "custom", path: [amounts.field], message: amounts.parsed.error.issues[0]!.message });
  })
  .transform((v, ctx) => {
    const { total: _total, rankAmounts: _ranks, ...rest } = v;
    const amounts = amountsOf(v)!;
    if (!amounts.parsed.success) {
      ctx.addIssue({ code: "custom", path: [amounts.field], message: amounts.parsed.error.issues[0]!.message });
      return z.NEVER;
    }
    if (amounts.field === "total") return { ...rest, total: amounts.parsed.data as bigint, rankAmounts: null };
    const ranks = amounts.parsed.data as bigint[];
    return { ...rest, total: ranks.reduce((sum, amount) => sum + amount, 0n), rankAmounts: ranks };
  });

/**
 * What is wrong with the rule's amounts field as typed, or null: for a form refused on other
 * fields before the schema's own check of the amounts ran (an empty date stops it).
 */
export function amountsError(v: { rule?: string; total?: string; rankAmounts?: string }): { field: "total" | "rankAmounts"; message: string } | null {
  const amounts = amountsOf(v);
  return amounts && !amounts.parsed.success ? { field: amounts.field, message: amounts.parsed.error.issues[0]!.message } : null;
}

/** The rule's amounts field parsed: the total (pro rata) or each rank's amount (top); null without a rule. */
function amountsOf(v: { rule?: string; total?: string; rankAmounts?: string }) {
  if (v.rule === "pro_rata") return { field: "total" as const, parsed: tokens("the total").safeParse(v.total ?? "") };
  if (v.rule === "top") return { field: "rankAmounts" as const, parsed: rankAmounts.safeParse(v.rankAmounts ?? "") };
  return null;
}
export type AirdropInput = z.output<typeof airdropSchema>;
