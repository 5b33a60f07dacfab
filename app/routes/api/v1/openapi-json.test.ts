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

type Operation = { security?: unknown; responses: Record<string, { headers?: Record<string, unknown> }>; "x-scope"?: string };

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
  });
});
