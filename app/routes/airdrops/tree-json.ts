import { data } from "react-router";
import type { Route } from "./+types/tree-json";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { treeDump } from "~/modules/airdrops/airdrop-files.server";
import { airdropPage } from "~/modules/airdrops/airdrop-pages.server";

/**
 * The frozen airdrop's Merkle tree as `@openzeppelin/merkle-tree`'s `standard-v1` dump, streamed:
 * anyone can `StandardMerkleTree.load` it (or rebuild it from its values or the allocation CSV
 * with `StandardMerkleTree.of(values, encoding, { sortLeaves: false })`) and check its root
 * against the one on chain. 404 before the freeze, and when nobody had a share to claim (no tree).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, airdrop } = await airdropPage({ db, projectSlug: params.project, airdropSlug: params.airdrop, userId });
  if (airdrop.status !== "frozen" || !airdrop.root) throw data("This airdrop has no frozen tree.", { status: 404 });
  return new Response(treeDump({ db, airdropId: airdrop.id }), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `inline; filename="${project.slug}-${airdrop.slug}-tree.json"`,
      // Frozen once and for all; a draft's is the team's only.
      "cache-control": airdrop.publishedAt ? "public, max-age=3600" : "private, no-store",
    },
  });
}
