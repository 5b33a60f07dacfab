import { and, asc, eq } from "drizzle-orm";
import { task } from "#db/schema/quests";
import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { afterCursor, pageOf, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { z } from "~/modules/api/openapi-zod";
import { taskColumns, taskOut, taskSchema } from "~/modules/api/resources.server";

export const listTasks = apiEndpoint({
  method: "get",
  path: "/tasks",
  scope: "read",
  tags: ["Tasks"],
  operationId: "listTasks",
  summary: "The project's tasks",
  description: "Oldest first, drafts included (`published_at: null`); `campaign_id` or `crusade_id` keeps one campaign's or crusade's.",
  query: pageQuerySchema.extend({
    campaign_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ param: { description: "Only this campaign's tasks." } }),
    crusade_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ param: { description: "Only this crusade's tasks." } }),
  }),
  response: pageSchema(taskSchema),
  handler: async ({ db, projectId, query }) => {
    const rows = await db
      .select(taskColumns)
      .from(task)
      .where(
        and(
          eq(task.projectId, projectId),
          query.campaign_id === undefined ? undefined : eq(task.campaignId, query.campaign_id),
          query.crusade_id === undefined ? undefined : eq(task.crusadeId, query.crusade_id),
          afterCursor(task.createdAt, task.id, query.cursor),
        ),
      )
      .orderBy(asc(task.createdAt), asc(task.id))
      .limit(query.limit + 1);
    const page = pageOf(rows, query.limit, (row) => ({ sort: row.sort, id: row.id }));
    return ok({ body: { data: page.data.map(taskOut), next_cursor: page.next_cursor } });
  },
});

/** GET /api/v1/tasks */
export const { loader, action } = apiRoute(listTasks);
