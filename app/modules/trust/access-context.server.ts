import { createHash, createHmac, randomUUID } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { lt } from "drizzle-orm";
import { accessContext } from "#db/schema/trust";
import type { Db } from "~/lib/db.server";

/** How long sign-up and sign-in context is kept. */
export const ACCESS_CONTEXT_DAYS = 30;
/** The longest user agent hashed; longer ones are cut here first. */
export const USER_AGENT_MAX = 512;
/**
 * `network_hash` of a sign-in whose client address was missing or unreadable: stored as is, not
 * hashed, so that the scoring never takes "no address" for one network shared by many members.
 */
export const UNKNOWN_NETWORK = "unknown";

/**
 * The machine itself: every local trial's member (and a proxy that hides its clients) comes from
 * here, so it says nothing about who is behind an account and joins the unknown bucket.
 */
const LOOPBACK_PREFIXES = new Set(["127.0.0.0/24", "0:0:0::/48"]);

const DAY = 24 * 60 * 60 * 1000;

/**
 * The network a client address belongs to, as text: its /24 for IPv4 (`203.0.113.0/24`), its
 * /48 for IPv6 (`2001:db8:12::/48`, lower-case, no leading zeros). An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`) is its IPv4. Null for anything that is not an address.
 */
export function networkPrefixOf(address: string | null | undefined): string | null {
  const text = (address ?? "").trim().replace(/^\[(.*)\]$/, "$1");
  if (isIPv4(text)) return ipv4Prefix(text.split(".").map(Number));
  const groups = ipv6Groups(text);
  if (!groups) return null;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return ipv4Prefix([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]);
  return `${groups
    .slice(0, 3)
    .map((group) => group.toString(16))
    .join(":")}::/48`;
}

function ipv4Prefix(octets: number[]) {
  return `${octets[0]}.${octets[1]}.${octets[2]}.0/24`;
}

/** The eight 16-bit groups of an IPv6 address (a zone index dropped), or null. */
function ipv6Groups(text: string): number[] | null {
  const address = text.replace(/%.*$/, "");
  if (!isIPv6(address)) return null;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const [a, b, c, d] = (tail?.slice(1) ?? []).map(Number) as [number, number, number, number];
  const hex = tail ? `${address.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}` : address;
  const [head, rest] = hex.split("::") as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(rest ?? "");
  const groups = rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

/**
 * `network_hash`: HMAC-SHA256 under the trust key of the address's network prefix (the text of
 * `networkPrefixOf`, e.g. `203.0.113.0/24`), lower-case hex; `UNKNOWN_NETWORK` when there is none.
 */
export function networkHashOf(hashKey: Buffer, address: string | null | undefined): string {
  const prefix = networkPrefixOf(address);
  return prefix && !LOOPBACK_PREFIXES.has(prefix) ? hmac(hashKey, prefix) : UNKNOWN_NETWORK;
}

/** `agent_hash`: HMAC-SHA256 of the user agent trimmed and cut to 512 characters (the empty string when absent), lower-case hex. */
export function agentHashOf(hashKey: Buffer, userAgent: string | null | undefined): string {
  return hmac(hashKey, (userAgent ?? "").trim().slice(0, USER_AGENT_MAX));
}

function hmac(key: Buffer, text: string) {
  return createHmac("sha256", key).update(text, "utf8").digest("hex");
}

/**
 * Keeps where a sign-up or sign-in came from as keyed hashes of the network prefix and user agent.
 * A member's sign-ins are kept once per network and day (UTC): the row's id is derived from the
 * three, so a second sign-in that day from the same network stores nothing.
 */
export async function recordAccess({
  db,
  hashKey,
  userId,
  kind,
  address,
  userAgent,
  now = new Date(),
}: {
  db: Db;
  hashKey: Buffer;
  userId: string;
  kind: "sign_up" | "sign_in";
  address: string | null;
  userAgent: string | null;
  now?: Date;
}): Promise<void> {
  const networkHash = networkHashOf(hashKey, address);
  const day = now.toISOString().slice(0, 10);
  const id = kind === "sign_in" ? `sign_in:${createHash("sha256").update(`${userId}\n${networkHash}\n${day}`).digest("hex").slice(0, 40)}` : randomUUID();
  await db
    .insert(accessContext)
    .values({ id, userId, kind, networkHash, agentHash: agentHashOf(hashKey, userAgent), createdAt: now })
    .onConflictDoNothing({ target: accessContext.id });
}

/** Deletes context older than 30 days; returns how many rows went. */
export async function purgeAccessContext({ db, now = new Date() }: { db: Db; now?: Date }): Promise<number> {
  const gone = await db
    .delete(accessContext)
    .where(lt(accessContext.createdAt, new Date(now.getTime() - ACCESS_CONTEXT_DAYS * DAY)))
    .returning({ id: accessContext.id });
  return gone.length;
}
