import { randomBytes } from "node:crypto";
import { data, redirect } from "react-router";

/**
 * A one-time message ("Project created"), shown as a toast by the root once the page's data next
 * loads: after a redirect, or after a fetcher's action when the part of the page that asked is gone
 * by then (a row given away or approved leaves its list in the same reload). It lives in a short
 * cookie that the root loader reads and clears.
 */
const FLASH_COOKIE = "flash";
const MAX_AGE = 60;
/** Between the message and its description in the cookie; neither ever holds it. */
const SEPARATOR = "\n";

export type Flash = { id: string; message: string; description?: string };
export type FlashText = { message: string; description?: string };

function attributes(appUrl: string) {
  return `Path=/; SameSite=Lax; HttpOnly${appUrl.startsWith("https://") ? "; Secure" : ""}`;
}

const line = (text: string) => text.replaceAll(SEPARATOR, " ").slice(0, 200);

/** The Set-Cookie header that carries `text` to the next load of the page's data. */
export function flashCookie(text: string | FlashText, { appUrl }: { appUrl: string }) {
  const { message, description } = typeof text === "string" ? { message: text } : text;
  const value = description ? `${line(message)}${SEPARATOR}${line(description)}` : line(message);
  return `${FLASH_COOKIE}=${encodeURIComponent(value)}; Max-Age=${MAX_AGE}; ${attributes(appUrl)}`;
}

/** The pending message of a request, and the Set-Cookie header that clears it (both null when none). */
export function readFlash(request: Request, { appUrl }: { appUrl: string }): { flash: Flash | null; headers: HeadersInit } {
  const raw = request.headers.get("cookie")?.match(new RegExp(`(?:^|;\\s*)${FLASH_COOKIE}=([^;]*)`))?.[1];
  if (!raw) return { flash: null, headers: {} };
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    value = "";
  }
  const [message, description] = value.split(SEPARATOR, 2);
  const clear = { "set-cookie": `${FLASH_COOKIE}=; Max-Age=0; ${attributes(appUrl)}` };
  if (!message) return { flash: null, headers: clear };
  return { flash: { id: randomBytes(6).toString("hex"), message, ...(description ? { description } : {}) }, headers: clear };
}

function withFlash(text: string | FlashText, { appUrl, headers }: { appUrl: string; headers?: HeadersInit }) {
  const all = new Headers(headers);
  all.append("set-cookie", flashCookie(text, { appUrl }));
  return all;
}

/** A redirect after which the page the member lands on says `text` in a toast. */
export function redirectWithToast(url: string, text: string | FlashText, { appUrl, headers }: { appUrl: string; headers?: HeadersInit }) {
  return redirect(url, { headers: withFlash(text, { appUrl, headers }) });
}

/**
 * An action's answer after which the page says `text` in a toast once its data has reloaded. For a
 * success that removes the row whose fetcher asked: the row's own effect would race its removal.
 */
export function dataWithToast<T>(value: T, text: string | FlashText, { appUrl }: { appUrl: string }) {
  return data(value, { headers: withFlash(text, { appUrl }) });
}
