import { formText, parseForm } from "~/lib/forms";
import { invalid } from "~/lib/result";
import { formatAmount } from "~/lib/token-amounts";
import { assetParts } from "~/modules/ledger/assets";
import type { Distribution, RewardKind } from "./pool-types";
import { rewardPoolSchemaFor, type RewardPoolInput } from "./reward.schema";

/** What the reward form sent, as typed, to show again beside its errors. */
export type RewardPoolValues = {
  kind: RewardKind;
  asset: string;
  distribution: string;
  winners: string;
  amount: string;
  total: string;
  rankAmounts: string;
};

/**
 * The reward form: its values as typed and the parsed input (XP unless it asks for tokens); a
 * token reward's asset must be one `payable` accepts (rewards pay tokens of 18 decimals today).
 */
export function parseRewardForm(formData: FormData, payable: (asset: string) => boolean) {
  const kind: RewardKind = formText(formData, "kind") === "token" ? "token" : "xp";
  const values: RewardPoolValues = {
    kind,
    asset: formText(formData, "asset"),
    distribution: formText(formData, "distribution"),
    winners: formText(formData, "winners"),
    amount: formText(formData, "amount"),
    total: formText(formData, "total"),
    rankAmounts: formText(formData, "rankAmounts"),
  };
  const form = parseForm(rewardPoolSchemaFor(kind), formData);
  if (form.ok && form.data.asset && !payable(form.data.asset)) {
    const { symbol } = assetParts(form.data.asset);
    return { values, form: invalid("asset", `Rewards cannot pay ${symbol} here: choose a token from the list.`) };
  }
  return { values, form };
}

/** A stored pool as the form's fields. */
export function rewardPoolValues(pool: RewardPoolInput): RewardPoolValues {
  const distribution: Distribution = pool.distribution;
  const text = (value: bigint | null | undefined) =>
    value == null ? "" : pool.kind === "token" ? formatAmount(value, { maxFraction: 18, group: false }) : value.toString();
  return {
    kind: pool.kind,
    asset: pool.asset ?? "",
    distribution,
    winners: pool.winners?.toString() ?? "",
    amount: distribution === "everyone" ? "" : text(pool.amount),
    total: distribution === "everyone" ? text(pool.amount) : "",
    rankAmounts: pool.rankAmounts?.map(text).join(", ") ?? "",
  };
}

/** Saves, deletes and funding by one member, per minute: enough for any real session, not for a script. */
export const REWARD_ACTIONS_PER_MINUTE = 60;
export const REWARD_ACTIONS_FLOODED = "Too many changes at once: wait a minute and try again.";
