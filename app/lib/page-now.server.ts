/**
 * The moment a visitor page is read at, to the whole second. Pages show times to the minute, and
 * two requests in the same second for the same data then have the same inputs, so the second one
 * is answered from the first one's render (render-memo.server.ts, decision 034).
 */
export function pageNow(at = Date.now()): Date {
  return new Date(at - (at % 1000));
}
