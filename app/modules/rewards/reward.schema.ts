import { z } from "zod";
import type { Distribution } from "#db/schema/rewards";

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

const winners = whole("how many members win", MAX_WINNERS);
const perWinner = whole("the XP each winner gets", MAX_XP_PER_WINNER);

/** "500, 300, 200" or one per line: XP for rank 1, 2, 3…; the last amount goes on for the ranks after it. */
const rankAmounts = z
  .string({ error: "Enter the XP for each rank" })
  .trim()
  .min(1, "Enter the XP for each rank")
  .transform((v, ctx) => {
    const parts = v.split(/[\s,;]+/).filter(Boolean);
    const problem = !parts.every((p) => /^\d+$/.test(p))
      ? "Write each rank's XP as a whole number, separated by commas"
      : parts.length > MAX_RANK_AMOUNTS
        ? `List at most ${MAX_RANK_AMOUNTS} amounts; the last one goes on for the ranks after it`
        : parts.some((p) => Number(p) < 1 || Number(p) > MAX_XP_PER_WINNER)
          ? `Each rank gets from 1 to ${MAX_XP_PER_WINNER.toLocaleString("en")} XP`
          : parts.some((p, i) => i > 0 && Number(p) > Number(parts[i - 1]))
            ? "A better rank gets at least as much XP as the ranks after it"
            : null;
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return parts.map(Number);
  });

const DISTRIBUTION_ERROR = "Choose how the reward is shared";

/** The reward form (create and edit). Only XP pools exist; token pools come later as a new `kind`. */
export const rewardPoolSchema = z
  .discriminatedUnion(
    "distribution",
    [
      z.object({ distribution: z.literal("fcfs"), winners, amount: perWinner }),
      z.object({ distribution: z.literal("raffle"), winners, amount: perWinner }),
      z.object({ distribution: z.literal("ranking"), winners, rankAmounts }),
      z.object({ distribution: z.literal("everyone"), total: whole("the XP to split", MAX_XP_TOTAL) }),
    ],
    { error: DISTRIBUTION_ERROR },
  )
  .superRefine((v, ctx) => {
    if (v.distribution === "ranking" && v.rankAmounts.length > v.winners) {
      ctx.addIssue({ code: "custom", path: ["rankAmounts"], message: `List at most ${v.winners} amounts: one per winning rank` });
    }
  })
  .transform((v): RewardPoolInput => {
    switch (v.distribution) {
      case "fcfs":
      case "raffle":
        return { distribution: v.distribution, winners: v.winners, amount: v.amount, rankAmounts: null };
      case "ranking":
        return { distribution: "ranking", winners: v.winners, amount: null, rankAmounts: v.rankAmounts };
      case "everyone":
        return { distribution: "everyone", winners: null, amount: v.total, rankAmounts: null };
    }
  });

/** A pool as stored: `amount` is per winner, or the total for `everyone`; `rankAmounts` only for `ranking`. */
export type RewardPoolInput = {
  distribution: Distribution;
  winners: number | null;
  amount: number | null;
  rankAmounts: number[] | null;
};

export const DISTRIBUTION_LABELS: Record<Distribution, { title: string; description: string }> = {
  fcfs: { title: "First completers", description: "The first members to complete every task, in the order they finished." },
  raffle: { title: "Raffle", description: "Winners drawn at random among everyone who completed every task." },
  ranking: { title: "Leaderboard", description: "The top of the campaign's leaderboard, with XP by rank." },
  everyone: { title: "Everyone", description: "A total split equally among everyone who completed every task." },
};
