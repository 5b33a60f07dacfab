import type { ServerBuild } from "react-router";
import { unstable_preloadRoutePattern } from "react-router/route-pattern";

/**
 * The build the server answers with: the same routes, matched on the server by React Router's
 * route-pattern matcher instead of its default one (decision 037).
 *
 * The default matcher tries the route branches one by one, most specific first, and every branch
 * it tries builds its parents' matches before its own segment fails: 70–130 µs for our short paths,
 * two to six times per page (the request, its loaders, the routes the page names for the
 * browser). The route-pattern matcher finds the candidates in one pass, 10–25 µs.
 *
 * The browser keeps the default matcher: loading the other would add its code to every first
 * load. So the flag is left out of what the page hands the browser (`toJSON` gives the build's
 * own flags, and the hand-off is JSON), and the two must choose the same route and parameters
 * for every path: route-matching.test.ts checks that for every route of app/routes.ts.
 */
export function withServerRouteMatching(build: ServerBuild): ServerBuild {
  unstable_preloadRoutePattern();
  const future = { ...build.future, unstable_routePatternMatching: true, toJSON: () => build.future };
  return { ...build, future: future as unknown as ServerBuild["future"] };
}
