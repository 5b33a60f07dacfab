/**
 * The authentication endpoints the browser may call directly, by method: the link in the sign-in
 * e-mail, and the wallet's sign-in (SIWE), linking and per-chain session check. Nothing else of
 * the library is reachable over HTTP (see decision 018).
 */
const PUBLIC_AUTH_ENDPOINTS: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/magic-link/verify", "/wallet/session"]),
  POST: new Set(["/siwe/nonce", "/siwe/verify", "/wallet/link"]),
};

export function isPublicAuthEndpoint(method: string, pathname: string) {
  const path = pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "");
  return PUBLIC_AUTH_ENDPOINTS[method.toUpperCase()]?.has(path) ?? false;
}
