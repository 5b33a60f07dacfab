import { invalid, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { encodeCursor, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { cursorTimeKey, rewardPoolOut, rewardPoolSchema } from "~/modules/api/data-resources.server";
import { listProjectPools } from "~/modules/rewards/project-pools.server";

export const listRewardPools = apiEndpoint({
  method: "get",
  path: "/reward-pools",
  scope: "read",
  tags: ["Rewards"],
  operationId: "listRewardPools",
  summary: "The project's reward pools",
  description: "Every pool of the project's campaigns, oldest first, with its state and what it has paid so far.",
  query: pageQuerySchema,
  response: pageSchema(rewardPoolSchema),
  handler: async ({ db, projectId, query, now }) => {
    const after = cursorTimeKey(query.cursor);
    if (after === "invalid") return invalid("cursor", "cursor is not one this API gave");
    const page = await listProjectPools({ db, projectId, after, limit: query.limit, now });
    const next_cursor = page.next ? encodeCursor({ sort: page.next.createdAt, id: page.next.id }) : null;
    return ok({ body: { data: page.rows.map(rewardPoolOut), next_cursor } });
  },
});

/** GET /api/v1/reward-pools */
export const rewardPoolsRoute = apiRoute(listRewardPools);
