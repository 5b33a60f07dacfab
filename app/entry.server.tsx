import { Writable } from "node:stream";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider, type ServerInstrumentation } from "react-router";
import { loggableError } from "~/lib/loggable-error";
import { nonceContext } from "~/lib/nonce";
import { type Caching, notModified, pageCaching, pageEtag } from "~/lib/page-cache.server";
import { readAll, RenderMemo, renderKey, streamOf } from "~/lib/render-memo.server";
import { routePatternInstrumentation } from "~/lib/route-pattern.server";

export const streamTimeout = 5_000;

/** The matched route's pattern, handed to the server's request metrics (server/metrics.ts). */
export const instrumentations: ServerInstrumentation[] = [routePatternInstrumentation];

/** Not in development, where a page's code changes under the server. */
const renders = import.meta.env.PROD ? new RenderMemo() : null;

/**
 * Renders the whole page before answering (no page streams deferred data), then sends it in one
 * write with its length, its caching headers and, for visitor pages, an ETag (decision 032). A
 * visitor page whose inputs were rendered before is answered from that render (decision 034).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(nonceContext);
  const caching = pageCachingOf(request, responseStatusCode, responseHeaders, routerContext);
  const { actionData, errors } = routerContext.staticHandlerContext;
  // The loaders' data as the page will carry it: read here for the key and the render.
  const handoff = routerContext.serverHandoffStream ? await readAll(routerContext.serverHandoffStream) : null;
  let key: string | null = null;
  if (renders && caching.etag && !actionData && !errors && handoff) {
    key = renderKey({ url: request.url, handoff, nonce });
    const kept = renders.get(key, nonce);
    if (kept) return pageResponse({ request, caching, headers: responseHeaders, status: responseStatusCode, ...kept });
  }

  const page = renderedAtOnce(routerContext, handoff, request.url, nonce);
  if (page) {
    const etag = caching.etag ? pageEtag(page, nonce) : null;
    if (renders && key && etag) renders.set(key, page, nonce, etag);
    return pageResponse({ request, caching, headers: responseHeaders, status: responseStatusCode, body: page, etag });
  }

  // A page that waits on something (a lazy component's first load) or failed along the way.
  routerContext.renderMeta = {};
  if (handoff) routerContext.serverHandoffStream = streamOf(handoff);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    body.on("finish", () => {
      clearTimeout(timer);
      const page = Buffer.concat(chunks);
      // A render that failed along the way (status 500) is answered but never kept.
      const finalCaching = status === responseStatusCode ? caching : pageCachingOf(request, status, responseHeaders, routerContext);
      const etag = finalCaching.etag ? pageEtag(page, nonce) : null;
      if (renders && key && etag && status === responseStatusCode) renders.set(key, page, nonce, etag);
      resolve(pageResponse({ request, caching: finalCaching, headers: responseHeaders, status, body: page, etag }));
    });
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        if (shellRendered) console.error(error);
      },
    });
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * The page rendered in one synchronous pass, or null when some part of it waited or failed (a
 * Suspense boundary left to the browser): the streaming render then does it the long way. The
 * loaders' data is read already, so React Router's handoff scripts (`StreamTransfer`, which reads
 * the stream chunk by chunk, waiting on each) find every chunk in their cache.
 */
function renderedAtOnce(routerContext: EntryContext, handoff: Uint8Array[] | null, url: string, nonce: string | undefined): Buffer | null {
  if (handoff) {
    const decoder = new TextDecoder();
    const streamCache: NonNullable<EntryContext["renderMeta"]>["streamCache"] = {};
    const read = (done: boolean, value: string) => Object.assign(Promise.resolve(), { result: { done, value } });
    handoff.forEach((chunk, i) => (streamCache[i] = read(false, decoder.decode(chunk, { stream: true }))));
    streamCache[handoff.length] = read(true, decoder.decode(undefined, { stream: true }));
    routerContext.renderMeta = { streamCache };
    routerContext.serverHandoffStream = streamOf(handoff);
  }
  let html: string;
  try {
    html = renderToString(<ServerRouter context={routerContext} url={url} nonce={nonce} />);
  } catch {
    return null;
  }
  if (html.includes(CLIENT_RENDERED_BOUNDARY)) return null;
  // The streaming render writes the doctype before a document; this one leaves it to us.
  return Buffer.from(html.startsWith("<html") ? `<!DOCTYPE html>${html}` : html);
}

/** React's mark of a Suspense boundary it could not finish on the server (never in escaped text). */
const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";

function pageCachingOf(request: Request, status: number, headers: Headers, routerContext: EntryContext) {
  const { matches, loaderData } = routerContext.staticHandlerContext;
  const leaf = matches.at(-1)?.route.handle as { visitorPage?: boolean } | undefined;
  return pageCaching({
    method: request.method,
    status,
    hasCookies: request.headers.has("cookie"),
    setsCookies: headers.has("set-cookie"),
    signedIn: Boolean((loaderData.root as { user?: unknown } | undefined)?.user),
    isVisitorPage: leaf?.visitorPage === true,
  });
}

function pageResponse({
  request,
  caching,
  headers,
  status,
  body,
  etag,
}: {
  request: Request;
  caching: Caching;
  headers: Headers;
  status: number;
  body: Buffer;
  etag: string | null;
}) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", caching.cacheControl);
  if (caching.vary) headers.append("Vary", caching.vary);
  if (etag) {
    headers.set("ETag", etag);
    if (notModified(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Length", String(body.length));
  return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length), { headers, status });
}

/** Errors of loaders and actions, logged without what must not be kept (see loggableError). */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(loggableError(error));
}
