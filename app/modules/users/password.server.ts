import { APIError } from "better-auth/api";
import type { Services } from "~/services/services.server";
import { callAuth, describeAuthError } from "~/modules/auth/auth-call.server";

type Deps = Pick<Services, "auth" | "env">;
type Result = { ok: true; headers: Headers } | { ok: false; field: "currentPassword" | "newPassword"; error: string };

/** Changes an existing password; the current one is required and other sessions are signed out. */
export async function changePassword(
  deps: Deps,
  { request, currentPassword, newPassword }: { request: Request; currentPassword: string; newPassword: string },
): Promise<Result> {
  const result = await callAuth(deps, request, "/change-password", { currentPassword, newPassword, revokeOtherSessions: true });
  if (result.ok) return { ok: true, headers: result.headers };
  const field = result.code === "INVALID_PASSWORD" || result.status === 429 ? "currentPassword" : "newPassword";
  return { ok: false, field, error: describeAuthError(result) };
}

/** Sets a first password for a member who signed in by link, code or wallet. */
export async function setPassword(deps: Deps, { request, newPassword }: { request: Request; newPassword: string }): Promise<Result> {
  try {
    await deps.auth.api.setPassword({ body: { newPassword }, headers: request.headers });
    return { ok: true, headers: new Headers() };
  } catch (error) {
    if (error instanceof APIError) return { ok: false, field: "newPassword", error: error.message };
    throw error;
  }
}
