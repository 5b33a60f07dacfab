import { apiRoute } from "~/modules/api/api-route.server";
import { listTasks } from "~/modules/api/endpoints/tasks.server";

/** GET /api/v1/tasks */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(listTasks).loader;
export const action = apiRoute(listTasks).action;
