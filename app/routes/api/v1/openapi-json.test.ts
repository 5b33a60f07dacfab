import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "~/services/services.server";
import { apiOperations } from "~/modules/api/api-route.server";
import { routeArgs } from "#tests/setup/route-call";
import { createTestServices } from "#tests/setup/test-services";
import { loader } from "./openapi-json";

let services: Services;
beforeAll(async () => {
  services = await createTestServices();
});
afterAll(() => services.close());

/** Every `$ref` in the document, with where it is. */
function refsOf(value: unknown, at = "#"): [string, string][] {
  if (!value || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => refsOf(item, `${at}/${i}`));
  return Object.entries(value).flatMap(([key, item]) =>
    key === "$ref" && typeof item === "string" ? [[at, item] as [string, string]] : refsOf(item, `${at}/${key}`),
  );
}
const resolve = (document: object, ref: string) =>
  ref
    .slice(2)
    .split("/")
    .reduce<unknown>(
      (node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined),
      document,
    );

type Operation = {
  operationId?: string;
  security?: unknown;
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { description?: string; headers?: Record<string, unknown> }>;
  "x-scope"?: string;
};

describe("GET /api/v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document, public, with the key scheme, the error schema, the rate-limit headers and every registered operation", async () => {
    const response = (await loader(routeArgs(services, new Request("http://localhost:3000/api/v1/openapi.json")))) as Response;
    expect(response.status).toBe(200);
    const document = JSON.parse(await response.text()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown>; headers: Record<string, unknown> };
    };
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: "http://localhost:3000/api/v1" }]);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.schemas.Error).toMatchObject({ type: "object", required: ["error"] });
    expect(Object.keys(document.components.headers)).toEqual(
      expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]),
    );
    expect(apiOperations.length).toBeGreaterThanOrEqual(6);
    for (const operation of apiOperations) {
      const described = document.paths[operation.path]?.[operation.method];
      expect(described, `${operation.method} ${operation.path}`).toBeDefined();
      expect(described!["x-scope"]).toBe(operation.scope);
      expect(described!.responses["429"]?.headers).toHaveProperty("Retry-After");
      expect(Object.keys(described!.responses["200"]?.headers ?? described!.responses["201"]?.headers ?? {})).toContain("RateLimit-Remaining");
    }
    // The document holds together: every reference resolves, every path template's name is a
    // required path parameter, every answer has words, operation ids are unique.
    for (const [at, ref] of refsOf(document)) expect(resolve(document, ref), `${ref} at ${at}`).toBeDefined();
    const operationIds: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      expect(path).toMatch(/^\/[a-z0-9/{}_.-]*$/);
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name);
      for (const [method, operation] of Object.entries(item)) {
        const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === "path");
        expect(pathParameters.map((parameter) => parameter.name).sort(), `${method} ${path}`).toEqual([...names].sort());
        expect(pathParameters.every((parameter) => parameter.required === true)).toBe(true);
        for (const response of Object.values(operation.responses)) expect(response.description).toBeTruthy();
        if (operation.operationId) operationIds.push(operation.operationId);
      }
    }
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it("has a route in app/routes.ts for every registered operation's path", () => {
    const routes = readFileSync(path.resolve("app/routes.ts"), "utf8");
    for (const operation of apiOperations) {
      const routePath = `api/v1${operation.path.replace(/\{([^}]+)\}/g, ":$1")}`;
      expect(routes, `${operation.method} ${operation.path}`).toContain(`route("${routePath}", "routes/api/v1/`);
    }
  });
});
