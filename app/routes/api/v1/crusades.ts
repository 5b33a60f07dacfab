import { apiRoute } from "~/modules/api/api-route.server";
import { listCrusades } from "~/modules/api/endpoints/crusades.server";

/** GET /api/v1/crusades */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(listCrusades).loader;
export const action = apiRoute(listCrusades).action;
