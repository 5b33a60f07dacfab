import { createServer, type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "~/lib/env.server";
import { BODY_LIMIT_BYTES, bodyLimit, clientAddress, sameOriginOnly, securityHeaders } from "./http";

const env = loadEnv({ DATA_DIR: "/tmp/questline-http-test", APP_URL: "http://localhost:3000", AUTH_SECRET: "x".repeat(40) });
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(clientAddress());
  app.use(securityHeaders(env, { dev: false }));
  app.use(sameOriginOnly(env));
  app.use(bodyLimit());
  app.all("/{*path}", (req, res) => {
    res.json({ ip: req.headers["x-questline-client-ip"], nonce: res.locals.nonce });
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("CSRF protection", () => {
  it("lets safe methods through from anywhere", async () => {
    expect((await fetch(`${base}/login`, { headers: { origin: "https://evil.example" } })).status).toBe(200);
  });

  it("accepts a state-changing request from our own origin", async () => {
    const response = await fetch(`${base}/login`, { method: "POST", headers: { origin: "http://localhost:3000" }, body: "a=1" });
    expect(response.status).toBe(200);
  });

  it("refuses one from another site, or with no origin at all", async () => {
    for (const headers of [{ origin: "https://evil.example" }, {}, { referer: "https://evil.example/page" }] as Record<string, string>[]) {
      const response = await fetch(`${base}/login`, { method: "POST", headers, body: "a=1" });
      expect(response.status).toBe(403);
    }
    const crossSite = await fetch(`${base}/login`, {
      method: "POST",
      headers: { origin: "http://localhost:3000", "sec-fetch-site": "cross-site" },
      body: "a=1",
    });
    expect(crossSite.status).toBe(403);
  });
});

describe("body size", () => {
  it("refuses a body over the limit before reading it", async () => {
    const response = await fetch(`${base}/login`, {
      method: "POST",
      headers: { origin: "http://localhost:3000" },
      body: "x".repeat(BODY_LIMIT_BYTES + 1),
    });
    expect(response.status).toBe(413);
  });

  it("allows larger bodies only where uploads are expected", async () => {
    const body = "x".repeat(BODY_LIMIT_BYTES + 1);
    const response = await fetch(`${base}/settings/profile`, { method: "POST", headers: { origin: "http://localhost:3000" }, body });
    expect(response.status).toBe(200);
  });
});

describe("security headers", () => {
  it("sets a nonce-based CSP and the usual protections", async () => {
    const response = await fetch(`${base}/`);
    const { nonce } = (await response.json()) as { nonce: string };
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("gives every response its own nonce", async () => {
    const a = (await (await fetch(`${base}/`)).json()) as { nonce: string };
    const b = (await (await fetch(`${base}/`)).json()) as { nonce: string };
    expect(a.nonce).not.toBe(b.nonce);
  });
});

describe("client address", () => {
  it("replaces whatever the client claims with the socket's address", async () => {
    const response = await fetch(`${base}/`, { headers: { "x-questline-client-ip": "1.2.3.4" } });
    const { ip } = (await response.json()) as { ip: string };
    expect(ip).not.toBe("1.2.3.4");
    expect(ip).toMatch(/127\.0\.0\.1/);
  });
});
