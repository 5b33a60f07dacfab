import { createContext, redirect, type RouterContextProvider } from "react-router";
import { getSessionCookie } from "better-auth/cookies";
import type { Services } from "~/services/services.server";

type SessionData = NonNullable<Awaited<ReturnType<Services["auth"]["api"]["getSession"]>>>;
export type SessionUser = SessionData["user"];
type Context = Readonly<RouterContextProvider>;

/**
 * Set by the root middleware: reads the session once per request, the first time something asks
 * (resource routes such as /healthz never do).
 */
const sessionContext = createContext<() => Promise<SessionData | null>>();

export function provideSession(context: Context, { auth }: Pick<Services, "auth">, request: Request) {
  let session: Promise<SessionData | null> | undefined;
  // A visitor without the session cookie has no session: better-auth is not asked.
  const none = getSessionCookie(request) === null;
  context.set(sessionContext, () => (session ??= none ? Promise.resolve(null) : auth.api.getSession({ headers: request.headers })));
}

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
