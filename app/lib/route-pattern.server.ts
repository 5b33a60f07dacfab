import { createContext, type ServerInstrumentation } from "react-router";

/**
 * Which route answered a request, for the server's request metrics (server/metrics.ts): the
 * server puts one writable slot per request in the load context (`res.locals`), and React Router's
 * request instrumentation writes the matched route's pattern into it, e.g. `/projects/:project`,
 * never the address itself. Without a slot nothing is written.
 */
export type RoutePatternSlot = { routePattern?: string };

export const routePatternContext = createContext<RoutePatternSlot | null>(null);

/** `app/entry.server.tsx` exports it among its `instrumentations`. */
export const routePatternInstrumentation: ServerInstrumentation = {
  handler(handler) {
    handler.instrument({
      async request(handle, { context }) {
        const { meta } = await handle();
        const slot = context?.get(routePatternContext);
        // No meta: a request React Router answers before matching (its `/__manifest` of routes).
        if (slot && meta) slot.routePattern = meta.pattern.startsWith("/") ? meta.pattern : `/${meta.pattern}`;
      },
    });
  },
};
