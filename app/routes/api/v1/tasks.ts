import { apiRoute } from "~/modules/api/api-route.server";
import { createTask } from "~/modules/api/endpoints/task-writes.server";
import { listTasks } from "~/modules/api/endpoints/tasks.server";

/** GET and POST /api/v1/tasks */
// Defined, and registered in the OpenAPI document, in app/modules/api/endpoints; here only its route.
export const loader = apiRoute(listTasks, createTask).loader;
export const action = apiRoute(listTasks, createTask).action;
