import { and, asc, eq } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { afterCursor, pageOf, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { airdropColumns, airdropOut, airdropSchema } from "~/modules/api/resources.server";

export const listAirdrops = apiEndpoint({
  method: "get",
  path: "/airdrops",
  scope: "read",
  tags: ["Airdrops"],
  operationId: "listAirdrops",
  summary: "The project's airdrops",
  description: "Oldest first, drafts included (`published_at: null`).",
  query: pageQuerySchema,
  response: pageSchema(airdropSchema),
  handler: async ({ db, projectId, query }) => {
    const rows = await db
      .select(airdropColumns)
      .from(airdrop)
      .where(and(eq(airdrop.projectId, projectId), afterCursor(airdrop.createdAt, airdrop.id, query.cursor)))
      .orderBy(asc(airdrop.createdAt), asc(airdrop.id))
      .limit(query.limit + 1);
    const page = pageOf(rows, query.limit, (row) => ({ sort: row.sort, id: row.id }));
    return ok({ body: { data: page.data.map(airdropOut), next_cursor: page.next_cursor } });
  },
});

/** GET /api/v1/airdrops */
export const { loader, action } = apiRoute(listAirdrops);
