import type { ServerBuild } from "react-router";

/**
 * A production server build of our own for React Router's request handler: the given entry module
 * and routes, and the manifest of the routes' browser modules (empty when no page renders them).
 */
export function testServerBuild({
  entry,
  routes,
  assetRoutes = {},
}: {
  entry: unknown;
  routes: Record<string, unknown>;
  assetRoutes?: Record<string, unknown>;
}) {
  return {
    entry: { module: entry },
    routes,
    assets: { entry: { module: "/assets/entry.js", imports: [] }, routes: assetRoutes, url: "/assets/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}
