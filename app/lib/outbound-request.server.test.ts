import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkOutboundUrl, outboundRequest, refusedAddress } from "./outbound-request.server";

describe("outbound requests to a project's URL", () => {
  let server: Server;
  let base: string;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/hang") return; // never answers
      let body = "";
      req.on("data", (c: Buffer) => (body += c));
      req.on("end", () =>
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ echo: body, signature: req.headers["webhook-signature"] })),
      );
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));

  it("refuses loopback, private, link-local (metadata) and reserved addresses, IPv4 written as IPv6 too", () => {
    for (const address of [
      "127.0.0.1",
      "::1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::ffff:10.0.0.1",
      "fd00:ec2::254",
      "fe80::1",
    ])
      expect(refusedAddress(address, { allowLoopback: false }), address).not.toBeNull();
    expect(refusedAddress("127.0.0.1", { allowLoopback: true })).toBeNull();
    expect(refusedAddress("169.254.169.254", { allowLoopback: true })).not.toBeNull();
    expect(refusedAddress("93.184.215.14", { allowLoopback: false })).toBeNull();
  });

  it("checks a URL at save: its scheme, credentials and every address its name resolves to", async () => {
    expect(await checkOutboundUrl("ftp://example.com", { allowLoopback: false })).toMatchObject({ ok: false });
    expect(await checkOutboundUrl("https://user:pw@example.com", { allowLoopback: false })).toMatchObject({ ok: false });
    expect(await checkOutboundUrl("http://localhost:8080/hook", { allowLoopback: false })).toMatchObject({
      ok: false,
      message: expect.stringContaining("loopback"),
    });
    expect(await checkOutboundUrl("http://[::ffff:169.254.169.254]/", { allowLoopback: true })).toMatchObject({ ok: false });
    expect(await checkOutboundUrl(`${base}/hook`, { allowLoopback: true })).toMatchObject({ ok: true });
  });

  it("sends to an allowed address, refuses a loopback one at the connection, and gives up on a server that hangs", async () => {
    const sent = await outboundRequest({ url: `${base}/hook`, body: "hello", headers: { "webhook-signature": "v1,x" }, timeoutMs: 2000, allowLoopback: true });
    expect(sent).toMatchObject({ ok: true, status: 201 });
    expect(sent.ok && JSON.parse(sent.body)).toEqual({ echo: "hello", signature: "v1,x" });
    const refused = await outboundRequest({ url: `${base}/hook`, body: "x", timeoutMs: 2000, allowLoopback: false });
    expect(refused).toMatchObject({ ok: false, reason: "refused" });
    // A name (not an address literal) is checked at the connection too.
    const byName = await outboundRequest({ url: base.replace("127.0.0.1", "localhost") + "/hook", body: "x", timeoutMs: 2000, allowLoopback: false });
    expect(byName).toMatchObject({ ok: false, reason: "refused" });
    const hung = await outboundRequest({ url: `${base}/hang`, body: "x", timeoutMs: 200, allowLoopback: true });
    expect(hung).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("keeps connections open between requests when asked, and still refuses what a new connection would", async () => {
    const before = connections;
    for (let i = 0; i < 5; i++)
      expect(await outboundRequest({ url: `${base}/hook`, body: "k", timeoutMs: 2000, allowLoopback: true, keepAlive: true })).toMatchObject({
        ok: true,
        status: 201,
      });
    expect(connections - before).toBe(1);
    const refused = await outboundRequest({ url: `${base}/hook`, body: "k", timeoutMs: 2000, allowLoopback: false, keepAlive: true });
    expect(refused).toMatchObject({ ok: false, reason: "refused" });
    expect(connections - before).toBe(1);
  });
});
