/**
 * A route's `handle` that makes its page a visitor page: the same for every signed-out visitor, so
 * a CDN or reverse proxy in front may keep it a few seconds (page-cache.server.ts, decision 032).
 * Routes write `export const handle: VisitorPage = { visitorPage: true }`: a shared constant would be
 * a script of its own to fetch on every page.
 */
export type VisitorPage = { visitorPage: true };
