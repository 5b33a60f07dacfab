import type { Route } from "./+types/api.auth";
import { servicesContext } from "~/lib/services.server";

/** better-auth's HTTP API, at /api/auth/*. */
export function loader({ request, context }: Route.LoaderArgs) {
  return context.get(servicesContext).auth.handler(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return context.get(servicesContext).auth.handler(request);
}
