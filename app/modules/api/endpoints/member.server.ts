import { failure, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { idParam, memberOut, memberSchema } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { projectMember } from "~/modules/projects/project-member.server";

export const getMember = apiEndpoint({
  method: "get",
  path: "/members/{id}",
  scope: "read",
  tags: ["Members"],
  operationId: "getMember",
  summary: "A member of the project",
  description:
    "A member who took part in the project (a completion), holds XP in it or follows it, as its team sees them: name, linked wallets, social handles, the e-mail address only when shared with this project; their XP and exact rank here, and their completions by status.",
  params: z.object({ id: idParam("member") }),
  response: memberSchema,
  handler: async ({ db, projectId, params }) => {
    const member = await projectMember({ db, projectId, userId: params.id });
    return member ? ok({ body: memberOut(member) }) : failure("not_found", "No member with this id has taken part in this project.");
  },
});

/** GET /api/v1/members/:id */
export const memberRoute = apiRoute(getMember);
