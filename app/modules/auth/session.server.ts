import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, getTableColumns, sql } from "drizzle-orm";
import type { BetterAuthOptions } from "better-auth";
import { createContext, redirect, type RouterContextProvider } from "react-router";
import { getSessionCookie, parseCookies } from "better-auth/cookies";
import { session as sessionTable, user as userTable } from "#db/schema/auth";
import { preparedPerDb, type Db } from "~/lib/db.server";
import type { Services } from "~/services/services.server";

type SessionData = NonNullable<Awaited<ReturnType<Services["auth"]["api"]["getSession"]>>>;
export type SessionUser = SessionData["user"];
type Context = Readonly<RouterContextProvider>;

/**
 * Set by the root middleware: reads the session once per request, the first time something asks
 * (resource routes such as /healthz never do).
 */
const sessionContext = createContext<() => Promise<SessionData | null>>();

export function provideSession(context: Context, { auth, database }: Pick<Services, "auth" | "database">, request: Request) {
  let session: Promise<SessionData | null> | undefined;
  // A visitor without the session cookie has no session: better-auth is not asked.
  const none = getSessionCookie(request) === null;
  context.set(sessionContext, () => (session ??= none ? Promise.resolve(null) : readSession({ auth, db: database.db }, request.headers)));
}

/**
 * The session a request's cookies carry, as better-auth's `getSession` answers it. The common case
 * (a valid signed token, a session neither expired nor due for its daily renewal, "remember me"
 * on) is answered here: the cookie's HMAC checked with node:crypto and the session and its member
 * read in one prepared statement, where better-auth runs its endpoint machinery, an asynchronous
 * Web Crypto call and two statements built anew. In that case better-auth would change nothing
 * (no write, and the cookies it might set are not sent from a loader), so the answer is the same.
 * Everything else (no or a bad signature, no such session, an expired one to delete, one to
 * renew, a session cookie cache configured) is left to better-auth.
 */
export async function readSession({ auth, db }: { auth: Services["auth"]; db: Db }, headers: Headers, now = Date.now()): Promise<SessionData | null> {
  const rules = await sessionRules(auth);
  const cookies = parseCookies(headers.get("cookie") ?? "");
  const token = rules.fastPath && !cookies.has(rules.dontRememberCookie) ? signedValue(cookies.get(rules.tokenCookie), rules.secret) : null;
  if (token) {
    const [found] = await sessionByTokenStatement(db).execute({ token });
    const renewsAt = found ? found.session.expiresAt.getTime() - rules.expiresInMs + rules.updateAgeMs : 0;
    if (found && renewsAt > now && found.session.expiresAt.getTime() > now) return found;
  }
  return auth.api.getSession({ headers });
}

type SessionRules = {
  fastPath: boolean;
  tokenCookie: string;
  dontRememberCookie: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
};

/** better-auth's own cookie names, secret and session ages, read once per auth instance. */
const rulesByAuth = new WeakMap<Services["auth"], Promise<SessionRules>>();
function sessionRules(auth: Services["auth"]): Promise<SessionRules> {
  let rules = rulesByAuth.get(auth);
  if (!rules) {
    rules = auth.$context.then((ctx) => {
      const options: BetterAuthOptions = ctx.options;
      return {
        fastPath: !options.session?.cookieCache?.enabled && !options.session?.deferSessionRefresh,
        tokenCookie: ctx.authCookies.sessionToken.name,
        dontRememberCookie: ctx.authCookies.dontRememberToken.name,
        secret: ctx.secret,
        expiresInMs: ctx.sessionConfig.expiresIn * 1000,
        updateAgeMs: ctx.sessionConfig.updateAge * 1000,
      };
    });
    rulesByAuth.set(auth, rules);
  }
  return rules;
}

/** The value of a cookie better-auth signed (`value.base64(HMAC-SHA256)`), or null when it is not signed with `secret`. */
function signedValue(cookie: string | undefined, secret: string): string | null {
  const dot = cookie?.lastIndexOf(".") ?? -1;
  if (!cookie || dot < 1) return null;
  const value = cookie.slice(0, dot);
  const signature = Buffer.from(cookie.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(value).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? value : null;
}

/** A session and its member by the session's token: the columns better-auth returns for each. */
const sessionByTokenStatement = preparedPerDb((db) =>
  db
    .select({ session: getTableColumns(sessionTable), user: getTableColumns(userTable) })
    .from(sessionTable)
    .innerJoin(userTable, eq(userTable.id, sessionTable.userId))
    .where(eq(sessionTable.token, sql.placeholder("token")))
    .prepare("questline_session_by_token"),
);

export function getSession(context: Context) {
  return context.get(sessionContext)();
}

/** Only relative paths on this site are followed after sign-in. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/** The signed-in member; a signed-out visitor is sent to /login and brought back afterwards. */
export async function requireUser(context: Context, request: Request): Promise<SessionData> {
  const session = await getSession(context);
  if (session) return session;
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}
