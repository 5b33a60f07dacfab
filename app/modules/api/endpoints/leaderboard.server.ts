import { failure, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { encodeCursor, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { boardEntryOut, boardEntrySchema, cursorNumber, idParam, windowParam, windowSchema } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { projectBoardKey, projectBoardPage } from "~/modules/leaderboards/project-board.server";

/** The board a request names: the project's, or one of its campaigns', in a window. */
export const boardQuerySchema = z.object({
  window: windowParam,
  campaign_id: idParam("campaign")
    .optional()
    .openapi({ param: { description: "One of the project's campaigns: its board instead of the project's." } }),
});

export const getLeaderboard = apiEndpoint({
  method: "get",
  path: "/leaderboard",
  scope: "read",
  tags: ["Leaderboards"],
  operationId: "getLeaderboard",
  summary: "The project's leaderboard",
  description:
    "The project's board (or a campaign's, with `campaign_id`) in a window, best first, with exact ranks (ties go to who reached the score first). Members who hide from public boards are not listed, as on the site. Paged by rank: a member who climbs between two pages may appear twice or not at all.",
  query: pageQuerySchema.extend(boardQuerySchema.shape),
  response: pageSchema(boardEntrySchema).extend({ window: windowSchema, campaign_id: z.string().nullable() }),
  handler: async ({ db, projectId, query }) => {
    const board = await projectBoardKey({ db, projectId, campaignId: query.campaign_id, window: query.window });
    if (!board) return failure("not_found", "This project has no campaign with this id.");
    const offset = cursorNumber(query.cursor) ?? 0;
    const page = await projectBoardPage({ db, board, offset, limit: query.limit });
    const next_cursor = page.nextOffset === null ? null : encodeCursor({ sort: page.nextOffset, id: page.rows.at(-1)!.userId });
    return ok({ body: { data: page.rows.map(boardEntryOut), next_cursor, window: query.window, campaign_id: query.campaign_id ?? null } });
  },
});

/** GET /api/v1/leaderboard */
export const leaderboardRoute = apiRoute(getLeaderboard);
