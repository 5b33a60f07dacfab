import { hash } from "node:crypto";

/**
 * A page's HTML follows from its inputs: the build, the configuration, the URL and what its
 * loaders returned. A visitor page's render is kept under a hash of those inputs, so a burst of
 * visitors to one page renders it once for each state of its data (decision 034). Every request
 * still runs its loaders: a change to the data changes the inputs, and the next request renders
 * anew. Only the CSP nonce differs between two renders of the same inputs; it is left out of the
 * key, cut out of the kept page and put back per request.
 */

/** The most renders a process keeps, and the most bytes (the least recently used go first). */
export const RENDER_MEMO_ENTRIES = 200;
export const RENDER_MEMO_BYTES = 32 * 1024 * 1024;

type Inputs = { url: string; loaderData: unknown; nonce: string | undefined };

/** The marks a map's and a set's entries are written after (a text is written "s…", never "M"). */
const MAP = Symbol("map");
const SET = Symbol("set");

/** A value the key cannot stand for exactly (a promise, an error, a class instance): that page is not kept. */
class NotKeyable extends Error {}

/**
 * The key of a render's inputs, or null when its data holds a value it cannot stand for exactly
 * (a promise, an error, a class instance). Every value is written with a mark of its kind, so no
 * two different values write the same: a text and a date with the same ISO text, a bigint and its
 * digits, a map and an object, NaN and null, undefined and null. The nonce stands as its own mark.
 */
export function renderKey({ url, loaderData, nonce }: Inputs): string | null {
  let text: string;
  try {
    text = JSON.stringify(loaderData, function (this: Record<string, unknown>, name) {
      // What the holder has, before any toJSON (a date's, a URL's) turned it into something else.
      const original = this[name];
      switch (typeof original) {
        case "string":
          return original === nonce ? "n" : `s${original}`;
        case "number":
          return Number.isFinite(original) && !Object.is(original, -0) ? original : `f${String(original)}`;
        case "bigint":
          return `b${original}`;
        case "undefined":
          return "u";
        case "boolean":
          return original;
        case "symbol":
          if (original === MAP) return "M";
          if (original === SET) return "S";
          break;
        case "object": {
          if (original === null || Array.isArray(original)) return original;
          if (original instanceof Date) return `d${original.getTime()}`;
          if (original instanceof Map) return [MAP, ...original];
          if (original instanceof Set) return [SET, ...original];
          const proto = Object.getPrototypeOf(original) as unknown;
          if (proto === Object.prototype || proto === null) return original;
        }
      }
      throw new NotKeyable();
    });
  } catch (error) {
    if (error instanceof NotKeyable) return null;
    throw error;
  }
  return hash("sha256", `${url}\n${text}`, "base64url");
}

/** A kept page: its bytes between the nonce's occurrences, and its ETag. */
export type KeptRender = { parts: Buffer[]; etag: string; bytes: number };

export class RenderMemo {
  readonly #kept = new Map<string, KeptRender>();
  #bytes = 0;

  constructor(
    readonly maxEntries = RENDER_MEMO_ENTRIES,
    readonly maxBytes = RENDER_MEMO_BYTES,
  ) {}

  /** The page kept under this key, with the nonce of this request put in. */
  get(key: string, nonce: string | undefined): { body: Buffer; etag: string } | null {
    const kept = this.#kept.get(key);
    if (!kept) return null;
    // Most recently used last.
    this.#kept.delete(key);
    this.#kept.set(key, kept);
    return { body: joinParts(kept.parts, nonce), etag: kept.etag };
  }

  /** Keeps a page rendered with this nonce. */
  set(key: string, body: Buffer, nonce: string | undefined, etag: string) {
    if (body.length > this.maxBytes) return;
    this.#drop(key);
    const parts = splitParts(body, nonce);
    this.#kept.set(key, { parts, etag, bytes: body.length });
    this.#bytes += body.length;
    for (const [oldest] of this.#kept) {
      if (this.#kept.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#drop(oldest);
    }
  }

  get size() {
    return this.#kept.size;
  }

  #drop(key: string) {
    const kept = this.#kept.get(key);
    if (!kept) return;
    this.#kept.delete(key);
    this.#bytes -= kept.bytes;
  }
}

function splitParts(body: Buffer, nonce: string | undefined): Buffer[] {
  if (!nonce) return [Buffer.from(body)];
  const needle = Buffer.from(nonce);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, from)) {
    parts.push(Buffer.from(body.subarray(from, at)));
    from = at + needle.length;
  }
  parts.push(Buffer.from(body.subarray(from)));
  return parts;
}

/** A new buffer each time: a response may hand its body on. */
function joinParts(parts: Buffer[], nonce: string | undefined): Buffer {
  const needle = Buffer.from(nonce ?? "");
  const joined: Buffer[] = [];
  for (const [i, part] of parts.entries()) {
    if (i > 0) joined.push(needle);
    joined.push(part);
  }
  return Buffer.concat(joined);
}
