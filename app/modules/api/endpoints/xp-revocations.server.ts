import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { xpGrantOut, xpGrantSchema } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { revokeApiGrant } from "~/modules/leaderboards/api-grants.server";

export const revokeXp = apiEndpoint({
  method: "post",
  path: "/xp/revocations",
  scope: "xp:write",
  tags: ["XP"],
  operationId: "revokeXp",
  summary: "Take back an XP grant",
  description:
    "Takes back a grant this project's API made (by any of its keys), exactly once: the member's XP falls by its amount on every board it still counts on. Revoking it again changes nothing and answers the same.",
  body: z.object({ grant_id: z.string().min(1).max(100).meta({ description: "The `id` a grant answered with." }) }).openapi("XpRevocationRequest"),
  idempotent: true,
  response: xpGrantSchema,
  handler: async ({ db, projectId, body }) => {
    const revoked = await revokeApiGrant({ db, projectId, grantId: body.grant_id });
    return revoked.ok ? ok({ body: xpGrantOut(revoked.grant) }) : revoked;
  },
});

/** POST /api/v1/xp/revocations */
export const xpRevocationsRoute = apiRoute(revokeXp);
