import { invalid, ok } from "~/lib/result";
import { apiEndpoint, apiRoute } from "~/modules/api/api-route.server";
import { encodeCursor, pageQuerySchema, pageSchema } from "~/modules/api/cursor";
import { completionOut, completionSchema, cursorTimeKey, idParam, walletParam } from "~/modules/api/data-resources.server";
import { z } from "~/modules/api/openapi-zod";
import { pushCompletion } from "~/modules/tasks/api-check.server";
import { gateEntryCheck } from "~/modules/trust/gate-entry.server";
import { COMPLETION_STATUSES, listProjectCompletions } from "~/modules/tasks/project-completions.server";

const optionalId = (what: string) => idParam(what).optional();

export const listCompletions = apiEndpoint({
  method: "get",
  path: "/completions",
  scope: "read",
  tags: ["Completions"],
  operationId: "listCompletions",
  summary: "The project's completions",
  description:
    "Every completion of the project's tasks, oldest first, filtered by task, campaign, status, member or linked wallet, and by time (`since`). Poll with `since`, or keep the last page's `next_cursor`.",
  query: pageQuerySchema.extend({
    task_id: optionalId("task"),
    campaign_id: optionalId("campaign"),
    status: z
      .enum(COMPLETION_STATUSES)
      .optional()
      .openapi({ param: { description: "`pending`, `approved` or `rejected`." } }),
    member_id: optionalId("member"),
    wallet: walletParam.optional(),
    since: z.iso
      .datetime({ offset: true, error: "since must be an ISO 8601 time, such as 2026-01-31T12:00:00Z" })
      .optional()
      .openapi({ param: { description: "Only completions created at or after this time (ISO 8601)." } }),
  }),
  response: pageSchema(completionSchema),
  handler: async ({ db, projectId, query }) => {
    const after = cursorTimeKey(query.cursor);
    if (after === "invalid") return invalid("cursor", "cursor is not one this API gave");
    const page = await listProjectCompletions({
      db,
      projectId,
      filter: {
        taskId: query.task_id,
        campaignId: query.campaign_id,
        status: query.status,
        userId: query.member_id,
        wallet: query.wallet,
        since: query.since === undefined ? undefined : new Date(query.since),
      },
      after,
      limit: query.limit,
    });
    const next_cursor = page.next ? encodeCursor({ sort: page.next.createdAt, id: page.next.id }) : null;
    return ok({ body: { data: page.rows.map(completionOut), next_cursor } });
  },
});

export const pushCompletionSchema = z
  .object({
    task_id: z.string().min(1).max(100).meta({ description: "One of the project's `api_check` tasks." }),
    member_id: z.string().min(1).max(100).meta({ description: "The member, as the task's signed check request or the API named them." }),
    done: z.boolean().meta({ description: "What your server found: true completes the task for the member." }),
    reason: z.string().max(500).nullish().meta({ description: "Your words, kept on the completion as evidence." }),
  })
  .openapi("CompletionPush");

export const createCompletion = apiEndpoint({
  method: "post",
  path: "/completions",
  scope: "completions:write",
  tags: ["Completions"],
  operationId: "createCompletion",
  summary: "Record a completion your server confirms",
  description:
    "For the project's `api_check` tasks: your server says whether the member did it. Once per member and period (a repeat answers `already`); `done: false` records nothing and answers `not_done`. Requires an `Idempotency-Key`.",
  body: pushCompletionSchema,
  idempotent: true,
  successStatus: 201,
  response: z
    .object({
      completion_id: z.string().nullable(),
      status: z.enum(["approved", "already", "not_done"]),
    })
    .openapi("CompletionPushed"),
  handler: async ({ db, services, projectId, caller, body, now }) => {
    const pushed = await pushCompletion({
      // The campaign's or airdrop's eligibility gate, as on the task page.
      gateCheck: gateEntryCheck({ db, chains: services.chains }),
      db,
      projectId,
      taskId: body.task_id,
      userId: body.member_id,
      done: body.done,
      reason: body.reason ?? null,
      apiKeyId: caller.keyId,
      now,
    });
    if (!pushed.ok) return pushed;
    return ok({ body: { completion_id: pushed.completionId, status: pushed.status }, status: pushed.status === "approved" ? 201 : 200 });
  },
});

/** GET and POST /api/v1/completions */
export const completionsRoute = apiRoute(listCompletions, createCompletion);
