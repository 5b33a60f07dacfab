import { and, asc, eq } from "drizzle-orm";
import { crusade } from "#db/schema/quests";
import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { afterCursor, pageOf, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { crusadeColumns, crusadeOut, crusadeSchema } from "~/modules/api/resources.server";

export const listCrusades = apiEndpoint({
  method: "get",
  path: "/crusades",
  scope: "read",
  tags: ["Crusades"],
  operationId: "listCrusades",
  summary: "The project's crusades",
  description: "Oldest first, drafts included (`published_at: null`).",
  query: pageQuerySchema,
  response: pageSchema(crusadeSchema),
  handler: async ({ db, projectId, query }) => {
    const rows = await db
      .select(crusadeColumns)
      .from(crusade)
      .where(and(eq(crusade.projectId, projectId), afterCursor(crusade.createdAt, crusade.id, query.cursor)))
      .orderBy(asc(crusade.createdAt), asc(crusade.id))
      .limit(query.limit + 1);
    const page = pageOf(rows, query.limit, (row) => ({ sort: row.sort, id: row.id }));
    return ok({ body: { data: page.data.map(crusadeOut), next_cursor: page.next_cursor } });
  },
});

/** GET /api/v1/crusades */
export const { loader, action } = apiRoute(listCrusades);
