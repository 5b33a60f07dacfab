/**
 * A route's `handle` that makes its page a visitor page: the same for every signed-out visitor, so
 * a CDN or reverse proxy in front may keep it a few seconds (page-cache.server.ts, decision 032).
 */
export const visitorPage = { visitorPage: true } as const;
