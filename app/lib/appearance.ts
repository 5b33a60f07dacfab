/** Appearance: system, light or dark, kept in local storage and in a cookie for a year. */
export const APPEARANCES = ["system", "light", "dark"] as const;
export type Appearance = (typeof APPEARANCES)[number];
export const APPEARANCE_KEY = "appearance";
export const APPEARANCE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** Anything but one of the three values (a stale or forged cookie) means "system". Kept free of zod: it runs in every page. */
export function parseAppearance(value: unknown): Appearance {
  return (APPEARANCES as readonly unknown[]).includes(value) ? (value as Appearance) : "system";
}

export function appearanceFromCookie(cookieHeader: string | null): Appearance {
  const match = cookieHeader?.match(/(?:^|;\s*)appearance=([^;]*)/);
  return parseAppearance(match?.[1] && decodeURIComponent(match[1]));
}

export function appearanceCookie(appearance: Appearance) {
  return `${APPEARANCE_KEY}=${appearance}; Max-Age=${APPEARANCE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax`;
}

/**
 * Runs in <head> before the first paint when the preference is "system", so the page is drawn in
 * the operating system's scheme from the start.
 */
export const systemAppearanceScript = `if(window.matchMedia("(prefers-color-scheme: dark)").matches)document.documentElement.classList.add("dark")`;
