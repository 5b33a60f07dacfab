import { apiRoute } from "~/modules/api/api-route.server";
import { getProject } from "~/modules/api/endpoints/project.server";

/** GET /api/v1/project */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(getProject).loader;
export const action = apiRoute(getProject).action;
