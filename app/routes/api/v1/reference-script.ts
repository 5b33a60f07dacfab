import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

/** Scalar's standalone bundle, read once from node_modules (about 5 MB): served as a file, never bundled by Vite. */
let bundle: Promise<{ bytes: Blob; etag: string }> | undefined;
function scalarBundle() {
  bundle ??= (async () => {
    const require = createRequire(import.meta.url);
    const dist = path.dirname(require.resolve("@scalar/api-reference"));
    const { version } = JSON.parse(await readFile(path.join(dist, "..", "package.json"), "utf8")) as { version: string };
    const bytes = new Blob([await readFile(path.join(dist, "browser", "standalone.js"))]);
    return { bytes, etag: `"scalar-${version}"` };
  })();
  return bundle;
}

/** GET /api/v1/reference/standalone.js */
export async function loader({ request }: { request: Request }) {
  const { bytes, etag } = await scalarBundle();
  const headers = { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400", etag };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(bytes, { headers });
}
