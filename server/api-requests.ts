import type { Request as ExpressRequest, RequestHandler } from "express";
import type { RouterContextProvider, ServerBuild } from "react-router";

type RouteModule = { loader?: (args: ApiArgs) => Promise<Response> | Response; action?: (args: ApiArgs) => Promise<Response> | Response };
type ApiArgs = { request: Request; params: Record<string, string>; context: RouterContextProvider };

/**
 * The public API (`/api/v1`, app/modules/api) answered straight from its route modules, ahead of
 * React Router's request handler: the same modules, loaders and actions the router would call
 * (app/routes/api/v1, listed in app/routes.ts), without what a page needs and an API request does
 * not — its route tree walk, the root's middleware (session, form gate), single-fetch data
 * handling and document rendering. The API reads no session and answers JSON it built itself
 * (decision 062). A path no API route matches goes on to React Router (its JSON 404s and the rest).
 */
export function apiRequests({ build, context }: { build: ServerBuild; context: (nonce: string) => RouterContextProvider }): RequestHandler {
  const routes = Object.values(build.routes).flatMap((route) => {
    if (!route?.path?.startsWith("api/v1/") || route.parentId !== "root") return [];
    const names: string[] = [];
    const source = route.path
      .split("/")
      .map((segment) => {
        if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(segment.slice(1));
        return "([^/]+)";
      })
      .join("/");
    return [{ pattern: `/${route.path}`, match: new RegExp(`^/${source}/?$`), names, module: route.module as RouteModule }];
  });
  return (req, res, next) => {
    if (!req.path.startsWith("/api/v1/")) return next();
    const found = routes.find((route) => route.match.test(req.path));
    if (!found) return next();
    const values = found.match.exec(req.path)!.slice(1);
    const params = Object.fromEntries(found.names.map((name, i) => [name, decodeURIComponent(values[i]!)]));
    const handler = req.method === "GET" || req.method === "HEAD" ? found.module.loader : found.module.action;
    if (!handler) return next();
    res.locals.routePattern = found.pattern;
    void (async () => {
      const response = await handler({ request: await fetchRequest(req), params, context: context(res.locals.nonce as string) });
      res.status(response.status);
      response.headers.forEach((value, name) => res.append(name, value));
      res.end(req.method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
    })().catch(next);
  };
}

/** The Fetch API request the route modules take, from Express's (its body read whole: the body limit came before). */
async function fetchRequest(req: ExpressRequest): Promise<Request> {
  const url = `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  if (req.method === "GET" || req.method === "HEAD") return new Request(url, { method: req.method, headers });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request(url, { method: req.method, headers, body: Buffer.concat(chunks) });
}
