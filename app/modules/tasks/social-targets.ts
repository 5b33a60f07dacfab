/**
 * What a social task points at, read from what a team member types: an account handle, a post's
 * link, a channel. Pure and browser-safe: the task schema (shared by the form and the action)
 * normalizes with these, and the stored config holds only the normalized values.
 */

export const X_HANDLE = /^[A-Za-z0-9_]{1,15}$/;
export const TIKTOK_HANDLE = /^[A-Za-z0-9_.]{2,24}$/;
export const INSTAGRAM_HANDLE = /^[A-Za-z0-9_.]{1,30}$/;
export const YOUTUBE_CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
/** A post's link as stored: `https://x.com/<handle>/status/<id>` (or `/i/status/<id>` without a handle). */
export const X_POST_URL = /^https:\/\/x\.com\/(?:[A-Za-z0-9_]{1,15}|i)\/status\/(\d{1,20})$/;

/**
 * A link as a URL: `https://…`, or one of `domains` written without its scheme (`x.com/name`);
 * null for anything else, so a handle with a dot (`jane.doe`) is never mistaken for a site.
 */
function asUrl(input: string, domains: string[]): URL | null {
  const text = input.trim();
  const bare = domains.some((d) => new RegExp(`^((www|mobile|m)\\.)?${d.replace(".", "\\.")}(/|$)`, "i").test(text));
  if (!/^https?:\/\//i.test(text) && !bare) return null;
  try {
    const url = new URL(bare ? `https://${text}` : text);
    return /^https?:$/.test(url.protocol) && hostIs(url, domains) ? url : null;
  } catch {
    return null;
  }
}

const hostIs = (url: URL, domains: string[]) => {
  const host = url.hostname.toLowerCase().replace(/^(www|mobile|m)\./, "");
  return domains.includes(host);
};

const pathParts = (url: URL) => url.pathname.split("/").filter(Boolean);

/** A handle typed as `@name`, `name` or a profile link on one of `domains` (the first path part, `@` allowed). */
function handleFrom(input: string, pattern: RegExp, domains: string[]): string | null {
  const text = input.trim();
  const url = asUrl(text, domains);
  if (url || /^https?:\/\//i.test(text)) {
    const first = url ? pathParts(url)[0] : undefined;
    if (!first) return null;
    const name = first.replace(/^@/, "");
    return pattern.test(name) ? name : null;
  }
  const name = text.replace(/^@/, "");
  return pattern.test(name) ? name : null;
}

/** Paths of x.com that are not accounts. */
const X_RESERVED = new Set(["i", "home", "explore", "search", "settings", "messages", "notifications", "intent", "share"]);

/** `@questline`, `questline`, `https://x.com/questline` (or twitter.com) → `questline`; null otherwise. */
export function parseXHandleInput(input: string): string | null {
  const handle = handleFrom(input, X_HANDLE, ["x.com", "twitter.com"]);
  return handle && !X_RESERVED.has(handle.toLowerCase()) ? handle : null;
}

/** A post's link on x.com or twitter.com → its id and canonical link; null otherwise. */
export function parseXPostInput(input: string): { id: string; url: string } | null {
  const url = asUrl(input, ["x.com", "twitter.com"]);
  if (!url) return null;
  const parts = pathParts(url);
  // /<handle>/status/<id>[/photo/1], /i/web/status/<id>, /i/status/<id>
  const at = parts.findIndex((p) => p === "status" || p === "statuses");
  if (at < 1) return null;
  const id = parts[at + 1];
  if (!id || !/^\d{1,20}$/.test(id)) return null;
  const owner = parts[0]!;
  const handle = owner === "i" || !X_HANDLE.test(owner) ? "i" : owner;
  return { id, url: `https://x.com/${handle}/status/${id}` };
}

/** A channel's `UC…` id, or its `youtube.com/channel/UC…` link → the id; null otherwise (a @handle link needs the API to resolve). */
export function parseYoutubeChannelInput(input: string): string | null {
  const text = input.trim();
  if (YOUTUBE_CHANNEL_ID.test(text)) return text;
  const url = asUrl(text, ["youtube.com"]);
  if (!url) return null;
  const [kind, id] = pathParts(url);
  return kind === "channel" && id && YOUTUBE_CHANNEL_ID.test(id) ? id : null;
}

/** `@name`, `name` or `tiktok.com/@name` → `name`; null otherwise. */
export function parseTiktokHandleInput(input: string): string | null {
  return handleFrom(input, TIKTOK_HANDLE, ["tiktok.com"]);
}

/** `@name`, `name` or `instagram.com/name` → `name`; null otherwise. */
export function parseInstagramHandleInput(input: string): string | null {
  return handleFrom(input, INSTAGRAM_HANDLE, ["instagram.com"]);
}

/** A Telegram group or channel: `@publicname` (5–32 characters) or a chat's numeric id (`-100…` for supergroups and channels). */
export const TELEGRAM_CHAT_ID = /^(?:@[A-Za-z][A-Za-z0-9_]{4,31}|-?\d{5,20})$/;

/** `@name`, `name`, `t.me/name` or a numeric id → `@name` or the id; null otherwise (an invite link `t.me/+…` names no chat a bot can ask about). */
export function parseTelegramChatInput(input: string): string | null {
  const text = input.trim();
  if (/^-?\d{5,20}$/.test(text)) return text;
  const name = handleFrom(text, /^[A-Za-z][A-Za-z0-9_]{4,31}$/, ["t.me", "telegram.me"]);
  return name ? `@${name}` : null;
}

/** A profile's public link, for the task page. */
export const profileUrl = {
  x: (handle: string) => `https://x.com/${handle}`,
  tiktok: (handle: string) => `https://www.tiktok.com/@${handle}`,
  instagram: (handle: string) => `https://www.instagram.com/${handle}/`,
  youtube: (channelId: string) => `https://www.youtube.com/channel/${channelId}`,
};
