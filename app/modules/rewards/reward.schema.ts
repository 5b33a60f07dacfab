import { z } from "zod";
import { MAX_TOKEN_UNITS, MAX_TOKENS_TEXT, readTokenAmount, TOO_LARGE_WORDS } from "~/lib/token-amounts";
import { assetSchema, QUEST_DECIMALS, type Asset } from "~/modules/ledger/assets";
import type { Distribution, RewardKind } from "./pool-types";

/** The most members one pool pays by name (first N, drawn, top N); `everyone` has no such limit. */
export const MAX_WINNERS = 10_000;
export const MAX_XP_PER_WINNER = 1_000_000;
export const MAX_XP_TOTAL = 100_000_000;
export const MAX_RANK_AMOUNTS = 100;

/** A whole number typed into a form field: `what` names it in the messages. */
const whole = (what: string, max: number) =>
  z
    .string({ error: `Enter ${what}` })
    .trim()
    .min(1, `Enter ${what}`)
    .regex(/^\d[\d,_ ]*$/, "Enter a whole number, like 100")
    .transform((v) => Number(v.replace(/[,_ ]/g, "")))
    .pipe(
      z
        .number()
        .int()
        .min(1, `Enter ${what}: at least 1`)
        .max(max, `Enter ${what}: at most ${max.toLocaleString("en")}`),
    );

/** How one kind's amounts are read: XP are whole numbers with limits, tokens decimals with up to the token's own places. */
type AmountRules = {
  unit: string;
  /** One amount, or the first thing wrong with it. */
  read: (text: string, max: number) => bigint | string;
};

const XP_RULES: AmountRules = {
  unit: "XP",
  read: (text, max) => {
    if (!/^\d+$/.test(text)) return "a whole number, like 100";
    const value = BigInt(text);
    if (value < 1n) return "at least 1";
    if (value > BigInt(max)) return `at most ${max.toLocaleString("en")}`;
    return value;
  },
};

/** Token amounts in the token's own `decimals` (USDC's 6: "2.5" is 2,500,000 units). */
const tokenRules = (decimals: number): AmountRules => ({
  unit: "tokens",
  read: (text) => {
    const value = readTokenAmount(text, decimals);
    if (value === "not-a-number") return `a number, like 10 or 2.5 (at most ${decimals} decimals)`;
    if (value === "not-positive") return "above 0";
    if (value === "too-large") return TOO_LARGE_WORDS;
    return value;
  },
});

/** One amount field: "Enter the XP each winner gets: from 1 to 1,000,000". */
const amountField = (rules: AmountRules, what: string, max: number) =>
  z
    .string({ error: `Enter ${what}` })
    .trim()
    .min(1, `Enter ${what}`)
    .transform((text, ctx) => {
      const value = rules.read(text.replace(/[,_ ]/g, ""), max);
      if (typeof value === "bigint") return value;
      ctx.addIssue({ code: "custom", message: `Enter ${what}: ${value}` });
      return z.NEVER;
    });

/** "500, 300, 200" or one per line: the amount for rank 1, 2, 3…; the last one goes on for the ranks after it. */
const rankAmountsField = (rules: AmountRules) =>
  z
    .string({ error: `Enter the ${rules.unit} for each rank` })
    .trim()
    .min(1, `Enter the ${rules.unit} for each rank`)
    .transform((v, ctx) => {
      const parts = v.split(/[\s,;]+/).filter(Boolean);
      const values = parts.map((p) => rules.read(p, MAX_XP_PER_WINNER));
      const bad = values.find((value) => typeof value === "string");
      const amounts = values.filter((value) => typeof value === "bigint");
      const problem =
        bad !== undefined
          ? `Each rank's ${rules.unit} must be ${bad} (separate the amounts with commas)`
          : parts.length > MAX_RANK_AMOUNTS
            ? `List at most ${MAX_RANK_AMOUNTS} amounts; the last one goes on for the ranks after it`
            : amounts.some((a, i) => i > 0 && a > amounts[i - 1]!)
              ? "A better rank gets at least as much as the ranks after it"
              : null;
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return amounts;
    });

const DISTRIBUTION_ERROR = "Choose how the reward is shared";

/** A pool as stored: `amount` is per winner, or the total for `everyone`, in XP or token base units; `rankAmounts` only for `ranking`. */
export type RewardPoolInput = {
  kind: RewardKind;
  asset: Asset | null;
  distribution: Distribution;
  winners: number | null;
  amount: bigint | null;
  rankAmounts: bigint[] | null;
};

/**
 * The reward form (create and edit) for one kind of pool: XP, or tokens of an asset whose amounts
 * are read in its `decimals` (QUEST's 18 unless given; the chain entry's token names them).
 */
export function rewardPoolSchemaFor(kind: RewardKind, decimals = QUEST_DECIMALS) {
  const rules = kind === "xp" ? XP_RULES : tokenRules(decimals);
  const winners = whole("how many members win", MAX_WINNERS);
  const perWinner = amountField(rules, `the ${rules.unit} each winner gets`, MAX_XP_PER_WINNER);
  const asset =
    kind === "token"
      ? z.string({ error: "Choose the token to pay" }).trim().min(1, "Choose the token to pay").pipe(assetSchema)
      : z
          .unknown()
          .optional()
          .transform(() => null);
  return z
    .discriminatedUnion(
      "distribution",
      [
        z.object({ distribution: z.literal("fcfs"), winners, amount: perWinner, asset }),
        z.object({ distribution: z.literal("raffle"), winners, amount: perWinner, asset }),
        z.object({ distribution: z.literal("ranking"), winners, rankAmounts: rankAmountsField(rules), asset }),
        z.object({ distribution: z.literal("everyone"), total: amountField(rules, `the ${rules.unit} to split`, MAX_XP_TOTAL), asset }),
      ],
      { error: DISTRIBUTION_ERROR },
    )
    .superRefine((v, ctx) => {
      if (v.distribution === "ranking" && v.rankAmounts.length > v.winners) {
        ctx.addIssue({ code: "custom", path: ["rankAmounts"], message: `List at most ${v.winners} amounts: one per winning rank` });
        return;
      }
      // A token pool escrows its maximum at once: winners × amount (or the ranks' sum) must fit a token amount too.
      if (kind === "token" && v.distribution !== "everyone") {
        const amounts = v.distribution === "ranking" ? { rankAmounts: v.rankAmounts, amount: null } : { amount: v.amount, rankAmounts: null };
        if (poolMaximum({ distribution: v.distribution, winners: v.winners, ...amounts }) > MAX_TOKEN_UNITS) {
          const [field, what] = v.distribution === "ranking" ? ["rankAmounts", "The winning ranks' amounts add"] : ["amount", "The winners' amounts add"];
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: `${what} up to more than ${MAX_TOKENS_TEXT}, the most a token can count: lower the amounts or the winners`,
          });
        }
      }
    })
    .transform((v): RewardPoolInput => {
      const common = { kind, asset: v.asset };
      switch (v.distribution) {
        case "fcfs":
        case "raffle":
          return { ...common, distribution: v.distribution, winners: v.winners, amount: v.amount, rankAmounts: null };
        case "ranking":
          return { ...common, distribution: "ranking", winners: v.winners, amount: null, rankAmounts: v.rankAmounts };
        case "everyone":
          return { ...common, distribution: "everyone", winners: null, amount: v.total, rankAmounts: null };
      }
    });
}

export const rewardPoolSchema = rewardPoolSchemaFor("xp");

/** What a pool may pay at most: its escrow for token pools (per-winner × winners, the ranks' sum, or the total). */
export function poolMaximum(p: Pick<RewardPoolInput, "distribution" | "winners" | "amount" | "rankAmounts">): bigint {
  switch (p.distribution) {
    case "fcfs":
    case "raffle":
      return p.amount! * BigInt(p.winners!);
    case "ranking":
      return Array.from({ length: p.winners! }, (_, i) => rankAmount(p.rankAmounts ?? [], i + 1)).reduce((a, b) => a + b, 0n);
    case "everyone":
      return p.amount!;
  }
}

/** The amount for a rank (1-based) of a ranking pool: ranks past the list's end get its last amount. */
export function rankAmount(amounts: readonly bigint[], rank: number): bigint {
  return amounts[Math.min(rank, amounts.length) - 1] ?? 0n;
}
