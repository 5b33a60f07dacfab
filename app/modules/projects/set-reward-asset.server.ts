import { eq } from "drizzle-orm";
import { project } from "#db/schema/projects";
import type { Db } from "~/lib/db.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { chainToken, type ChainRegistry } from "~/modules/chain/chain-registry.server";
import { assetOf, assetParts, assetSchema, QUEST_DECIMALS, type Asset } from "~/modules/ledger/assets";
import { authorize } from "./permissions.server";
import { rewardAssetLabel, type RewardAssetOption } from "./reward-asset";

/**
 * The assets rewards can pay here: every listed token (QUEST first, then the deployment's others,
 * the stand-in USDC among them) of every chain with a vault, a node and a confirmation count, in
 * the registry's order. Reward amounts count in each token's own decimals (`rewardDecimals`).
 */
export function payableAssets(chains: Pick<ChainRegistry, "vaultChains">): RewardAssetOption[] {
  return chains.vaultChains().flatMap((chain) =>
    chain.tokens.map((token) => {
      const asset = assetOf(token.symbol, chain.id);
      return { asset, label: rewardAssetLabel(asset) };
    }),
  );
}

/** Whether a project may choose `asset` as its rewards token (one of `payableAssets`). */
const choosable = (chains: Pick<ChainRegistry, "vaultChains">, asset: string) => payableAssets(chains).some((option) => option.asset === asset);

/**
 * The decimals a token reward in `asset` counts its amounts in: the token's own as a chain here
 * lists it (USDC's 6), QUEST's 18 for a token no chain here lists; null for what is not an asset.
 * Every reward screen reads and shows amounts through this one look-up.
 */
export function rewardDecimals(chains: Pick<ChainRegistry, "get">, asset: string | null): number | null {
  const parsed = assetSchema.safeParse(asset);
  if (!parsed.success) return null;
  const { symbol, chainId } = assetParts(parsed.data);
  const chain = chains.get(chainId);
  return (chain && chainToken(chain, symbol)?.decimals) ?? QUEST_DECIMALS;
}

/** The message for an asset no vault of this deployment pays. */
export const notPaidHere = (asset: Asset) => `${rewardAssetLabel(asset)} is not a token rewards can be paid in here: choose one from the list.`;

/**
 * Sets the asset a project's rewards are paid in (null: none chosen). Owners and admins only
 * (`rewards.token`; anyone else gets the 403 `authorize` throws); an asset no vault here pays is
 * refused on the field and nothing changes. The pool and airdrop forms preselect it; it moves no money.
 */
export async function setRewardAsset({
  db,
  chains,
  projectId,
  actorId,
  asset,
}: {
  db: Db;
  chains: Pick<ChainRegistry, "vaultChains">;
  projectId: string;
  actorId: string;
  asset: Asset | null;
}): Promise<Ok<{ rewardAsset: Asset | null }> | FieldFailure> {
  await authorize({ db, projectId, userId: actorId, action: "rewards.token" });
  if (asset !== null && !choosable(chains, asset)) return invalid("rewardAsset", notPaidHere(asset));
  await db.update(project).set({ rewardAsset: asset, updatedAt: new Date() }).where(eq(project.id, projectId));
  return ok({ rewardAsset: asset });
}
