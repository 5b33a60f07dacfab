import { memberRoute } from "~/modules/api/endpoints/member.server";
import type { Route } from "./+types/member";

/** GET /api/v1/members/:id */
export const loader = (args: Route.LoaderArgs) => memberRoute.loader(args);
export const action = (args: Route.ActionArgs) => memberRoute.action(args);
