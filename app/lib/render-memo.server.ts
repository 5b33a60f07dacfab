import { createHash } from "node:crypto";
import { betweenNonces, hashWithout } from "~/lib/page-cache.server";

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

/**
 * The key of a render's inputs: a SHA-256 of the URL (host and query included) and of the
 * loaders' data as React Router encodes it for the browser (`serverHandoffStream`, turbo-stream:
 * the very bytes the page hydrates from, and a lossless encoding of dates, bigints, maps, sets,
 * undefined and NaN). Where the request's nonce was (the root loader hands it to the page), a mark
 * stands; a NUL byte, which the encoding writes escaped, never raw.
 */
export function renderKey({ url, handoff, nonce }: { url: string; handoff: readonly Uint8Array[]; nonce: string | undefined }): string {
  const hash = createHash("sha256").update(url).update("\0");
  for (const chunk of handoff) hashWithout(hash, chunk, nonce, "\0");
  return hash.digest("base64url");
}

/** All of a stream's chunks (React Router's encoded data: one chunk unless data was deferred). */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return chunks;
}

/** A stream of chunks already read, for the render to read in turn. */
export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** A kept page: its bytes between the nonce's occurrences, and its ETag. */
type KeptRender = { parts: Buffer[]; etag: string; bytes: number };

export class RenderMemo {
  readonly #kept = new Map<string, KeptRender>();
  #bytes = 0;

  readonly maxEntries: number;
  readonly maxBytes: number;

  constructor(maxEntries = RENDER_MEMO_ENTRIES, maxBytes = RENDER_MEMO_BYTES) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

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
    // Copies: the render's own buffer is handed on with its response.
    const parts = betweenNonces(body, nonce).map((segment) => Buffer.from(segment));
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
