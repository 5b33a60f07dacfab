import { failure, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { encodeCursor, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { cursorNumber, idParam, payoutOut, payoutSchema } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { listPoolPayouts } from "~/modules/rewards/project-pools.server";

export const listPayouts = apiEndpoint({
  method: "get",
  path: "/reward-pools/{id}/payouts",
  scope: "read",
  tags: ["Rewards"],
  operationId: "listRewardPoolPayouts",
  summary: "A reward pool's payouts",
  description: "The pool's grants in rank order (finishing, draw or board order), each with its amount and when it was paid (null while being paid).",
  params: z.object({ id: idParam("reward pool") }),
  query: pageQuerySchema,
  response: pageSchema(payoutSchema),
  handler: async ({ db, projectId, params, query }) => {
    const page = await listPoolPayouts({ db, projectId, poolId: params.id, after: cursorNumber(query.cursor) ?? 0, limit: query.limit });
    if (!page) return failure("not_found", "This project has no reward pool with this id.");
    const next_cursor = page.next === null ? null : encodeCursor({ sort: page.next, id: page.rows.at(-1)!.userId });
    return ok({ body: { data: page.rows.map(payoutOut), next_cursor } });
  },
});

/** GET /api/v1/reward-pools/:id/payouts */
export const rewardPoolPayoutsRoute = apiRoute(listPayouts);
