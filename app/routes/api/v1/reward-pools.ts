import { rewardPoolsRoute } from "~/modules/api/endpoints/reward-pools.server";
import type { Route } from "./+types/reward-pools";

/** GET /api/v1/reward-pools */
export const loader = (args: Route.LoaderArgs) => rewardPoolsRoute.loader(args);
export const action = (args: Route.ActionArgs) => rewardPoolsRoute.action(args);
