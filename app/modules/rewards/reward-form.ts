import type { Distribution } from "#db/schema/rewards";
import { formText, parseForm } from "~/lib/forms";
import { rewardPoolSchema, type RewardPoolInput } from "./reward.schema";

/** What the reward form sent, as typed, to show again beside its errors. */
export type RewardPoolValues = { distribution: string; winners: string; amount: string; total: string; rankAmounts: string };


/** The reward form: its values as typed and the parsed input. */
export function parseRewardForm(formData: FormData) {
  const values: RewardPoolValues = {
    distribution: formText(formData, "distribution"),
    winners: formText(formData, "winners"),
    amount: formText(formData, "amount"),
    total: formText(formData, "total"),
    rankAmounts: formText(formData, "rankAmounts"),
  };
  return { values, form: parseForm(rewardPoolSchema, formData) };
}

/** A stored pool as the form's fields. */
export function rewardPoolValues(pool: RewardPoolInput): RewardPoolValues {
  const distribution: Distribution = pool.distribution;
  return {
    distribution,
    winners: pool.winners?.toString() ?? "",
    amount: distribution === "everyone" ? "" : (pool.amount?.toString() ?? ""),
    total: distribution === "everyone" ? (pool.amount?.toString() ?? "") : "",
    rankAmounts: pool.rankAmounts?.join(", ") ?? "",
  };
}
