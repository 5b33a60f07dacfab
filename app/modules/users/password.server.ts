import { APIError } from "better-auth/api";
import type { Services } from "~/services/services.server";
import { callAuth, describeAuthError } from "~/modules/auth/auth-call.server";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";

type Deps = Pick<Services, "auth" | "env" | "logger">;
/**
 * Saved (with the session cookies to send), or refused on the field it is about: `currentPassword`
 * (a wrong one, or too many attempts) or `newPassword`. Both are answered with 400.
 */
type PasswordResult = Ok<{ headers: Headers }> | FieldFailure;

/** Changes an existing password; the current one is required and other sessions are signed out. */
export async function changePassword(
  deps: Deps,
  { request, currentPassword, newPassword }: { request: Request; currentPassword: string; newPassword: string },
): Promise<PasswordResult> {
  const result = await callAuth(deps, request, "/change-password", { currentPassword, newPassword, revokeOtherSessions: true });
  if (result.ok) return ok({ headers: result.headers });
  const field = result.code === "INVALID_PASSWORD" || result.status === 429 ? "currentPassword" : "newPassword";
  return invalid(field, describeAuthError(result));
}

/** Sets a first password for a member who signed in by link, code or wallet. */
export async function setPassword(deps: Deps, { request, newPassword }: { request: Request; newPassword: string }): Promise<PasswordResult> {
  try {
    await deps.auth.api.setPassword({ body: { newPassword }, headers: request.headers });
    return ok({ headers: new Headers() });
  } catch (error) {
    if (error instanceof APIError) return invalid("newPassword", error.message);
    throw error;
  }
}
