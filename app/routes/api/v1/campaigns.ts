import { and, asc, eq } from "drizzle-orm";
import { campaign } from "#db/schema/quests";
import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { afterCursor, pageOf, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { campaignColumns, campaignOut, campaignSchema } from "~/modules/api/resources.server";

export const listCampaigns = apiEndpoint({
  method: "get",
  path: "/campaigns",
  scope: "read",
  tags: ["Campaigns"],
  operationId: "listCampaigns",
  summary: "The project's campaigns",
  description: "Oldest first, drafts included (`status: draft`).",
  query: pageQuerySchema,
  response: pageSchema(campaignSchema),
  handler: async ({ db, projectId, query, now }) => {
    const rows = await db
      .select(campaignColumns)
      .from(campaign)
      .where(and(eq(campaign.projectId, projectId), afterCursor(campaign.createdAt, campaign.id, query.cursor)))
      .orderBy(asc(campaign.createdAt), asc(campaign.id))
      .limit(query.limit + 1);
    const page = pageOf(rows, query.limit, (row) => ({ sort: row.sort, id: row.id }));
    return ok({ body: { data: page.data.map((row) => campaignOut(row, now)), next_cursor: page.next_cursor } });
  },
});

/** GET /api/v1/campaigns */
export const { loader, action } = apiRoute(listCampaigns);
