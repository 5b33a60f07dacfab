import { apiRoute } from "~/modules/api/api-route.server";
import { updateTask } from "~/modules/api/endpoints/task-writes.server";

/** PATCH /api/v1/tasks/:id */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(updateTask).loader;
export const action = apiRoute(updateTask).action;
