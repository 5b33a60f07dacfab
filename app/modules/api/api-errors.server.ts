import { FAILURE_STATUS, failureMessage, type Failure, type FieldErrors } from "~/lib/result";
import { z } from "./openapi-zod";

/**
 * The one shape of every refusal of /api/v1: `{ error: { code, message, fields? } }`, the code and
 * its status from `~/lib/result`'s table, and those only the API has. `not_met` (the rule ran and
 * its answer is no) is 422 here: an API client reads a 200 as done.
 */
export const API_ERROR_STATUS = {
  ...FAILURE_STATUS,
  not_met: 422,
  /** No key, or one that is unknown or revoked. */
  unauthorized: 401,
  /** The path exists, not with this method. */
  method_not_allowed: 405,
  /** An `Idempotency-Key` used before with another request. */
  idempotency_mismatch: 422,
  /** Something broke on our side; nothing was changed. */
  internal: 500,
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;
const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]];

export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES).meta({
        description:
          "What kind of refusal: `invalid` (see `fields`), `unauthorized`, `forbidden`, `not_found`, `conflict`, `not_met`, `idempotency_mismatch`, `limited`, …",
      }),
      message: z.string().meta({ description: "The refusal in one sentence." }),
      fields: z.record(z.string(), z.string()).optional().meta({ description: "For `invalid`: each refused field (or `form`) with why." }),
    }),
  })
  .openapi("Error");

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export function apiErrorBody(code: ApiErrorCode, message: string, fields?: FieldErrors): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** A refusal as a response, with its status (and Retry-After for a limit). */
export function apiError(code: ApiErrorCode, message: string, { fields, headers }: { fields?: FieldErrors; headers?: HeadersInit } = {}): Response {
  return Response.json(apiErrorBody(code, message, fields), { status: API_ERROR_STATUS[code], headers });
}

/** A domain function's failure as the API's error body. */
export function failureBody(result: Failure): ApiErrorBody {
  return apiErrorBody(result.code, failureMessage(result), result.code === "invalid" ? result.errors : undefined);
}

/** A domain function's failure as the API answers it (Retry-After for a limit). */
export function apiFailure(result: Failure, headers?: HeadersInit): Response {
  const out = new Headers(headers);
  if (result.code !== "invalid" && result.retryAfterSeconds !== undefined) out.set("Retry-After", String(result.retryAfterSeconds));
  return Response.json(failureBody(result), { status: API_ERROR_STATUS[result.code], headers: out });
}
