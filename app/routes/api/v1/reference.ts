import type { Route } from "./+types/reference";
import { nonceContext } from "~/lib/nonce";
import { servicesContext } from "~/services/services.server";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * GET /api/v1/reference — the API's reference page: Scalar's standalone bundle (served as a file
 * by reference-script.ts, never part of our bundle) reading /api/v1/openapi.json. Its one inline
 * script carries the response's CSP nonce.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(servicesContext);
  const nonce = context.get(nonceContext);
  const title = `${env.APP_NAME} API reference`;
  // Our own fonts and nothing of Scalar's service: no toolbar, AI agent, MCP or telemetry.
  const config = JSON.stringify({
    url: "/api/v1/openapi.json",
    withDefaultFonts: false,
    showToolbar: "never",
    showDeveloperTools: "never",
    agent: { disabled: true },
    mcp: { disabled: true },
    telemetry: false,
    metaData: { title },
  }).replace(/</g, "\\u003c");
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  </head>
  <body>
    <noscript>This reference needs JavaScript. The API's description is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
    <div id="app"></div>
    <script src="/api/v1/reference/standalone.js"></script>
    <script nonce="${escapeHtml(nonce)}">Scalar.createApiReference("#app", ${config});</script>
  </body>
</html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
