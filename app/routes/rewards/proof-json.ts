import type { Route } from "./+types/proof-json";
import { servicesContext } from "~/services/services.server";
import { raffleProofOf } from "~/modules/rewards/raffle-proofs.server";

/**
 * A raffle's proof (raffle-proof.ts) as JSON, for `npm run verify-raffle` and anyone's own
 * checker. Public: it names entrants only as public boards do, and by their id in this pool. A
 * drawn raffle's proof never changes again, so it may be cached; before that it changes when the
 * entrants are frozen.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const view = await raffleProofOf({ db, poolId: params.pool });
  const noStore = { "cache-control": "no-store" };
  if (!view) return Response.json({ error: "There is no raffle with this id." }, { status: 404, headers: noStore });
  if (!view.proof) {
    return Response.json(
      { error: "This raffle's entrants are not frozen yet: its proof is published when its campaign ends.", commitment: view.pool.commitment },
      { status: 404, headers: noStore },
    );
  }
  return Response.json(view.proof, { headers: view.proof.secret !== null ? { "cache-control": "public, max-age=60" } : noStore });
}
