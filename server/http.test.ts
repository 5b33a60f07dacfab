import { createServer, request as httpRequest, type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "~/services/env.server";
import { createLogger } from "~/lib/logger.server";
import {
  BODY_LIMIT_BYTES,
  bodyLimit,
  clientAddress,
  newNonce,
  oneLoopbackName,
  originFormTargets,
  plainAddressesOnly,
  sameOriginOnly,
  securityHeaders,
} from "./http";

const env = loadEnv({ DATA_DIR: "/tmp/questline-http-test", APP_URL: "http://localhost:3000", AUTH_SECRET: "x".repeat(40) });
let server: Server;
let base: string;
const warnings: unknown[] = [];
const logger = createLogger("warn");
logger.warn = ((obj: unknown) => void warnings.push(obj)) as typeof logger.warn;

beforeAll(async () => {
  const app = express();
  app.use(plainAddressesOnly());
  app.use(oneLoopbackName(env));
  app.use(clientAddress());
  app.use(securityHeaders(env, { dev: false }));
  app.use(sameOriginOnly(env, logger));
  app.use(bodyLimit());
  app.use("/mounted", (req, res) => void res.json({ mounted: req.url }));
  app.all("/{*path}", (req, res) => {
    res.json({ ip: req.headers["x-questline-client-ip"], nonce: res.locals.nonce, host: req.headers.host, target: req.originalUrl });
  });
  server = createServer(originFormTargets(app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A request with a Host header of our choosing (fetch does not let one set it). */
function asHost(host: string, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { method, headers: { ...headers, host } }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, location: response.headers.location, text }));
    });
    request.on("error", reject);
    request.end(method === "POST" ? "a=1" : undefined);
  });
}

/** A GET whose request target is `target` as written (fetch and URLs would normalise it). */
function asTarget(target: string, method = "GET") {
  return new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
    const { port } = new URL(base);
    const request = httpRequest({ host: "127.0.0.1", port, method, path: target, headers: { host: "localhost:3000" } }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, location: response.headers.location, text }));
    });
    request.on("error", reject);
    request.end();
  });
}

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

describe("the refused origin", () => {
  it("is named in the answer with the one expected, and logged once however often it comes", async () => {
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${base}/login`, { method: "POST", headers: { origin: "http://127.0.0.1:9999" }, body: "a=1" });
      expect(await response.text()).toBe("Cross-site request refused: this server takes forms from http://localhost:3000 only.");
    }
    const mine = warnings.filter((w) => (w as { origin: string }).origin === "http://127.0.0.1:9999");
    expect(mine).toEqual([{ origin: "http://127.0.0.1:9999", expected: "http://localhost:3000", path: "/login" }]);
  });
});

describe("the local trial's two loopback names", () => {
  it("sends pages opened at 127.0.0.1 to APP_URL's localhost, and says where forms go", async () => {
    const page = await asHost("127.0.0.1:3000", "GET", "/projects?sort=new");
    expect(page.status).toBe(308);
    expect(page.location).toBe("http://localhost:3000/projects?sort=new");
    const form = await asHost("127.0.0.1:3000", "POST", "/login", { origin: "http://127.0.0.1:3000" });
    expect(form.status).toBe(403);
    expect(form.text).toBe("Open http://localhost:3000 to use this local trial: forms are taken there only.");
    // Another port (a proxy, another app) is left alone, and so is APP_URL's own name.
    expect((await asHost("127.0.0.1:4000", "GET", "/projects")).status).toBe(200);
    expect((await asHost("localhost:3000", "GET", "/projects")).status).toBe(200);
    // Health probes do not follow redirects: /healthz answers under either name.
    expect((await asHost("127.0.0.1:3000", "GET", "/healthz")).status).toBe(200);
  });
});

describe("addresses", () => {
  it("refuses a control character in the path or query, signed out, before anything reads it", async () => {
    for (const path of ["/projects/a%00b", "/tasks?q=%00", "/login?redirectTo=%01x", "/projects/%E0%A4%A"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(400);
    }
    expect((await fetch(`${base}/tasks?q=caf%C3%A9%20bar`)).status).toBe(200);
  });

  it("sends a path with repeated slashes to its plain form, on this site, with its query and method", async () => {
    for (const [path, plain] of [
      ["//", "/"],
      ["/dashboard//", "/dashboard/"],
      ["//evil.example/x", "/evil.example/x"],
      ["///evil.example", "/evil.example"],
      ["/projects//a///campaigns?next=//x", "/projects/a/campaigns?next=//x"],
    ]) {
      const response = await asHost("localhost:3000", "GET", path!);
      expect([response.status, response.location], path).toEqual([308, plain]);
    }
    const post = await asHost("localhost:3000", "POST", "/login//", { origin: "http://localhost:3000" });
    expect([post.status, post.location]).toEqual([308, "/login/"]);
    expect((await fetch(`${base}/tasks?q=//x`)).status).toBe(200);
    expect(await asTarget("http://localhost:3000//tasks//?q=1")).toMatchObject({ status: 308, location: "/tasks/?q=1" });
  });

  it("takes a request target in absolute form, as a proxy may send it, as its path, with its authority as the Host", async () => {
    const plain = await asTarget("http://localhost:3000/tasks?q=//x");
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.text)).toMatchObject({ host: "localhost:3000", target: "/tasks?q=//x" });
    // HTTP/1.1: the target's authority wins over the Host header, as if it had been sent as the Host.
    const other = await asTarget("http://other.example:8080/a/../tasks");
    expect(JSON.parse(other.text)).toMatchObject({ host: "other.example:8080", target: "/tasks" });
    // Express's mounts see the path (the built files are served from one).
    expect(JSON.parse((await asTarget("http://localhost:3000/mounted/x.js?v=1")).text)).toEqual({ mounted: "/x.js?v=1" });
    for (const target of ["*", "ftp://localhost:3000/tasks"]) {
      const refused = await asTarget(target, target === "*" ? "OPTIONS" : "GET");
      expect([refused.status, refused.text], target).toEqual([400, "This address is not valid."]);
    }
    // Node's parser refuses these before us.
    for (const target of ["http:tasks", "mailto:a@example.com"]) expect((await asTarget(target)).status, target).toBe(400);
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

  it("allows larger bodies only where uploads are expected, up to two 2 MB images", async () => {
    const body = "x".repeat(4 * 1024 * 1024 + 200_000);
    for (const path of ["/settings/profile", "/projects/new", "/projects/acme/edit", "/projects/acme/edit.data", "/tasks/abc"]) {
      const response = await fetch(`${base}${path}`, { method: "POST", headers: { origin: "http://localhost:3000" }, body });
      expect(response.status, path).toBe(200);
    }
    const tooBig = await fetch(`${base}/projects/new`, { method: "POST", headers: { origin: "http://localhost:3000" }, body: "x".repeat(5 * 1024 * 1024 + 1) });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toBe("The upload is too large: each image can be up to 2 MB.");
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

  it("draws nonces of 16 random bytes, none repeated across refills of the pool", () => {
    const nonces = Array.from({ length: 1_000 }, () => newNonce());
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(new Set(nonces).size).toBe(nonces.length);
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
