import { apiRoute } from "~/modules/api/api-route.server";
import { listAirdrops } from "~/modules/api/endpoints/airdrops.server";

/** GET /api/v1/airdrops */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(listAirdrops).loader;
export const action = apiRoute(listAirdrops).action;
