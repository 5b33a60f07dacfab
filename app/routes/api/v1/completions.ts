import { completionsRoute } from "~/modules/api/endpoints/completions.server";
import type { Route } from "./+types/completions";

/** GET and POST /api/v1/completions */
export const loader = (args: Route.LoaderArgs) => completionsRoute.loader(args);
export const action = (args: Route.ActionArgs) => completionsRoute.action(args);
