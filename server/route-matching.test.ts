import type { RouteConfigEntry } from "@react-router/dev/routes";
import { createStaticHandler, matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { servedPaths } from "#tests/setup/served-paths";
import { withServerRouteMatching } from "./route-matching";

/** app/routes.ts as React Router builds it: every route under the root, ids from the file names. */
const toRoute = (entry: RouteConfigEntry): RouteObject => {
  const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
  if (entry.index) return { id, index: true, path: entry.path };
  return { id, path: entry.path, caseSensitive: entry.caseSensitive, children: entry.children?.map(toRoute) };
};
const routes: RouteObject[] = [{ id: "root", path: "", children: routeConfig.map(toRoute) }];

/** Values a parameter can take in a URL, including ones that look like other routes' segments. */
const VALUES = ["astra-bridge", "new", "edit", "leaderboard", "Season_4", "a.b", "42", "%20x", "%E2%9C%93", "caf%C3%A9", "x%2Fy", "proof.json"];

/**
 * Paths to ask both matchers about: every route with each value, their prefixes, and odd forms.
 * None with repeated slashes: the two differ there ("/tasks//" is the tasks page to one, not found
 * to the other), and plainAddressesOnly (server/http.ts) sends such a path to its plain form
 * before it reaches either.
 */
function samplePaths(): string[] {
  const samples = new Set<string>([
    "/",
    "/nope",
    "/nope/nope/nope",
    "/api/auth/sign-in/email",
    "/assets/x.js",
    "/DASHBOARD",
    "/projects/",
    "/.data",
    "/dashboard.data",
  ]);
  for (const path of servedPaths(routeConfig)) {
    for (const [i, value] of VALUES.entries()) {
      const filled = path.replace(/:[\w-]+/g, (_, n: number) => VALUES[(i + n) % VALUES.length]!).replace(/\*$/, `${value}/more`);
      const segments = filled.split("/");
      for (let end = 1; end <= segments.length; end++) samples.add(segments.slice(0, end).join("/") || "/");
      samples.add(`${filled}/`);
      samples.add(filled.toUpperCase());
    }
  }
  return [...samples].filter((path) => !path.includes("//"));
}

const shape = (matches: ReturnType<typeof matchRoutes>) => matches?.map(({ route, params, pathname }) => ({ id: route.id, params, pathname })) ?? null;

describe("the server's route matching", () => {
  const build = withServerRouteMatching({ future: { v8_middleware: true } } as unknown as ServerBuild);
  const server = createStaticHandler(routes, { future: build.future as never });

  it("turns React Router's route-pattern matcher on for the server, and leaves it out of the browser's hand-off", () => {
    expect((build.future as { unstable_routePatternMatching?: boolean }).unstable_routePatternMatching).toBe(true);
    expect(JSON.parse(JSON.stringify({ future: build.future }))).toEqual({ future: { v8_middleware: true } });
    // The route-pattern matcher refuses case-sensitive routes, the default one takes them: proof
    // that a static handler given these flags matches with the former.
    const caseSensitive = [{ id: "a", path: "a", caseSensitive: true }];
    expect(() => createStaticHandler(caseSensitive, { future: build.future as never })).toThrow(/caseSensitive/);
    expect(() => createStaticHandler(caseSensitive)).not.toThrow();
  });

  it("chooses the route and parameters the browser's matcher chooses, for every route of the app", () => {
    const samples = samplePaths();
    expect(samples.length).toBeGreaterThan(1000);
    const differences = samples
      .map((path) => ({ path, server: shape(server.match(path)), browser: shape(matchRoutes(routes, path)) }))
      .filter(({ server, browser }) => JSON.stringify(server) !== JSON.stringify(browser));
    expect(differences).toEqual([]);
  });

  it("answers every route of the app with that route", () => {
    for (const path of servedPaths(routeConfig).filter((path) => !path.includes("*"))) {
      const url = path.replace(/:[\w-]+/g, "x1");
      const leaf = server.match(url)?.at(-1)?.route.id;
      expect(leaf, url).not.toBe("routes/not-found");
    }
  });
});
