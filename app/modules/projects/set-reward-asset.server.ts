import { eq } from "drizzle-orm";
import { project } from "#db/schema/projects";
import type { Db } from "~/lib/db.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { assetOf, type Asset } from "~/modules/ledger/assets";
import { authorize } from "./permissions.server";
import { rewardAssetLabel, type RewardAssetOption } from "./reward-asset";

/**
 * The assets this deployment pays: every listed token (QUEST first, then the deployment's others)
 * of every chain with a vault, a node and a confirmation count, in the registry's order.
 */
export function payableAssets(chains: Pick<ChainRegistry, "vaultChains">): RewardAssetOption[] {
  return chains.vaultChains().flatMap((chain) =>
    chain.tokens.map((token) => {
      const asset = assetOf(token.symbol, chain.id);
      return { asset, label: rewardAssetLabel(asset) };
    }),
  );
}

/** The message for an asset no vault of this deployment pays. */
export const notPaidHere = (asset: Asset) => `${rewardAssetLabel(asset)} is not a token this deployment pays: choose one from the list.`;

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
  if (asset !== null && !payableAssets(chains).some((option) => option.asset === asset)) return invalid("rewardAsset", notPaidHere(asset));
  await db.update(project).set({ rewardAsset: asset, updatedAt: new Date() }).where(eq(project.id, projectId));
  return ok({ rewardAsset: asset });
}
