import { xpGrantsRoute } from "~/modules/api/endpoints/xp-grants.server";
import type { Route } from "./+types/xp-grants";

/** POST /api/v1/xp/grants */
export const loader = (args: Route.LoaderArgs) => xpGrantsRoute.loader(args);
export const action = (args: Route.ActionArgs) => xpGrantsRoute.action(args);
