import { OAUTH_PROVIDERS } from "~/modules/social/providers";

/**
 * The authentication endpoints the browser may call directly, by method: the link in the sign-in
 * e-mail, the wallet's sign-in (SIWE), linking and per-chain session check, and the social
 * providers' redirect back after connecting an account (started by the connection's page).
 * Nothing else of the library is reachable over HTTP (see decisions 018 and 029).
 */
const PUBLIC_AUTH_ENDPOINTS: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/magic-link/verify", "/wallet/session", ...OAUTH_PROVIDERS.map((provider) => `/callback/${provider}`)]),
  POST: new Set(["/siwe/nonce", "/siwe/verify", "/wallet/link"]),
};

export function isPublicAuthEndpoint(method: string, pathname: string) {
  const path = pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "");
  return PUBLIC_AUTH_ENDPOINTS[method.toUpperCase()]?.has(path) ?? false;
}
