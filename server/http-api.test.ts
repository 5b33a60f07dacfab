import { createServer, type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "~/services/env.server";
import { sameOriginOnly } from "./http";

/** The same-origin check's one exemption: /api/v1 with a Bearer key and no cookie. */
const env = loadEnv({ DATA_DIR: "/tmp/questline-http-api-test", APP_URL: "http://localhost:3000", AUTH_SECRET: "x".repeat(40) });
let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(sameOriginOnly(env));
  app.all("/{*path}", (_req, res) => void res.json({ passed: true }));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, headers: Record<string, string>) => fetch(`${base}${path}`, { method: "POST", headers, body: "{}" }).then((r) => r.status);

describe("the same-origin check and /api/v1", () => {
  it("lets a keyed API write through without an Origin", async () => {
    expect(await post("/api/v1/xp/grants", { authorization: "Bearer ql_x", "content-type": "application/json" })).toBe(200);
  });

  it("checks it like any other when it carries a cookie, has no key, or is not under /api/v1", async () => {
    expect(await post("/api/v1/xp/grants", { authorization: "Bearer ql_x", cookie: "session=1" })).toBe(403);
    expect(await post("/api/v1/xp/grants", { cookie: "session=1" })).toBe(403);
    expect(await post("/api/v1/xp/grants", { authorization: "Basic abc" })).toBe(403);
    expect(await post("/api/v1/xp/grants", { authorization: "Bearer ql_x", origin: "https://evil.example", cookie: "s=1" })).toBe(403);
    expect(await post("/projects/p/edit", { authorization: "Bearer ql_x" })).toBe(403);
    expect(await post("/api/auth/sign-in", { authorization: "Bearer ql_x" })).toBe(403);
  });
});
