import { createHash, type Hash } from "node:crypto";

/** How long a CDN or reverse proxy may keep a visitor page, and serve it stale while it fetches a fresh one (decision 032). */

export const VISITOR_PAGE_FRESH_SECONDS = 10;
export const VISITOR_PAGE_STALE_SECONDS = 50;

export type Caching = { cacheControl: string; vary?: string; etag: boolean };

/**
 * How a rendered page may be kept:
 * - a signed-in member's page: `private, no-store`, never kept;
 * - a visitor page answered 200 to a GET without cookies and setting none: `public`, kept by shared
 *   caches for a few seconds (`s-maxage`, `stale-while-revalidate`), varying by Cookie, with an ETag;
 * - the same page for a visitor with cookies (appearance, a remembered wallet): private, revalidated
 *   by its ETag;
 * - any other page: private, revalidated each time.
 */
export function pageCaching({
  method,
  status,
  hasCookies,
  setsCookies,
  signedIn,
  isVisitorPage,
}: {
  method: string;
  status: number;
  hasCookies: boolean;
  setsCookies: boolean;
  signedIn: boolean;
  isVisitorPage: boolean;
}): Caching {
  if (signedIn) return { cacheControl: "private, no-store", etag: false };
  if (!isVisitorPage || method !== "GET" || status !== 200 || setsCookies) return { cacheControl: "private, no-cache", etag: false };
  if (hasCookies) return { cacheControl: "private, no-cache", etag: true };
  return {
    cacheControl: `public, max-age=0, s-maxage=${VISITOR_PAGE_FRESH_SECONDS}, stale-while-revalidate=${VISITOR_PAGE_STALE_SECONDS}`,
    vary: "Cookie",
    etag: true,
  };
}

/**
 * A weak ETag of a page: its bytes without the request's CSP nonce, which is all that differs
 * between two renders of the same content.
 */
export function pageEtag(body: Buffer, nonce: string | undefined) {
  return `W/"${hashWithout(createHash("sha1"), body, nonce).digest("base64url")}"`;
}

/**
 * Feeds the hash the bytes between the nonce's occurrences, in turn (no copy of them as a string),
 * and `mark` where each occurrence was.
 */
export function hashWithout(hash: Hash, bytes: Uint8Array, nonce: string | undefined, mark = ""): Hash {
  betweenNonces(bytes, nonce).forEach((segment, i) => {
    if (i > 0 && mark) hash.update(mark);
    hash.update(segment);
  });
  return hash;
}

/** The bytes between the nonce's occurrences: views into `bytes`, not copies; all of it without a nonce. */
export function betweenNonces(bytes: Uint8Array, nonce: string | undefined): Buffer[] {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!nonce) return [body];
  const needle = Buffer.from(nonce);
  const segments: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, from)) {
    segments.push(body.subarray(from, at));
    from = at + needle.length;
  }
  segments.push(body.subarray(from));
  return segments;
}

/** Whether the request's If-None-Match names this ETag (weak comparison, as for GET). */
export function notModified(ifNoneMatch: string | null, etag: string) {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}
