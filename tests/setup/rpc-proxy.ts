import { createServer, type IncomingMessage } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

/** What the proxy does with a request for a JSON-RPC method. */
export type ProxyAction = "forward" | "drop-before" | "drop-after" | "hold";

/**
 * A loopback JSON-RPC proxy in front of a real node, for fault tests: it can stop listening (the
 * node is down: connections are refused) and start again on the same port, and per method cut
 * the connection before forwarding, cut it after the node answered, or hold the answer forever.
 * WebSocket connections (anvil serves them on the same port) are passed through as they are, and
 * cut by `stop` like the others: `ws://` on the proxy's port reaches the node's socket.
 */
export async function startRpcProxy(target: string) {
  let rule: (method: string) => ProxyAction = () => "forward";
  const sockets = new Set<Socket>();
  const onHold: (() => void)[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const methods = [body ? JSON.parse(body) : []].flat().map((call: { method?: string }) => String(call.method));
    const action = methods.map((method) => rule(method)).find((a) => a !== "forward") ?? "forward";
    if (action === "drop-before") return void req.socket.destroy();
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body }).catch(() => null);
    if (!upstream) return void req.socket.destroy();
    const text = await upstream.text();
    if (action === "drop-after") return void req.socket.destroy();
    if (action === "hold") {
      for (const resolve of onHold.splice(0)) resolve();
      return;
    }
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(text);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // A WebSocket's opening request goes to the node as it came; from then on bytes flow both ways.
  server.on("upgrade", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const node = new URL(target);
    const upstream = connect(Number(node.port), node.hostname, () => {
      const headers = Object.entries(req.headersDistinct).flatMap(([name, values]) => (values ?? []).map((value) => `${name}: ${value}\r\n`));
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join("")}\r\n`);
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    webSocketUrl: `ws://127.0.0.1:${port}`,
    setRule: (next: (method: string) => ProxyAction) => void (rule = next),
    /** Resolves once the proxy holds a request's answer. */
    nextHeld: () => new Promise<void>((resolve) => onHold.push(resolve)),
    /** Stops listening and cuts every open connection: the node is down. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    /** Listens again on the same port: the node is back. */
    start: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
  };
}

export type RpcProxy = Awaited<ReturnType<typeof startRpcProxy>>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}
