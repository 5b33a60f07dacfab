import { rewardPoolPayoutsRoute } from "~/modules/api/endpoints/reward-pool-payouts.server";
import type { Route } from "./+types/reward-pool-payouts";

/** GET /api/v1/reward-pools/:id/payouts */
export const loader = (args: Route.LoaderArgs) => rewardPoolPayoutsRoute.loader(args);
export const action = (args: Route.ActionArgs) => rewardPoolPayoutsRoute.action(args);
