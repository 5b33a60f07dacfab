import { xpRevocationsRoute } from "~/modules/api/endpoints/xp-revocations.server";
import type { Route } from "./+types/xp-revocations";

/** POST /api/v1/xp/revocations */
export const loader = (args: Route.LoaderArgs) => xpRevocationsRoute.loader(args);
export const action = (args: Route.ActionArgs) => xpRevocationsRoute.action(args);
