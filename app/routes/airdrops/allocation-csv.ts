import { data } from "react-router";
import type { Route } from "./+types/allocation-csv";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { allocationCsv } from "~/modules/airdrops/airdrop-files.server";
import { airdropPage } from "~/modules/airdrops/airdrop-pages.server";

/**
 * The frozen allocation as a CSV download, streamed: rank, points, amount (base units and tokens),
 * account and leaf, one line per member with a share. 404 before the freeze.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, airdrop } = await airdropPage({ db, projectSlug: params.project, airdropSlug: params.airdrop, userId });
  if (airdrop.status !== "frozen") throw data("This airdrop's allocation is not frozen yet.", { status: 404 });
  return new Response(allocationCsv({ db, airdropId: airdrop.id }), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${project.slug}-${airdrop.slug}-allocation.csv"`,
      "cache-control": airdrop.publishedAt ? "public, max-age=3600" : "private, no-store",
    },
  });
}
