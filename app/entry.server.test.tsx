import { lazy, Suspense } from "react";
import { createRequestHandler, Links, Outlet, RouterContextProvider, Scripts, useLoaderData } from "react-router";
import type * as reactDomServer from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as entry from "~/entry.server";
import { nonceContext } from "~/lib/nonce";
import { testServerBuild } from "#tests/setup/server-build";

// Watched, not changed: which renders took React's streaming path.
vi.mock("react-dom/server", async (original) => {
  const server = await original<typeof reactDomServer>();
  return { ...server, renderToPipeableStream: vi.fn(server.renderToPipeableStream) };
});
const streamed = vi.mocked(renderToPipeableStream);
afterEach(() => {
  streamed.mockClear();
  vi.restoreAllMocks();
});

/**
 * The entry renders a page in one synchronous pass and falls back to React's streaming render when
 * part of the page waits (a lazy component's first load) or fails. Both must write the same bytes.
 */

// Its code arrives a step after the first render asks for it, as an import would.
const Later = lazy(async () => ({ default: () => <p>Drawn on the server, once its code arrived.</p> }));

function Document() {
  const { title } = useLoaderData<{ title: string }>();
  return (
    <html lang="en">
      <head>
        <title>{title}</title>
        <Links />
      </head>
      <body>
        <Outlet />
        <Scripts />
      </body>
    </html>
  );
}

function Plain() {
  const { text, when } = useLoaderData<{ text: string; when: Date }>();
  return (
    <main>
      <p>{text}</p>
      <time dateTime={when.toISOString()}>{when.toUTCString()}</time>
    </main>
  );
}

function Waiting() {
  return (
    <main>
      <Suspense fallback={<p>Loading</p>}>
        <Later />
      </Suspense>
    </main>
  );
}

function Broken(): never {
  throw new Error("the page broke while rendering");
}

function BrokenBoundary() {
  return <p>Something went wrong on this page.</p>;
}

const route = (id: string, path: string | undefined, module: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id,
  parentId: id === "root" ? undefined : "root",
  path,
  index: path === undefined && id !== "root" ? true : undefined,
  module,
  ...extra,
});

const routes = {
  root: route("root", "", { default: Document, loader: () => ({ title: "Parity" }) }),
  "routes/plain": route("routes/plain", "plain", {
    default: Plain,
    // Text that looks like React's marks must come out escaped, and never pass for one.
    loader: () => ({ text: "Ünïcode, <!--$!--> and </script> as text", when: new Date(Date.UTC(2026, 10, 27)) }),
  }),
  "routes/waiting": route("routes/waiting", "waiting", { default: Waiting }),
  "routes/broken": route("routes/broken", "broken", { default: Broken, ErrorBoundary: BrokenBoundary }),
};

const build = testServerBuild({
  entry,
  routes,
  assetRoutes: Object.fromEntries(
    Object.values(routes).map((r) => [
      r.id,
      {
        id: r.id,
        parentId: r.parentId,
        path: r.path,
        index: r.index,
        module: `/assets/${r.id.replace("/", "-")}.js`,
        hasLoader: "loader" in r.module,
        hasAction: false,
        hasClientLoader: false,
        hasClientAction: false,
        hasErrorBoundary: "ErrorBoundary" in r.module,
      },
    ]),
  ),
});

const handle = createRequestHandler(build, "production");

async function page(path: string, nonce: string) {
  const context = new RouterContextProvider(new Map([[nonceContext, nonce]]));
  const response = await handle(new Request(`http://questline.test${path}`), context);
  return { status: response.status, length: response.headers.get("content-length"), html: await response.text() };
}

describe("the page render", () => {
  it("writes a whole document: the doctype, the page, the loaders' data for the browser with the request's nonce", async () => {
    const { status, length, html } = await page("/plain", "nonce-1");
    expect(status).toBe(200);
    expect(Number(length)).toBe(Buffer.byteLength(html));
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true);
    expect(html).toContain("<title>Parity</title>");
    expect(html).toContain("<p>Ünïcode, &lt;!--$!--&gt; and &lt;/script&gt; as text</p>");
    expect(html).toContain('<time dateTime="2026-11-27T00:00:00.000Z">Fri, 27 Nov 2026 00:00:00 GMT</time>');
    // React Router's handoff: the encoded data, then the stream's end, each script with the nonce.
    expect(html).toMatch(/<script nonce="nonce-1">window\.__reactRouterContext\.streamController\.enqueue\(.*Ünïcode.*\);<\/script>/);
    expect(html).toContain('<script nonce="nonce-1">window.__reactRouterContext.streamController.close();</script>');
    expect(html.endsWith("</body></html>")).toBe(true);
    expect(streamed).not.toHaveBeenCalled();
  });

  it("waits for a part of the page that is not ready (a lazy component's first load), then draws it on the server as later renders do", async () => {
    const waited = await page("/waiting", "nonce-2");
    expect(waited.status).toBe(200);
    expect(waited.html).toContain("<p>Drawn on the server, once its code arrived.</p>");
    expect(waited.html).not.toContain("Loading");
    expect(waited.html).not.toContain("<!--$!-->");
    expect(streamed).toHaveBeenCalledTimes(1);

    // The component's code is loaded now: the next render is the one-pass one, and writes the same bytes.
    const again = await page("/waiting", "nonce-2");
    expect(again).toEqual(waited);
    expect(streamed).toHaveBeenCalledTimes(1);
  });

  it("answers a page that fails while rendering with its error boundary and status 500, and logs the error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { status, html } = await page("/broken", "nonce-3");
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: "the page broke while rendering" }));
    expect(status).toBe(500);
    expect(html).toContain("<p>Something went wrong on this page.</p>");
    expect(html).toContain('<script nonce="nonce-3">window.__reactRouterContext.streamController.close();</script>');
  });
});
