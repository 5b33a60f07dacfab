import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequests } from "./api-requests";

/** A build with two API route modules and one page, as the router's manifest lists them. */
const seen: { params: Record<string, string>; method: string; body: string; nonce: boolean }[] = [];
const answer = async ({ request, params, context }: { request: Request; params: Record<string, string>; context: RouterContextProvider }) => {
  seen.push({ params, method: request.method, body: request.method === "GET" ? "" : await request.text(), nonce: context instanceof RouterContextProvider });
  return Response.json({ ok: true }, { status: request.method === "POST" ? 201 : 200, headers: { "RateLimit-Limit": "600" } });
};
const build = {
  routes: {
    root: { id: "root", path: "", module: {} },
    "routes/api/v1/campaign": { id: "routes/api/v1/campaign", parentId: "root", path: "api/v1/campaigns/:id", module: { loader: answer, action: answer } },
    "routes/api/v1/project": { id: "routes/api/v1/project", parentId: "root", path: "api/v1/project", module: { loader: answer } },
    "routes/page": { id: "routes/page", parentId: "root", path: "projects/:project", module: { loader: answer } },
  },
} as unknown as ServerBuild;

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(apiRequests({ build, context: () => new RouterContextProvider() }));
  app.use((_req, res) => void res.status(299).send("router"));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the public API ahead of the pages' router", () => {
  it("answers an API path from its route module's loader or action, with its params, body, status and headers", async () => {
    const got = await fetch(`${base}/api/v1/campaigns/c%201?x=1`);
    expect(got.status).toBe(200);
    expect(got.headers.get("ratelimit-limit")).toBe("600");
    expect(await got.json()).toEqual({ ok: true });
    const posted = await fetch(`${base}/api/v1/campaigns/c1`, { method: "POST", body: '{"a":1}', headers: { "content-type": "application/json" } });
    expect(posted.status).toBe(201);
    expect(seen.slice(-2)).toEqual([
      { params: { id: "c 1" }, method: "GET", body: "", nonce: true },
      { params: { id: "c1" }, method: "POST", body: '{"a":1}', nonce: true },
    ]);
  });

  it("leaves everything else to the router: pages, unknown API paths, and a method the module has no handler for", async () => {
    for (const [path, method] of [
      ["/projects/p", "GET"],
      ["/api/v1/nothing", "GET"],
      ["/api/v1/project", "POST"],
    ] as const)
      expect((await fetch(`${base}${path}`, { method })).status, `${method} ${path}`).toBe(299);
  });
});
