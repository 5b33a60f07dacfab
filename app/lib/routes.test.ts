import { describe, expect, it } from "vitest";
import routeConfig from "../routes";
import { servedPaths } from "#tests/setup/served-paths";
import { ROUTES } from "./routes";

/** Served paths with no name, on purpose: machine endpoints, files and the catch-all. */
const UNNAMED = [
  "/healthz",
  "/api/auth/*",
  "/api/chain/tx",
  "/avatars/:file",
  "/uploads/:file",
  "/settings",
  "/*",
  "/projects/:project/api-check/try",
  "/projects/:project/api-check/secret",
  "/dev/api-check",
  "/dev/webhooks/receive/:endpoint",
];
/** The public API's endpoints are named by its OpenAPI document, not here (only its reference page is). */
const isApiEndpoint = (path: string) => path.startsWith("/api/v1/") && path !== "/api/v1/reference";

describe("the named routes", () => {
  const served = servedPaths(routeConfig);

  it("name only paths the router serves", () => {
    expect(served).toContain("/projects/:project/campaigns/:campaign/rewards/:reward/edit");
    const missing = Object.entries(ROUTES).filter(([, { path }]) => !served.includes(path));
    expect(missing).toEqual([]);
  });

  it("name every page the router serves, but the machine endpoints", () => {
    const named = new Set(Object.values(ROUTES).map((r) => r.path as string));
    expect(served.filter((path) => !named.has(path) && !UNNAMED.includes(path) && !isApiEndpoint(path))).toEqual([]);
  });
});
