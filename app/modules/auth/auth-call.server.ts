import { z } from "zod";
import type { Services } from "~/services/services.server";
import { answerAuth } from "./auth-handler.server";
import { CLIENT_IP_HEADER } from "./auth.server";

const FORWARDED_HEADERS = ["cookie", "user-agent", CLIENT_IP_HEADER] as const;

const authErrorSchema = z.object({ code: z.string().optional(), message: z.string().optional() });

export type AuthCallResult = { ok: true; status: number; headers: Headers; body: unknown } | { ok: false; status: number; code: string; message: string };

/**
 * Calls a better-auth endpoint through its own HTTP handler, so the form actions get exactly what
 * an API client gets: the same rate limits, hooks, origin checks and cookies.
 */
export async function callAuth(services: Pick<Services, "auth" | "env" | "logger">, request: Request, path: string, body?: unknown): Promise<AuthCallResult> {
  const { env } = services;
  const headers = new Headers({ origin: env.APP_URL });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (body !== undefined) headers.set("content-type", "application/json");
  const response = await answerAuth(
    services,
    new Request(`${env.APP_URL}/api/auth${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const payload: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const forward = new Headers();
    for (const cookie of response.headers.getSetCookie()) forward.append("set-cookie", cookie);
    return { ok: true, status: response.status, headers: forward, body: payload };
  }
  const error = authErrorSchema.safeParse(payload);
  return {
    ok: false,
    status: response.status,
    code: (error.success && error.data.code) || `HTTP_${response.status}`,
    message: (error.success && error.data.message) || "Something went wrong. Please try again.",
  };
}

/** A message for a member, from a failed auth call. */
export function describeAuthError(result: Extract<AuthCallResult, { ok: false }>) {
  if (result.code === "EMAIL_COOLDOWN") return result.message;
  if (result.status === 429) return "Too many attempts from your network. Wait a minute and try again.";
  return MESSAGES[result.code] ?? result.message;
}

const MESSAGES: Record<string, string> = {
  INVALID_OTP: "That code is not right. Check the e-mail and try again.",
  OTP_EXPIRED: "That code has expired. Send a new one.",
  TOO_MANY_ATTEMPTS: "Too many wrong codes. This code no longer works: send a new one.",
  INVALID_EMAIL_OR_PASSWORD: "Wrong e-mail or password.",
  INVALID_PASSWORD: "The current password is not right.",
  PASSWORD_TOO_SHORT: "The password must be at least 8 characters.",
  PASSWORD_TOO_LONG: "The password must be at most 128 characters.",
  INVALID_EMAIL: "Enter a valid e-mail address.",
};
