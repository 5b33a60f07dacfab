import { leaderboardMemberRoute } from "~/modules/api/endpoints/leaderboard-member.server";
import type { Route } from "./+types/leaderboard-member";

/** GET /api/v1/leaderboard/members/:member_id */
export const loader = (args: Route.LoaderArgs) => leaderboardMemberRoute.loader(args);
export const action = (args: Route.ActionArgs) => leaderboardMemberRoute.action(args);
