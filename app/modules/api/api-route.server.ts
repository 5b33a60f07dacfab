import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import type { ZodType, z as zod } from "zod";
import type { Db } from "~/lib/db.server";
import { takeRateLimit } from "~/lib/rate-limit.server";
import type { Result } from "~/lib/result";
import { servicesContext, type Services } from "~/services/services.server";
import { apiError, apiErrorBody, API_ERROR_STATUS, failureBody } from "./api-errors.server";
import { findApiCaller, touchApiKey, type ApiCaller } from "./api-keys.server";
import type { ApiScope } from "./api-scopes";
import { withIdempotency } from "./idempotency.server";
import { apiRegistry, rateLimitHeaderRefs, SECURITY_SCHEME } from "./openapi-registry.server";
import { z } from "./openapi-zod";

/** Where the API is served; an endpoint's `path` is below it. */
export const API_BASE = "/api/v1";
export const API_RATE_LIMIT_WINDOW_SECONDS = 60;

type Method = "get" | "post" | "put" | "patch" | "delete";
type AnyObject = zod.ZodObject;

/** What a handler is given: the database (the idempotency claim's transaction for such writes), the key's project, and the parsed input. */
export type ApiContext<P, Q, B> = {
  db: Db;
  services: Services;
  /** The key the request was made with: its project is the only one the handler may read or change. */
  caller: ApiCaller;
  projectId: string;
  params: P;
  query: Q;
  body: B;
  request: Request;
  now: Date;
};

/** A handler's answer: the body (checked against `response`) and, for a creation, 201. */
export type ApiAnswer<T> = Result<{ body: T; status?: 200 | 201 }>;

export type ApiEndpointSpec<P extends AnyObject, Q extends AnyObject, B extends ZodType, R extends ZodType> = {
  method: Method;
  /** Below /api/v1, OpenAPI style: `/campaigns/{id}`. */
  path: `/${string}`;
  scope: ApiScope;
  summary: string;
  description?: string;
  /** Groups in the reference page: `Campaigns`, `XP`, … */
  tags?: string[];
  operationId?: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** 201 for a creation; 200 by default. */
  successStatus?: 200 | 201;
  /** A write that requires an `Idempotency-Key` header: the same key answers the first answer again. */
  idempotent?: boolean;
  handler: (context: ApiContext<zod.infer<P>, zod.infer<Q>, zod.infer<B>>) => Promise<ApiAnswer<zod.input<R>>>;
};

type RouteArgs = { request: Request; context: { get: (key: typeof servicesContext) => Services }; params: Record<string, string | undefined> };

export type ApiEndpoint = {
  method: Method;
  path: string;
  scope: ApiScope;
  summary: string;
  idempotent: boolean;
  /** Runs the whole pipeline; `now` and the services are the test's to give. */
  handle: (input: { services: Services; request: Request; params: Record<string, string | undefined>; now?: Date }) => Promise<Response>;
  /** React Router's `loader` (GET) and `action` (the other methods) of this operation alone. */
  loader: (args: RouteArgs) => Promise<Response>;
  action: (args: RouteArgs) => Promise<Response>;
};

/** Every operation `apiEndpoint` defined, in order: the scope table test and the document read it. */
export const apiOperations: ApiEndpoint[] = [];

const noParams = z.object({});

/**
 * Defines one operation of /api/v1 and registers it, with its schemas, in the OpenAPI document.
 * The pipeline: the Bearer key (401), the key's rate limit (429; the RateLimit-* headers on every
 * answer to a known key), the scope (403), the key's last use, params/query/body through their
 * schemas (400 with field errors), the `Idempotency-Key` for such writes (400 without; 422 when
 * used with another request), then the handler, whose `Result` becomes the JSON answer. No
 * session: a cookie is never read here.
 */
export function apiEndpoint<
  P extends AnyObject = typeof noParams,
  Q extends AnyObject = typeof noParams,
  B extends ZodType = zod.ZodUndefined,
  R extends ZodType = ZodType,
>(spec: ApiEndpointSpec<P, Q, B, R>): ApiEndpoint {
  const successStatus = spec.successStatus ?? 200;
  apiRegistry.registerPath({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: [spec.description, `Scope: \`${spec.scope}\`.`].filter(Boolean).join("\n\n"),
    tags: spec.tags,
    operationId: spec.operationId,
    security: [{ [SECURITY_SCHEME]: [] }],
    "x-scope": spec.scope,
    request: {
      params: spec.params,
      query: spec.query,
      headers: spec.idempotent
        ? z.object({
            "Idempotency-Key": z
              .string()
              .min(1)
              .max(255)
              .openapi({ description: "Any unique string (a UUID): the same key again answers the first answer, for 24 hours." }),
          })
        : undefined,
      body: spec.body ? { required: true, content: { "application/json": { schema: spec.body } } } : undefined,
    },
    responses: {
      [successStatus]: { description: "Done.", headers: rateLimitHeaderRefs, content: { "application/json": { schema: spec.response } } },
      ...errorResponses(spec),
    },
  });

  const handle: ApiEndpoint["handle"] = async ({ services, request, params, now = new Date() }) => {
    try {
      return await runPipeline(spec, successStatus, { services, request, params, now });
    } catch (error) {
      services.logger.error({ err: error, method: spec.method, path: spec.path }, "api: the request failed");
      return apiError("internal", "Something went wrong on our side; nothing was changed. Try again.");
    }
  };
  const fromRouter = ({ request, context, params }: RouteArgs) => {
    if (request.method.toLowerCase() !== spec.method && !(spec.method === "get" && request.method === "HEAD")) return methodNotAllowed([spec.method]);
    return handle({ services: context.get(servicesContext), request, params });
  };
  const endpoint: ApiEndpoint = {
    method: spec.method,
    path: spec.path,
    scope: spec.scope,
    summary: spec.summary,
    idempotent: spec.idempotent ?? false,
    handle,
    loader: fromRouter,
    action: fromRouter,
  };
  apiOperations.push(endpoint);
  return endpoint;
}

/**
 * One route module's `loader` and `action` from its operations (one per method): `export const {
 * loader, action } = apiRoute(listThings, createThing)`. Another method is answered 405.
 */
export function apiRoute(...endpoints: ApiEndpoint[]) {
  const byMethod = new Map(endpoints.map((endpoint) => [endpoint.method.toUpperCase(), endpoint]));
  const methods = endpoints.map((endpoint) => endpoint.method);
  const dispatch = (args: RouteArgs) => {
    const endpoint = byMethod.get(args.request.method === "HEAD" ? "GET" : args.request.method);
    return endpoint ? endpoint.loader(args) : methodNotAllowed(methods);
  };
  return { loader: dispatch, action: dispatch };
}

async function methodNotAllowed(methods: Method[]) {
  return apiError("method_not_allowed", "This path does not take this method.", { headers: { Allow: methods.map((m) => m.toUpperCase()).join(", ") } });
}

type ResponseHeaders = NonNullable<ResponseConfig["headers"]>;

function errorResponses(spec: { params?: unknown; query?: unknown; body?: unknown; idempotent?: boolean }) {
  const error = (description: string, headers?: ResponseHeaders): ResponseConfig => ({
    description,
    headers,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });
  return {
    ...(spec.params || spec.query || spec.body || spec.idempotent ? { 400: error("The input is refused: `fields` says why.", rateLimitHeaderRefs) } : {}),
    401: error("No key, or an unknown or revoked one.", { "WWW-Authenticate": { schema: { type: "string" } } }),
    403: error("The key lacks this operation's scope.", rateLimitHeaderRefs),
    404: error("What the request names does not exist in the key's project.", rateLimitHeaderRefs),
    ...(spec.idempotent ? { 422: error("The `Idempotency-Key` was used with another request.", rateLimitHeaderRefs) } : {}),
    429: error("Too many requests with this key: wait `Retry-After` seconds.", {
      ...rateLimitHeaderRefs,
      "Retry-After": { $ref: "#/components/headers/Retry-After" },
    } as ResponseHeaders),
  };
}

/** Whether any string in a parsed JSON value holds a NUL character. */
const holdsNul = (value: unknown): boolean =>
  typeof value === "string"
    ? value.includes("\0")
    : typeof value === "object" && value !== null
      ? Object.entries(value).some(([k, v]) => k.includes("\0") || holdsNul(v))
      : false;

const unauthorized = (message: string, invalidToken: boolean) =>
  apiError("unauthorized", message, { headers: { "WWW-Authenticate": invalidToken ? `Bearer realm="api", error="invalid_token"` : `Bearer realm="api"` } });

/** The field errors of a zod failure, by path (`form` for the whole input). */
function fieldErrors(error: zod.ZodError, prefix?: string) {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "form";
    fields[path] ??= issue.message;
  }
  return fields;
}

async function runPipeline<P extends AnyObject, Q extends AnyObject, B extends ZodType, R extends ZodType>(
  spec: ApiEndpointSpec<P, Q, B, R>,
  successStatus: number,
  { services, request, params, now }: { services: Services; request: Request; params: Record<string, string | undefined>; now: Date },
): Promise<Response> {
  const db = services.database.db;
  const authorization = request.headers.get("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!bearer) return unauthorized("Send the project's API key: Authorization: Bearer ql_…", false);
  const caller = await findApiCaller({ db, key: bearer[1]! });
  if (!caller) return unauthorized("This API key is not valid: it is unknown or revoked.", true);

  const limit = services.env.API_RATE_LIMIT_PER_MINUTE;
  const claim = await takeRateLimit({ db, key: `api:${caller.keyId}`, max: limit, windowSeconds: API_RATE_LIMIT_WINDOW_SECONDS, now: now.getTime() });
  const headers = new Headers({
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(claim.remaining),
    "RateLimit-Reset": String(claim.resetSeconds),
    "Cache-Control": "no-store",
  });
  if (!claim.ok) {
    headers.set("Retry-After", String(claim.retryAfterSeconds));
    return apiError("limited", `This key made more than ${limit} requests this minute. Try again in ${claim.retryAfterSeconds} s.`, { headers });
  }
  if (!caller.scopes.includes(spec.scope)) return apiError("forbidden", `This key lacks the \`${spec.scope}\` scope this operation needs.`, { headers });
  await touchApiKey({ db, caller, now });

  const url = new URL(request.url);
  const parsedParams = (spec.params ?? noParams).safeParse(params);
  if (!parsedParams.success) return apiError("not_found", "What this path names does not exist.", { headers });
  const parsedQuery = (spec.query ?? noParams).safeParse(Object.fromEntries(url.searchParams));
  if (!parsedQuery.success) return apiError("invalid", "The query is refused: see fields.", { fields: fieldErrors(parsedQuery.error), headers });
  let rawBody = "";
  let body: unknown = undefined;
  if (spec.body) {
    rawBody = await request.text();
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      return apiError("invalid", "The body must be JSON.", { fields: { body: "The body must be JSON." }, headers });
    }
    // A NUL character (`\u0000` in JSON) cannot be stored in a text column: refused here, for every write, not as a 500 later.
    if (holdsNul(json))
      return apiError("invalid", "The body holds a NUL character (\\u0000), which cannot be saved.", {
        fields: { body: "Remove the NUL character (\\u0000)." },
        headers,
      });
    const parsedBody = spec.body.safeParse(json);
    if (!parsedBody.success) return apiError("invalid", "The body is refused: see fields.", { fields: fieldErrors(parsedBody.error), headers });
    body = parsedBody.data;
  }

  const run = async (on: Db) => {
    const result = await spec.handler({
      db: on,
      services,
      caller,
      projectId: caller.projectId,
      params: parsedParams.data as zod.infer<P>,
      query: parsedQuery.data as zod.infer<Q>,
      body: body as zod.infer<B>,
      request,
      now,
    });
    if (!result.ok) {
      const retryAfterSeconds = result.code === "invalid" ? undefined : result.retryAfterSeconds;
      return { status: API_ERROR_STATUS[result.code], body: failureBody(result), retryAfterSeconds };
    }
    // The answer is the schema's: a column the schema does not name is never sent.
    return { status: result.status ?? successStatus, body: spec.response.parse(result.body) as unknown };
  };

  if (!spec.idempotent) {
    const answer = await run(db);
    if (answer.retryAfterSeconds !== undefined) headers.set("Retry-After", String(answer.retryAfterSeconds));
    return Response.json(answer.body, { status: answer.status, headers });
  }
  const idempotencyKey = request.headers.get("idempotency-key");
  if (!idempotencyKey || idempotencyKey.length > 255) {
    const message = "Send an Idempotency-Key header (any unique string up to 255 characters, such as a UUID) with this request.";
    return apiError("invalid", message, { fields: { "Idempotency-Key": message }, headers });
  }
  const outcome = await withIdempotency({
    db,
    keyId: caller.keyId,
    idempotencyKey,
    request: { method: request.method, path: url.pathname + url.search, body: rawBody },
    run,
  });
  if (outcome.kind === "mismatch") {
    return Response.json(apiErrorBody("idempotency_mismatch", "This Idempotency-Key was used with another request: use a new key for a new request."), {
      status: API_ERROR_STATUS.idempotency_mismatch,
      headers,
    });
  }
  if (outcome.replayed) headers.set("Idempotent-Replayed", "true");
  return Response.json(outcome.body, { status: outcome.status, headers });
}
