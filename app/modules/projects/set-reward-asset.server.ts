import { eq } from "drizzle-orm";
import { project } from "#db/schema/projects";
import type { Db } from "~/lib/db.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { chainToken, type ChainRegistry } from "~/modules/chain/chain-registry.server";
import { assetOf, assetParts, assetSchema, QUEST_DECIMALS, type Asset } from "~/modules/ledger/assets";
import { authorize } from "./permissions.server";
import { rewardAssetLabel, type RewardAssetOption } from "./reward-asset";

/**
 * The assets rewards can pay here: every listed token of 18 decimals (QUEST first, then the
 * deployment's others) of every chain with a vault, a node and a confirmation count, in the
 * registry's order. Reward amounts are typed, escrowed and shown in 18-decimal units, so a token
 * of other decimals (the stand-in USDC's 6) is deposited, held and withdrawn, but not offered as a
 * reward until rewards count in each token's own units.
 */
export function payableAssets(chains: Pick<ChainRegistry, "vaultChains">): RewardAssetOption[] {
  return chains.vaultChains().flatMap((chain) =>
    chain.tokens
      .filter((token) => token.decimals === QUEST_DECIMALS)
      .map((token) => {
        const asset = assetOf(token.symbol, chain.id);
        return { asset, label: rewardAssetLabel(asset) };
      }),
  );
}

/** Whether a project may choose `asset` as its rewards token (one of `payableAssets`). */
const choosable = (chains: Pick<ChainRegistry, "vaultChains">, asset: string) => payableAssets(chains).some((option) => option.asset === asset);

/**
 * Whether a token reward may pay `asset`: not when a chain here lists it with other decimals than
 * 18 (reward amounts count in 18-decimal units; see `payableAssets`).
 */
export function rewardPayable(chains: Pick<ChainRegistry, "get">, asset: string): boolean {
  const parsed = assetSchema.safeParse(asset);
  if (!parsed.success) return false;
  const { symbol, chainId } = assetParts(parsed.data);
  const chain = chains.get(chainId);
  const token = chain && chainToken(chain, symbol);
  return !token || token.decimals === QUEST_DECIMALS;
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
