import { eq } from "drizzle-orm";
import { project } from "#db/schema/projects";
import { failure, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { projectColumns, projectOut, projectSchema } from "~/modules/api/resources.server";

export const getProject = apiEndpoint({
  method: "get",
  path: "/project",
  scope: "read",
  tags: ["Project"],
  operationId: "getProject",
  summary: "The key's project",
  response: projectSchema,
  handler: async ({ db, projectId }) => {
    const [row] = await db.select(projectColumns).from(project).where(eq(project.id, projectId));
    return row ? ok({ body: projectOut(row) }) : failure("not_found", "This key's project does not exist any more.");
  },
});

/** GET /api/v1/project */
export const { loader, action } = apiRoute(getProject);
