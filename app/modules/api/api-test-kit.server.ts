import { user } from "#db/schema/auth";
import { createProject } from "~/modules/projects/projects.server";
import type { Services } from "~/services/services.server";
import { createApiKey } from "./api-keys.server";
import { API_BASE, type ApiEndpoint } from "./api-route.server";
import { API_SCOPES, type ApiScope } from "./api-scopes";

/**
 * For tests of /api/v1 endpoints: a project with its owner, keys with chosen scopes, and a request
 * through an operation's whole pipeline (key, limit, scope, parsing, idempotency), time injected.
 */
export async function apiTestProject(services: Services, name: string) {
  const db = services.database.db;
  const ownerId = `${name}-owner`;
  await db.insert(user).values({ id: ownerId, email: `${ownerId}@example.com`, name: ownerId, emailVerified: true });
  const created = await createProject({
    db,
    userId: ownerId,
    input: { slug: name, name, description: "", categoryId: null, website: null, xUrl: null, discordUrl: null, telegramUrl: null },
  });
  if (!created.ok) throw new Error(`apiTestProject: ${JSON.stringify(created.errors)}`);
  const projectId = created.project.id;
  const keyWith = async (scopes: readonly ApiScope[] = API_SCOPES) =>
    (await createApiKey({ db, projectId, name: `key ${scopes.join(" ")}`, scopes: [...scopes], createdBy: ownerId, maxLive: Infinity })).key;
  return { projectId, ownerId, keyWith };
}

/** One request to an operation: `path` below /api/v1 as sent (query included), params as the router would match them. */
export async function callApi(
  services: Services,
  endpoint: ApiEndpoint,
  {
    key,
    path = endpoint.path,
    params = {},
    body,
    headers = {},
    now,
  }: { key?: string; path?: string; params?: Record<string, string>; body?: unknown; headers?: Record<string, string>; now?: Date },
) {
  const request = new Request(`${services.env.APP_URL}${API_BASE}${path}`, {
    method: endpoint.method.toUpperCase(),
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const response = await endpoint.handle({ services, request, params, now });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}
