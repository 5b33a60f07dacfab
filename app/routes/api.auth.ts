import type { Route } from "./+types/api.auth";
import { servicesContext } from "~/services/services.server";
import { answerAuth } from "~/modules/auth/auth-handler.server";
import { isPublicAuthEndpoint } from "~/modules/auth/public-endpoints";

/**
 * better-auth's HTTP API, at /api/auth/*: only the endpoints the browser uses. Everything else the
 * library offers (password reset, sign-up, profile updates, account deletion…) answers 404 here;
 * the product's forms reach the endpoints they need through `callAuth`, with their own rules.
 */
function handle(request: Request, context: Route.LoaderArgs["context"]) {
  if (!isPublicAuthEndpoint(request.method, new URL(request.url).pathname)) {
    return new Response(JSON.stringify({ code: "NOT_FOUND", message: "Not found" }), { status: 404, headers: { "content-type": "application/json" } });
  }
  return answerAuth(context.get(servicesContext), request);
}

export function loader({ request, context }: Route.LoaderArgs) {
  return handle(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return handle(request, context);
}
