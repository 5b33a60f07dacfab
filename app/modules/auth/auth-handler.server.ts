import { loggableError } from "~/lib/loggable-error";
import type { Services } from "~/services/services.server";
import { CONNECTIONS_PAGE } from "~/modules/social/connections.server";
import { isSocialProvider } from "~/modules/social/providers";

/** better-auth's code for a social account that belongs to another member; the connection's page says it in words. */
const TAKEN = "account_already_linked_to_different_user";
/** The unique index that keeps one social account to one member (db/schema/auth.ts). */
const SOCIAL_ACCOUNT_KEY = "account_social_key";

/**
 * Answers a request to better-auth's HTTP API. better-auth is told to throw what it cannot answer
 * (`onAPIError.throw`) instead of logging it whole, failed SQL and its parameters with it: here a
 * social account taken by another member a moment before this member's link (two connections of
 * one account at once) is the refusal the connection's page puts in words, and anything else is
 * logged without its statement's parameters and answered 500.
 */
export async function answerAuth({ auth, logger, env }: Pick<Services, "auth" | "logger" | "env">, request: Request): Promise<Response> {
  try {
    return await auth.handler(request);
  } catch (error) {
    const provider = /^\/api\/auth\/callback\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (provider && isSocialProvider(provider) && violates(error, SOCIAL_ACCOUNT_KEY)) {
      return new Response(null, { status: 302, headers: { location: `${env.APP_URL}${CONNECTIONS_PAGE}/${provider}?error=${TAKEN}` } });
    }
    logger.error({ component: "auth", err: loggableError(error) }, "an auth request failed");
    return new Response(null, { status: 500 });
  }
}

/** Whether a failed statement, or what it was caused by, broke the unique index `name`. */
function violates(error: unknown, name: string): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const { code, constraint } = at as { code?: unknown; constraint?: unknown };
    if (code === "23505" && (constraint === name || at.message.includes(`"${name}"`))) return true;
  }
  return false;
}
