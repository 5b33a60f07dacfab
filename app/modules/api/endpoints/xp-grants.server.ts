import { ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { xpGrantOut, xpGrantSchema } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { API_GRANT_MAX, grantApiXp } from "~/modules/leaderboards/api-grants.server";

export const grantXpSchema = z
  .object({
    member_id: z.string().min(1).max(100).meta({ description: "A member who took part in the project, holds XP in it or follows it." }),
    amount: z
      .number("amount must be a whole number from 1 to 10,000")
      .int("amount must be a whole number from 1 to 10,000")
      .min(1, "amount must be a whole number from 1 to 10,000")
      .max(API_GRANT_MAX, "amount must be a whole number from 1 to 10,000"),
    reason: z.string().trim().min(1, "Say why, in a few words.").max(300),
  })
  .openapi("XpGrantRequest");

export const grantXp = apiEndpoint({
  method: "post",
  path: "/xp/grants",
  scope: "xp:write",
  tags: ["XP"],
  operationId: "grantXp",
  summary: "Grant XP to a member",
  description:
    "Adds XP to the member in this project (its boards, the global ones, levels), once per `Idempotency-Key`: the same key again answers the first grant. The member is told through the `xp.changed` webhook event.",
  body: grantXpSchema,
  idempotent: true,
  successStatus: 201,
  response: xpGrantSchema,
  handler: async ({ db, projectId, caller, body, request, now }) => {
    const granted = await grantApiXp({
      db,
      projectId,
      keyId: caller.keyId,
      // The pipeline refuses a write without it before the handler runs.
      idempotencyKey: request.headers.get("idempotency-key")!,
      userId: body.member_id,
      amount: body.amount,
      reason: body.reason,
      now,
    });
    return granted.ok ? ok({ body: xpGrantOut(granted.grant, body.reason) }) : granted;
  },
});

/** POST /api/v1/xp/grants */
export const xpGrantsRoute = apiRoute(grantXp);
