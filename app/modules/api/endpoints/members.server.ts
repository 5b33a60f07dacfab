import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { decodeCursor, encodeCursor, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { memberOut, memberSchema, walletParam } from "~/modules/api/data-resources.server";
import { listProjectMembers, projectMemberByWallet } from "~/modules/projects/project-member.server";

export const listMembers = apiEndpoint({
  method: "get",
  path: "/members",
  scope: "read",
  tags: ["Members"],
  operationId: "listMembers",
  summary: "The project's members, or one by linked wallet",
  description:
    "Members who took part in the project (a completion), hold XP in it or follow it, by id; with `wallet`, the one member who linked that address (any case), or none. What the project's team may see: the e-mail address only when the member shared it with this project.",
  query: pageQuerySchema.extend({ wallet: walletParam.optional() }),
  response: pageSchema(memberSchema),
  handler: async ({ db, projectId, query }) => {
    if (query.wallet !== undefined) {
      const member = await projectMemberByWallet({ db, projectId, address: query.wallet });
      return ok({ body: { data: member ? [memberOut(member)] : [], next_cursor: null } });
    }
    const after = query.cursor === undefined ? null : (decodeCursor(query.cursor)?.id ?? null);
    const page = await listProjectMembers({ db, projectId, after, limit: query.limit });
    return ok({ body: { data: page.rows.map(memberOut), next_cursor: page.next === null ? null : encodeCursor({ sort: 0, id: page.next }) } });
  },
});

/** GET /api/v1/members, GET /api/v1/members?wallet=0x… */
export const membersRoute = apiRoute(listMembers);
