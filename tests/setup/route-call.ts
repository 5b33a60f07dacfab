import { makeSignature } from "better-auth/crypto";
import { RouterContextProvider } from "react-router";
import { user } from "#db/schema/auth";
import { provideSession } from "~/modules/auth/session.server";
import { servicesContext, type Services } from "~/services/services.server";

/**
 * Route-level tests: a loader or action called as React Router calls it on the server, with the
 * context the root middleware gives it (the services, the session read lazily from the cookie),
 * on a real database. No browser, no HTTP server.
 */
export function routeArgs(services: Services, request: Request, params: Record<string, string> = {}) {
  const context = new RouterContextProvider(new Map([[servicesContext, services]]));
  provideSession(context, services, request);
  const url = new URL(request.url);
  // The generated Route.*Args types name every route's own params; the call is the same for each.
  return { request, context, params, url, pattern: url.pathname } as never;
}

/** What a loader or action threw or returned: React Router treats a thrown Response as the answer. */
export async function answer<T>(call: () => Promise<T>): Promise<T | Response> {
  try {
    return await call();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    // React Router's `data()` (a DataWithResponseInit) thrown for a 404 page.
    if (thrown && typeof thrown === "object" && "type" in thrown && (thrown as { type: string }).type === "DataWithResponseInit") return thrown as T;
    throw thrown;
  }
}

/** A member with a live session: the cookie header a signed-in browser sends. */
export async function signedInMember(services: Services, id: string) {
  await services.database.db.insert(user).values({ id, email: `${id}@example.com`, name: id, emailVerified: true });
  const auth = await services.auth.$context;
  const session = await auth.internalAdapter.createSession(id);
  const value = `${session.token}.${await makeSignature(session.token, services.env.AUTH_SECRET)}`;
  return { cookie: `${auth.authCookies.sessionToken.name}=${encodeURIComponent(value)}` };
}
