import { randomFillSync, randomUUID } from "node:crypto";
import type { RequestListener } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { isSignedReceiverPath } from "~/lib/signed-receivers";
import type { Env } from "~/services/env.server";
import type { Logger } from "~/lib/logger.server";
import { hasControlCharacter } from "~/lib/form-text";
import { CLIENT_IP_HEADER } from "~/modules/auth/auth.server";
import { AVATAR_HOSTS } from "~/modules/social/providers";

/** Express middlewares of the HTTP edge: request ids and logs, client address, security headers, CSRF, body size. */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Forms that carry uploads may be larger: two 2 MB images (a project's logo and banner) and the fields. */
const UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
/**
 * Forms that carry an upload (each says "up to 2 MB" per image): the avatar, a project's logo and
 * banner (new and edit: two images), and image submissions on a task page. A React Router
 * form posts to the page's path, or to it with `.data` when sent from the page's script.
 */
const UPLOAD_PATHS = [/^\/settings\/profile$/, /^\/tasks\/[^/]+$/, /^\/projects\/new$/, /^\/projects\/[^/]+\/edit$/];
const isUploadPath = (path: string) => {
  const page = path.replace(/\.data$/, "");
  return UPLOAD_PATHS.some((pattern) => pattern.test(page));
};

/**
 * Refuses an address whose path or query holds a control character (NUL and the like), or that
 * cannot be decoded, before anything reads it: the database cannot store such text, and no page
 * of ours takes it. A path with repeated slashes is sent to its plain form (308, the method and
 * body kept): the server and the browser match such paths to different routes
 * (server/route-matching.ts), and no link of ours makes one.
 */
export function plainAddressesOnly() {
  return (req: Request, res: Response, next: NextFunction) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(req.originalUrl.replace(/\+/g, " "));
    } catch {
      return void res.status(400).type("text/plain").send("This address is not valid.");
    }
    if (hasControlCharacter(decoded)) return void res.status(400).type("text/plain").send("This address holds a control character and cannot be opened.");
    if (req.path.includes("//")) {
      const query = req.originalUrl.indexOf("?");
      return void res.redirect(308, req.path.replace(/\/{2,}/g, "/") + (query < 0 ? "" : req.originalUrl.slice(query)));
    }
    next();
  };
}

/**
 * Requests whose target is in absolute form ("GET http://host/path", as a proxy may send it) taken
 * as HTTP/1.1 asks (RFC 9112, 3.2.2): the target's path and query as the target, its authority as
 * the Host. Done before Express sees the request: its router and React Router's adapter both read
 * the target as a path (the adapter joined "http://host" and "http://host/path", and the request
 * failed). A target that is neither a path nor absolute ("*", for OPTIONS alone) is refused.
 */
export function originFormTargets(handler: RequestListener): RequestListener {
  return (req, res) => {
    if (req.url?.startsWith("/")) return handler(req, res);
    const target = absoluteTarget(req.url ?? "");
    if (!target) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" }).end("This address is not valid.");
      return;
    }
    req.headers.host = target.host;
    req.url = target.pathname + target.search;
    handler(req, res);
  };
}

function absoluteTarget(target: string) {
  try {
    const url = new URL(target);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host ? url : null;
  } catch {
    return null;
  }
}

export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const id = randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = id;
    res.setHeader("x-request-id", id);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path alone: query strings may hold one-time tokens.
      logger.info({ reqId: id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) }, "request");
    });
    next();
  };
}

/** Puts the client's address where the auth rate limiter reads it; a value sent by the client is dropped. */
export function clientAddress() {
  return (req: Request, _res: Response, next: NextFunction) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    next();
  };
}

/** Hosts the browser's wallet stack talks to: the wallet modal's cloud and the node providers. */
const WALLET_CONNECT_SRC = [
  "https://api.web3modal.org",
  "https://rpc.walletconnect.org",
  "https://pulse.walletconnect.org",
  "wss://relay.walletconnect.org",
  "https://rpc.ankr.com",
  "https://*.infura.io",
  "https://*.blastapi.io",
];

/**
 * A CSP nonce: 16 bytes from the system's random source, drawn from a pool filled 4 KB at a time,
 * so that a request costs no system call of its own (as `randomUUID` does).
 */
const noncePool = Buffer.alloc(4096);
let nonceAt = noncePool.length;
export function newNonce() {
  if (nonceAt === noncePool.length) {
    randomFillSync(noncePool);
    nonceAt = 0;
  }
  nonceAt += 16;
  return noncePool.toString("base64", nonceAt - 16, nonceAt);
}

export function securityHeaders(env: Env, { dev, localRpcs = [] }: { dev: boolean; localRpcs?: readonly (string | undefined)[] }) {
  const walletConnect = [...WALLET_CONNECT_SRC, ...localRpcs.flatMap((url) => (url ? [new URL(url).origin] : []))].join(" ");
  const NONCE = "{nonce}";
  const scriptSrc = dev ? `'self' 'unsafe-inline' 'unsafe-eval'` : `'self' 'nonce-${NONCE}'`;
  const connectSrc = `'self' ${walletConnect}${dev ? " ws: wss:" : ""}`;
  // The policy is the same for every response but its nonce: written once, the nonce put in per response.
  const [beforeNonce = "", afterNonce = ""] = [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https://api.web3modal.org ${AVATAR_HOSTS.join(" ")}`,
    "font-src 'self' data: https://fonts.reown.com",
    "frame-src https://secure.walletconnect.org",
    `connect-src ${connectSrc}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ]
    .join("; ")
    .split(NONCE);
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = newNonce();
    res.locals.nonce = nonce;
    res.setHeader("content-security-policy", dev ? beforeNonce : `${beforeNonce}${nonce}${afterNonce}`);
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("referrer-policy", "strict-origin-when-cross-origin");
    res.setHeader("x-frame-options", "DENY");
    res.setHeader("cross-origin-opener-policy", "same-origin");
    res.setHeader("permissions-policy", "camera=(), microphone=(), geolocation=()");
    if (env.APP_URL.startsWith("https://")) res.setHeader("strict-transport-security", "max-age=31536000; includeSubDomains");
    keepCachedPolicyOnNotModified(res);
    next();
  };
}

/**
 * CSRF protection for every state-changing request: it must come from our own origin. Browsers
 * always send `Origin` on such requests; a request without it (or from another site) is refused,
 * with the origin we expected. Each refused origin is logged once (a flood does not flood the log).
 */
export function sameOriginOnly(env: Env, logger?: Logger) {
  const allowed = new URL(env.APP_URL).origin;
  const logged = new Set<string>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (isKeyedApiRequest(req)) return next();
    const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
    // RFC 8058 one-click unsubscribe: a mail client POSTs `List-Unsubscribe=One-Click` to the
    // mail's link from no page of ours (no Origin of ours, or none). The token in the path
    // authorizes it (an HMAC of the member and kind, app/modules/notifications/unsubscribe.server.ts),
    // not a session cookie, so a forged cross-site request can do nothing the token's holder could not.
    if (req.method === "POST" && UNSUBSCRIBE_PATH.test(req.path)) return next();
    // The local trial's stand-ins for a project's server take our own signed requests, which carry
    // no Origin: each checks the signature instead (lib/signed-receivers.ts).
    if (!env.isPublic && req.method === "POST" && isSignedReceiverPath(req.path)) return next();
    if (origin === allowed && req.headers["sec-fetch-site"] !== "cross-site") return next();
    const seen = origin ?? "(none)";
    if (logger && !logged.has(seen) && logged.size < 100) {
      logged.add(seen);
      logger.warn({ origin: seen, expected: allowed, path: req.path }, "refused a request from another origin (logged once per origin)");
    }
    res.status(403).type("text/plain").send(`Cross-site request refused: this server takes forms from ${allowed} only.`);
  };
}

/** The one-click unsubscribe link's path (`/unsubscribe/:token`), the one POST taken from any origin. */
const UNSUBSCRIBE_PATH = /^\/unsubscribe\/[A-Za-z0-9_-]+\.[a-z_]+\.[A-Za-z0-9_-]+$/;

/**
 * In the local trial (a loopback `APP_URL`), a page opened at the other loopback spelling
 * (`127.0.0.1` for `localhost`, or the other way round) is sent to `APP_URL`'s own: browsers treat
 * the two as different sites, so forms, cookies, wallet sign-in and e-mailed links only agree on
 * one of them. `/healthz` answers under either name, for probes that do not follow redirects.
 */
export function oneLoopbackName(env: Env) {
  const app = new URL(env.APP_URL);
  const appPort = app.port || (app.protocol === "https:" ? "443" : "80");
  const active = !env.isPublic && LOOPBACK_NAMES.has(app.hostname);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!active || req.path === "/healthz") return next();
    const host = req.headers.host ?? "";
    let asked: URL;
    try {
      asked = new URL(`http://${host}`);
    } catch {
      return next();
    }
    const askedPort = asked.port || "80";
    if (!LOOPBACK_NAMES.has(asked.hostname) || asked.hostname === app.hostname || askedPort !== appPort) return next();
    if (SAFE_METHODS.has(req.method)) return void res.redirect(308, `${app.origin}${req.originalUrl}`);
    res.status(403).type("text/plain").send(`Open ${app.origin} to use this local trial: forms are taken there only.`);
  };
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A public API request (/api/v1) with a Bearer key and no cookie: exempt from the same-origin
 * check. API clients authenticate with a key, never a cookie, so there is no ambient authority to
 * forge (a browser never adds an Authorization header on its own), and /api/v1 never reads a
 * session. A request that carries a cookie is checked like any other.
 */
function isKeyedApiRequest(req: Request) {
  return req.path.startsWith("/api/v1/") && /^Bearer\s+\S/i.test(req.headers.authorization ?? "") && req.headers.cookie === undefined;
}

function refererOrigin(referer: string | undefined) {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** Refuses bodies over the limit before they are read. */
export function bodyLimit() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const limit = isUploadPath(req.path) ? UPLOAD_LIMIT_BYTES : BODY_LIMIT_BYTES;
    const length = req.headers["content-length"];
    if (length === undefined) {
      if (req.headers["transfer-encoding"]) return void res.status(411).type("text/plain").send("Content-Length required.");
      return next();
    }
    if (Number(length) > limit) {
      const words = limit === UPLOAD_LIMIT_BYTES ? "The upload is too large: each image can be up to 2 MB." : "The form is too large to send.";
      return void res.status(413).type("text/plain").send(words);
    }
    next();
  };
}

/**
 * A 304 leaves out the Content-Security-Policy: the cache that revalidated keeps the page it has,
 * whose scripts carry the nonce of the policy stored with it, and a 304's headers replace the stored ones.
 */
function keepCachedPolicyOnNotModified(res: Response) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
    if (args[0] === 304) this.removeHeader("content-security-policy");
    return writeHead.apply(this, args);
  } as Response["writeHead"];
}
