import type { Route } from "./+types/openapi-json";
import { API_BASE } from "~/modules/api/api-route.server";
import { openApiDocument } from "~/modules/api/openapi-registry.server";
import { servicesContext } from "~/services/services.server";
import "./endpoints";

/** GET /api/v1/openapi.json — the OpenAPI 3.1 document of every operation; public, no key. */
export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  return Response.json(openApiDocument({ serverUrl: `${env.APP_URL}${API_BASE}`, appName: env.APP_NAME }), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}
