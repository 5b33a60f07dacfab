import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import type { Logger } from "~/lib/logger.server";
import { notModified } from "~/lib/page-cache.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** A render of a page at a path with a given CSP nonce, and the pattern of the route that answered. */
export type RenderPage = (path: string, nonce: string) => Promise<{ response: Response; pattern?: string }>;

type Kept = { headers: [string, string][]; parts: string[]; etag: string; pattern?: string };

/**
 * Pages that read nothing (`readsNothing` on a visitor page's handle): for a visitor without
 * cookies, their whole answer follows from the build and the configuration, both fixed for the
 * life of the process. Each is rendered once, the first time it is asked for, with a stand-in
 * nonce, and every such visitor gets that render with the stand-in replaced by the CSP nonce of
 * their own request: the same bytes a render of theirs would give (decision 033).
 *
 * Anything else goes on to the full render: another method, a query string (an invite link sets a
 * cookie), cookies (a session, the appearance, a remembered wallet), another path, and a page whose
 * first render did not come out as a visitor page should (then it is never kept).
 */
export function pagesRenderedOnce({ paths, render, logger }: { paths: ReadonlySet<string>; render: RenderPage; logger: Logger }): RequestHandler {
  const standIn = randomBytes(16).toString("base64");
  const kept = new Map<string, Promise<Kept | null>>();

  const keep = async (path: string): Promise<Kept | null> => {
    const { response, pattern } = await render(path, standIn);
    const etag = response.headers.get("etag");
    if (response.status !== 200 || !etag || response.headers.has("set-cookie")) {
      logger.warn({ path, status: response.status }, "a page marked as reading nothing did not render as a visitor page: it is rendered per request");
      return null;
    }
    const headers = [...response.headers].filter(([name]) => name !== "content-length");
    return { headers, parts: (await response.text()).split(standIn), etag, pattern };
  };

  return (req, res, next) => {
    if (req.method !== "GET" || req.headers.cookie !== undefined || req.url !== req.path || !paths.has(req.path)) return next();
    let page = kept.get(req.path);
    if (!page) {
      page = keep(req.path).catch((err: unknown) => {
        logger.error({ err, path: req.path }, "a page marked as reading nothing failed to render: it is rendered per request");
        return null;
      });
      kept.set(req.path, page);
    }
    page
      .then((page) => {
        if (!page) return next();
        res.locals.routePattern = page.pattern;
        for (const [name, value] of page.headers) res.append(name, value);
        if (notModified(req.headers["if-none-match"] ?? null, page.etag)) return void res.status(304).end();
        const body = Buffer.from(page.parts.join(res.locals.nonce as string));
        res.status(200).setHeader("Content-Length", body.length);
        res.end(body);
      })
      .catch(next);
  };
}

/**
 * The paths of the build's routes marked `readsNothing`. A marked route with parameters in its path
 * or a loader of its own is refused at start: its page could not be the same for every visitor.
 */
export function pathsReadingNothing(routes: ServerBuild["routes"]): Set<string> {
  const pathOf = (id: string): string[] => {
    const route = routes[id];
    if (!route) return [];
    return [...(route.parentId ? pathOf(route.parentId) : []), ...(route.path ?? "").split("/").filter(Boolean)];
  };
  const paths = new Set<string>();
  for (const [id, route] of Object.entries(routes)) {
    if (!route || (route.module.handle as Partial<VisitorPage> | undefined)?.readsNothing !== true) continue;
    const segments = pathOf(id);
    if (segments.some((segment) => segment.startsWith(":") || segment === "*")) throw new Error(`${id} reads nothing but has parameters in its path`);
    if (route.module.loader) throw new Error(`${id} reads nothing but has a loader`);
    paths.add(`/${segments.join("/")}`);
  }
  return paths;
}
