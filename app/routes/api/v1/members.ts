import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { pageSchema } from "~/modules/api/cursor";
import { memberOut, memberSchema, walletParam } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { projectMemberByWallet } from "~/modules/projects/project-member.server";

export const findMembers = apiEndpoint({
  method: "get",
  path: "/members",
  scope: "read",
  tags: ["Members"],
  operationId: "findMembers",
  summary: "A member by linked wallet",
  description:
    "The member who linked this wallet address (any case), if they took part in the project, hold XP in it or follow it: a list of one, or empty. What the project's team may see: the e-mail address only when the member shared it with this project.",
  query: z.object({ wallet: walletParam }),
  response: pageSchema(memberSchema),
  handler: async ({ db, projectId, query }) => {
    const member = await projectMemberByWallet({ db, projectId, address: query.wallet });
    return ok({ body: { data: member ? [memberOut(member)] : [], next_cursor: null } });
  },
});

/** GET /api/v1/members?wallet=0x… */
export const { loader, action } = apiRoute(findMembers);
