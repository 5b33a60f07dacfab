import { assetParts, type Asset } from "~/modules/ledger/assets";
import { CHAIN_NAMES } from "~/wallet/chains";

/** An asset a project may choose to pay its rewards in: one a vault of this deployment pays. */
export type RewardAssetOption = { asset: Asset; label: string };

/** "USDC on Questline Local B": an asset by its symbol and its chain's name. */
export function rewardAssetLabel(asset: Asset): string {
  const { symbol, chainId } = assetParts(asset);
  return `${symbol} on ${CHAIN_NAMES[chainId] ?? `chain ${chainId}`}`;
}

/** The project's rewards token as its pages say it; null when none is chosen. */
export const rewardsPaidIn = (asset: Asset | null) => (asset ? `Rewards are paid in ${rewardAssetLabel(asset)}` : null);
