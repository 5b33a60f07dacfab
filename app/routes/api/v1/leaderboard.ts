import { leaderboardRoute } from "~/modules/api/endpoints/leaderboard.server";
import type { Route } from "./+types/leaderboard";

/** GET /api/v1/leaderboard */
export const loader = (args: Route.LoaderArgs) => leaderboardRoute.loader(args);
export const action = (args: Route.ActionArgs) => leaderboardRoute.action(args);
