import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { nonceContext } from "~/lib/nonce";
import { loadEnv } from "~/services/env.server";
import { servicesContext, type Services } from "~/services/services.server";
import { loader as reference } from "./reference";
import { loader as script } from "./reference-script";

const env = loadEnv({ DATA_DIR: "/tmp/questline-reference-test", APP_URL: "http://localhost:3000", AUTH_SECRET: "x".repeat(40), APP_NAME: "Quest <Line>" });
const context = new RouterContextProvider(
  new Map<unknown, unknown>([
    [servicesContext, { env } as Services],
    [nonceContext, "n0nce+/="],
  ]) as never,
);

describe("the API reference page", () => {
  it("loads Scalar's file from our origin and starts it with the response's CSP nonce, reading /api/v1/openapi.json", async () => {
    const response = reference({ context } as never);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toContain('<script src="/api/v1/reference/standalone.js"></script>');
    expect(html).toMatch(/<script nonce="n0nce\+\/=">Scalar\.createApiReference\("#app", \{"url":"\/api\/v1\/openapi\.json"/);
    expect(html).toContain("<title>Quest &#60;Line&#62; API reference</title>");
    expect(html).not.toContain("<Line>");
  });

  it("serves the standalone bundle as JavaScript with an ETag, and 304 when it is cached", async () => {
    const first = await script({ request: new Request("http://localhost:3000/api/v1/reference/standalone.js") });
    expect(first.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"scalar-\d+\.\d+\.\d+"$/);
    const again = await script({ request: new Request("http://localhost:3000/api/v1/reference/standalone.js", { headers: { "if-none-match": etag } }) });
    expect(again.status).toBe(304);
  });
});
