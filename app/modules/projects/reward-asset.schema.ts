import { z } from "zod";
import { assetSchema, type Asset } from "~/modules/ledger/assets";

/** The edit screen's second form: the intent that tells it from the project's own fields. */
export const REWARD_ASSET_INTENT = "reward-asset";

const CHOOSE = "Choose a token from the list";

/**
 * The project's Rewards token form: an asset written `SYMBOL:chainId`, or empty for none. Whether
 * this deployment pays it is the rule's to say (setRewardAsset), against the chains it runs.
 */
export const rewardAssetSchema = z.object({
  rewardAsset: z
    .string({ error: CHOOSE })
    .trim()
    .refine((value) => value === "" || assetSchema.safeParse(value).success, CHOOSE)
    .transform((value) => (value === "" ? null : (value as Asset))),
});

export type RewardAssetInput = z.infer<typeof rewardAssetSchema>;
