import { membersRoute } from "~/modules/api/endpoints/members.server";
import type { Route } from "./+types/members";

/** GET /api/v1/members, GET /api/v1/members?wallet=0x… */
export const loader = (args: Route.LoaderArgs) => membersRoute.loader(args);
export const action = (args: Route.ActionArgs) => membersRoute.action(args);
