import { and, eq } from "drizzle-orm";
import { campaign } from "#db/schema/quests";
import { failure, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { z } from "~/modules/api/openapi-zod";
import { campaignColumns, campaignOut, campaignSchema } from "~/modules/api/resources.server";

export const getCampaign = apiEndpoint({
  method: "get",
  path: "/campaigns/{id}",
  scope: "read",
  tags: ["Campaigns"],
  operationId: "getCampaign",
  summary: "One of the project's campaigns",
  params: z.object({
    id: z
      .string()
      .min(1)
      .max(100)
      .openapi({ param: { description: "The campaign's id." } }),
  }),
  response: campaignSchema,
  handler: async ({ db, projectId, params, now }) => {
    const [row] = await db
      .select(campaignColumns)
      .from(campaign)
      .where(and(eq(campaign.projectId, projectId), eq(campaign.id, params.id)));
    return row ? ok({ body: campaignOut(row, now) }) : failure("not_found", "This project has no campaign with this id.");
  },
});

/** GET /api/v1/campaigns/:id */
export const { loader, action } = apiRoute(getCampaign);
