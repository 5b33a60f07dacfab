import type { RouteConfigEntry } from "@react-router/dev/routes";

/** Every URL pattern the router serves, from app/routes.ts (layouts add no segment). */
export function servedPaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}` : parent;
    const own = entry.index || (entry.path && !entry.children) ? [path || "/"] : [];
    return [...own, ...servedPaths(entry.children ?? [], path)];
  });
}
