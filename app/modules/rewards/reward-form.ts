import { formText, parseForm } from "~/lib/forms";
import { invalid } from "~/lib/result";
import { formatAmount } from "~/lib/token-amounts";
import { assetParts, assetSchema, QUEST_DECIMALS } from "~/modules/ledger/assets";
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
 * The reward form: its values as typed and the parsed input (XP unless it asks for tokens). A
 * token reward's amounts are read in its asset's own decimals, which `decimalsOf` gives (the
 * registry's token; USDC's 6): null for an asset rewards cannot pay here, refused on the field.
 */
export function parseRewardForm(formData: FormData, decimalsOf: (asset: string) => number | null) {
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
  const asset = assetSchema.safeParse(values.asset);
  const decimals = kind === "token" && asset.success ? decimalsOf(asset.data) : null;
  if (kind === "token" && asset.success && decimals === null) {
    const { symbol } = assetParts(asset.data);
    return { values, form: invalid("asset", `Rewards cannot pay ${symbol} here: choose a token from the list.`) };
  }
  // An asset that is not one fails on its own field; its amounts are read as QUEST's meanwhile.
  return { values, form: parseForm(rewardPoolSchemaFor(kind, decimals ?? undefined), formData) };
}

/** A stored pool as the form's fields; a token pool's amounts in its asset's `decimals` (QUEST's 18 unless given). */
export function rewardPoolValues(pool: RewardPoolInput, decimals = QUEST_DECIMALS): RewardPoolValues {
  const distribution: Distribution = pool.distribution;
  const text = (value: bigint | null | undefined) =>
    value == null ? "" : pool.kind === "token" ? formatAmount(value, { maxFraction: decimals, group: false, decimals }) : value.toString();
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
