/**
 * Reown's cloud as the wallet modal (AppKit) sees it, for the e2e tests, through `page.route`:
 *
 *   const cloud = await stubReownCloud(page, { appOrigin });                    // minimal valid answers
 *   const cloud = await stubReownCloud(page, { appOrigin, reachable: false });  // every call fails at the network
 *
 * The machine has no internet, so without this every call would fail slowly or differently from
 * run to run. Any other request that leaves the app's origin is refused (aborted) and recorded in
 * `cloud.unexpected`, so a test can show the wallet made no call nobody knows about.
 *
 * Stubbed answers (what AppKit 1.8 reads from each):
 *   api.web3modal.org   /appkit/v1/config        { features: [] }: no remote feature, so the modal offers
 *                                                 wallets only (no e-mail, social, swaps, on-ramp)
 *                       /appkit/v1/project-limits { planLimits: { tier, isAboveMauLimit, isAboveRpcLimit } }
 *                       /projects/v1/origins     { allowedOrigins: [the app] }
 *                       /getWallets              { data: [], count: 0 }
 *                       /getAnalyticsConfig      { isAnalyticsEnabled: false }
 *                       image endpoints          a small SVG
 *   fonts.reown.com     the machine's sans-serif font when it has one, else 404
 *   rpc.walletconnect.org  /v1/identity/*: { name: null, avatar: null }; balances: { balances: [] };
 *                       JSON-RPC: a JSON-RPC error (the app's own transports answer for the local chain)
 *   pulse.walletconnect.org (events), secure.walletconnect.org (embedded wallet): 204 / 404
 */
import { existsSync, readFileSync } from "node:fs";
import type { Page, Route } from "@playwright/test";

export const CLOUD_HOSTS = ["api.web3modal.org", "fonts.reown.com", "rpc.walletconnect.org", "pulse.walletconnect.org", "secure.walletconnect.org"] as const;

const PLACEHOLDER_IMAGE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="10" fill="#a3a3a3"/></svg>';

const SANS_FONTS = ["/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"];

let font: Buffer | null | undefined;
function sansFont() {
  if (font === undefined) {
    const file = SANS_FONTS.find((f) => existsSync(f));
    font = file ? readFileSync(file) : null;
  }
  return font;
}

export type CloudStub = {
  /** Every request to a cloud host, as "METHOD host/path". */
  readonly requests: string[];
  /** Requests to any other foreign host: refused; a test can expect this to stay empty. */
  readonly unexpected: string[];
};

export async function stubReownCloud(page: Page, { appOrigin, reachable = true }: { appOrigin: string; reachable?: boolean }) {
  const stub: CloudStub = { requests: [], unexpected: [] };
  await page.route(
    (url) => (url.protocol === "https:" || url.protocol === "http:") && !isLocal(url),
    async (route) => {
      const url = new URL(route.request().url());
      if (!(CLOUD_HOSTS as readonly string[]).includes(url.hostname)) {
        stub.unexpected.push(`${route.request().method()} ${url.host}${url.pathname}`);
        return route.abort("blockedbyclient");
      }
      stub.requests.push(`${route.request().method()} ${url.host}${url.pathname}`);
      if (!reachable) return route.abort("internetdisconnected");
      return answer(route, url, appOrigin);
    },
  );
  return stub;
}

/** The app and the local chain are on this machine. */
function isLocal(url: URL) {
  return url.hostname === "localhost" || url.hostname === "127.0.0.1";
}

async function answer(route: Route, url: URL, appOrigin: string) {
  const json = (body: unknown, status = 200) =>
    route.fulfill({ status, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: JSON.stringify(body) });
  const image = () => route.fulfill({ status: 200, contentType: "image/svg+xml", headers: { "access-control-allow-origin": "*" }, body: PLACEHOLDER_IMAGE });
  const path = url.pathname;

  switch (url.hostname) {
    case "api.web3modal.org":
      if (path === "/appkit/v1/config") return json({ features: [] });
      if (path === "/appkit/v1/project-limits") return json({ planLimits: { tier: "starter", isAboveMauLimit: false, isAboveRpcLimit: false } });
      if (path === "/projects/v1/origins") return json({ allowedOrigins: [appOrigin] });
      if (path === "/getWallets") return json({ data: [], count: 0 });
      if (path === "/getAnalyticsConfig") return json({ isAnalyticsEnabled: false });
      if (/^\/(getWalletImage|public\/get\w+Image)\//.test(path)) return image();
      return json({ message: "Not found" }, 404);
    case "fonts.reown.com": {
      const body = sansFont();
      if (!body) return route.fulfill({ status: 404, headers: { "access-control-allow-origin": "*" }, body: "" });
      return route.fulfill({ status: 200, contentType: "font/ttf", headers: { "access-control-allow-origin": "*" }, body });
    }
    case "rpc.walletconnect.org":
      if (path.startsWith("/v1/identity/")) return json({ name: null, avatar: null });
      if (/^\/v1\/account\/[^/]+\/balance$/.test(path)) return json({ balances: [] });
      if (/^\/v1\/account\/[^/]+\/history$/.test(path)) return json({ data: [], next: null });
      if (path === "/v1" || path === "/v1/") return json({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Not served in tests" } });
      return json({ message: "Not found" }, 404);
    case "pulse.walletconnect.org":
      return route.fulfill({ status: 204, headers: { "access-control-allow-origin": "*" }, body: "" });
    default:
      return route.fulfill({ status: 404, headers: { "access-control-allow-origin": "*" }, body: "" });
  }
}
