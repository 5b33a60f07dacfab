import { failure, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { idParam, windowSchema } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { rankOf } from "~/modules/leaderboards/leaderboards.server";
import { projectBoardKey } from "~/modules/leaderboards/project-board.server";
import { knowsMember } from "~/modules/projects/project-member.server";
import { boardQuerySchema } from "./leaderboard.server";

export const getLeaderboardMember = apiEndpoint({
  method: "get",
  path: "/leaderboard/members/{member_id}",
  scope: "read",
  tags: ["Leaderboards"],
  operationId: "getLeaderboardMember",
  summary: "A member's rank on the project's leaderboard",
  description:
    "The member's exact rank and XP on the project's board (or a campaign's) in a window; `rank: null` when they have no XP there. A member hidden from public boards gets the rank they would have.",
  params: z.object({ member_id: idParam("member") }),
  query: boardQuerySchema,
  response: z
    .object({
      member_id: z.string(),
      rank: z.number().int().nullable(),
      xp: z.number().int(),
      window: windowSchema,
      campaign_id: z.string().nullable(),
    })
    .openapi("LeaderboardRank"),
  handler: async ({ db, projectId, params, query }) => {
    const board = await projectBoardKey({ db, projectId, campaignId: query.campaign_id, window: query.window });
    if (!board) return failure("not_found", "This project has no campaign with this id.");
    if (!(await knowsMember({ db, projectId, userId: params.member_id })))
      return failure("not_found", "No member with this id has taken part in this project.");
    const found = await rankOf({ db, board, userId: params.member_id });
    return ok({
      body: { member_id: params.member_id, rank: found?.rank ?? null, xp: found?.score ?? 0, window: query.window, campaign_id: query.campaign_id ?? null },
    });
  },
});

/** GET /api/v1/leaderboard/members/:member_id */
export const leaderboardMemberRoute = apiRoute(getLeaderboardMember);
