import { createServer, type Server } from "node:http";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "~/lib/logger.server";
import { loadEnv } from "~/services/env.server";
import { securityHeaders } from "./http";
import { pagesRenderedOnce, pathsReadingNothing, type RenderPage } from "./pages-rendered-once";

const env = loadEnv({ DATA_DIR: "/tmp/questline-pages-once-test", APP_URL: "http://localhost:3000", AUTH_SECRET: "x".repeat(40) });
const warned: unknown[] = [];
const logger = createLogger("silent");
logger.warn = ((obj: unknown) => void warned.push(obj)) as typeof logger.warn;
logger.error = ((obj: unknown) => void warned.push(obj)) as typeof logger.error;

/** What the page renders, as React Router would: the nonce in a script and in the data. */
const page = (nonce: string, path: string) =>
  `<html><script nonce="${nonce}">boot()</script><p>${path}</p><script nonce="${nonce}">data(${JSON.stringify({ nonce })})</script></html>`;

const renders: { path: string; nonce: string }[] = [];
let status = 200;
const render: RenderPage = async (path, nonce) => {
  renders.push({ path, nonce });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "public, s-maxage=10", vary: "Cookie", etag: `W/"${path}"` };
  return { response: new Response(page(nonce, path), { status, headers }), pattern: path };
};

let server: Server;
let base: string;
const fullRenders: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(securityHeaders(env, { dev: false }));
  app.use(pagesRenderedOnce({ paths: new Set(["/", "/about", "/broken"]), render, logger }));
  app.use((req, res) => {
    fullRenders.push(`${req.method} ${req.url}`);
    res.send("rendered per request");
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  fullRenders.length = 0;
  warned.length = 0;
});

const policyNonce = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

describe("a page that reads nothing", () => {
  it("is rendered once for all visitors without cookies, each answered with the nonce of their own request", async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${base}/`)));
    expect(renders.filter((render) => render.path === "/")).toHaveLength(1);
    const nonces = new Set<string>();
    for (const answer of answers) {
      const nonce = policyNonce(answer)!;
      nonces.add(nonce);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(page(nonce, "/"));
      expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(page(nonce, "/"))));
      expect(answer.headers.get("cache-control")).toBe("public, s-maxage=10");
      expect(answer.headers.get("etag")).toBe('W/"/"');
      expect(answer.headers.get("vary")).toBe("Cookie");
    }
    expect(nonces.size).toBe(5);
    // The stand-in nonce of the one render is nobody's.
    expect(nonces.has(renders[0]!.nonce)).toBe(false);
    expect(fullRenders).toEqual([]);
  });

  it("answers a visitor holding its ETag with 304, and keeps one render per path", async () => {
    const again = await fetch(`${base}/`, { headers: { "if-none-match": 'W/"/"' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // The kept page's scripts carry the nonce of the policy kept with it.
    expect(again.headers.get("content-security-policy")).toBeNull();
    expect((await fetch(`${base}/about`)).status).toBe(200);
    expect((await fetch(`${base}/about`)).status).toBe(200);
    expect(renders.map((render) => render.path)).toEqual(["/", "/about"]);
  });

  it("leaves the full render to anything else: cookies, a query string, another method or path", async () => {
    const asked = [
      fetch(`${base}/`, { headers: { cookie: "appearance=dark" } }),
      fetch(`${base}/?ref=someone`),
      fetch(`${base}/`, { method: "HEAD" }),
      fetch(`${base}/`, { method: "POST", body: "a=1" }),
      fetch(`${base}/other`),
    ];
    for (const answer of await Promise.all(asked)) expect(answer.status).toBe(200);
    expect(fullRenders.sort()).toEqual(["GET /", "GET /?ref=someone", "GET /other", "HEAD /", "POST /"]);
    expect(renders).toHaveLength(2);
  });

  it("is never kept when its render is not a visitor page's, and says so once", async () => {
    status = 500;
    try {
      for (let i = 0; i < 3; i++) expect(await (await fetch(`${base}/broken`)).text()).toBe("rendered per request");
    } finally {
      status = 200;
    }
    expect(renders.filter((render) => render.path === "/broken")).toHaveLength(1);
    expect(fullRenders).toEqual(["GET /broken", "GET /broken", "GET /broken"]);
    expect(warned).toHaveLength(1);
  });
});

describe("the paths of the routes that read nothing", () => {
  const routes = (handles: Record<string, { parentId?: string; path?: string; index?: boolean; handle?: unknown; loader?: () => unknown }>) =>
    Object.fromEntries(
      Object.entries(handles).map(([id, { handle, loader, ...route }]) => [id, { id, ...route, module: { handle, loader } }]),
    ) as unknown as ServerBuild["routes"];

  it("joins each marked route's path to its parents', through pathless layouts", () => {
    const marked = { visitorPage: true, readsNothing: true };
    expect(
      pathsReadingNothing(
        routes({
          root: { path: "" },
          welcome: { parentId: "root", index: true, handle: marked },
          layout: { parentId: "root" },
          about: { parentId: "layout", path: "about/us", handle: marked },
          leaderboard: { parentId: "layout", path: "leaderboard", handle: { visitorPage: true } },
        }),
      ),
    ).toEqual(new Set(["/", "/about/us"]));
  });

  it("refuses a marked route with a parameter in its path", () => {
    expect(() =>
      pathsReadingNothing(
        routes({ root: { path: "" }, project: { parentId: "root", path: "projects/:project", handle: { visitorPage: true, readsNothing: true } } }),
      ),
    ).toThrow(/parameters/);
  });

  it("refuses a marked route with a loader of its own", () => {
    const marked = { visitorPage: true, readsNothing: true };
    expect(() => pathsReadingNothing(routes({ root: { path: "" }, welcome: { parentId: "root", index: true, handle: marked, loader: () => ({}) } }))).toThrow(
      /loader/,
    );
  });
});
