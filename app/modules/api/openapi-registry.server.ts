import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { apiErrorSchema } from "./api-errors.server";
import { API_SCOPE_WORDS, API_SCOPES } from "./api-scopes";

/**
 * The one OpenAPI registry of /api/v1: `apiEndpoint` registers every operation here with the zod
 * schemas the request is parsed with, so the document describes exactly what the code checks.
 */
export const apiRegistry = new OpenAPIRegistry();

export const SECURITY_SCHEME = "apiKey";
apiRegistry.registerComponent("securitySchemes", SECURITY_SCHEME, {
  type: "http",
  scheme: "bearer",
  bearerFormat: "ql_…",
  description: `A project API key, created on the project's API page: \`Authorization: Bearer ql_…\`. Scopes: ${API_SCOPES.map((scope) => `\`${scope}\` (${API_SCOPE_WORDS[scope]})`).join(", ")}.`,
});
apiRegistry.register("Error", apiErrorSchema);

export const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { description: "Requests this key may make per window (a minute).", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the window closes.", schema: { type: "integer" } },
} as const;
for (const [name, header] of Object.entries(RATE_LIMIT_HEADERS)) apiRegistry.registerComponent("headers", name, header);
apiRegistry.registerComponent("headers", "Retry-After", { description: "Seconds to wait before the next request.", schema: { type: "integer" } });

/** The document's `headers` for an answer: the rate-limit headers, by reference. */
export const rateLimitHeaderRefs: Record<string, { $ref: string }> = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

/** The OpenAPI 3.1 document of every registered operation; `serverUrl` is where /api/v1 is served. */
export function openApiDocument({ serverUrl, appName }: { serverUrl: string; appName: string }) {
  return new OpenApiGeneratorV31(apiRegistry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: `${appName} API`,
      version: "1.0.0",
      description: [
        `The ${appName} REST API of one project: its key says which.`,
        "Every answer is JSON. A refusal is `{ error: { code, message, fields? } }` with its status.",
        "Lists are paged by cursor: pass a page's `next_cursor` as `cursor` for the next one.",
        "Each key may make a number of requests per minute: the `RateLimit-*` headers say how many are left; over it, 429 with `Retry-After`.",
        "Writes that take an `Idempotency-Key` header answer the same key twice with the first answer (kept 24 hours).",
      ].join("\n\n"),
    },
    servers: [{ url: serverUrl }],
    security: [{ [SECURITY_SCHEME]: [] }],
  });
}
