import { randomBytes } from "node:crypto";
import { redirect } from "react-router";

/**
 * A one-time message carried across a redirect ("Project created"), shown as a toast on the page
 * the member lands on: the one way an action's outcome reaches the toaster after a redirect. It
 * lives in a short cookie that the root loader reads and clears.
 */
const FLASH_COOKIE = "flash";
const MAX_AGE = 60;

export type Flash = { id: string; message: string };

function attributes(appUrl: string) {
  return `Path=/; SameSite=Lax; HttpOnly${appUrl.startsWith("https://") ? "; Secure" : ""}`;
}

/** The Set-Cookie header that carries `message` to the next page. */
export function flashCookie(message: string, { appUrl }: { appUrl: string }) {
  return `${FLASH_COOKIE}=${encodeURIComponent(message.slice(0, 200))}; Max-Age=${MAX_AGE}; ${attributes(appUrl)}`;
}

/** The pending message of a request, and the Set-Cookie header that clears it (both null when none). */
export function readFlash(request: Request, { appUrl }: { appUrl: string }): { flash: Flash | null; headers: HeadersInit } {
  const raw = request.headers.get("cookie")?.match(new RegExp(`(?:^|;\\s*)${FLASH_COOKIE}=([^;]*)`))?.[1];
  if (!raw) return { flash: null, headers: {} };
  let message: string;
  try {
    message = decodeURIComponent(raw);
  } catch {
    message = "";
  }
  const clear = { "set-cookie": `${FLASH_COOKIE}=; Max-Age=0; ${attributes(appUrl)}` };
  return { flash: message ? { id: randomBytes(6).toString("hex"), message } : null, headers: clear };
}

/** A redirect after which the page the member lands on says `message` in a toast. */
export function redirectWithToast(url: string, message: string, { appUrl, headers }: { appUrl: string; headers?: HeadersInit }) {
  const all = new Headers(headers);
  all.append("set-cookie", flashCookie(message, { appUrl }));
  return redirect(url, { headers: all });
}
