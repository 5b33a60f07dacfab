/**
 * A route's `handle` that makes its page a visitor page: the same for every signed-out visitor, so
 * a CDN or reverse proxy in front may keep it a few seconds (page-cache.server.ts, decision 032).
 * Routes write `export const handle: VisitorPage = { visitorPage: true }`: a shared constant would be
 * a script of its own to fetch on every page.
 */
export type VisitorPage = {
  visitorPage: true;
  /**
   * Its page, for a visitor without cookies, follows from the build and the configuration alone: no
   * loader of its own, nothing read from the database, nothing that depends on the time. The server
   * renders it once per process and answers each such visitor with that render and the nonce of
   * their own request (server/pages-rendered-once.ts, decision 033).
   */
  readsNothing?: true;
};
