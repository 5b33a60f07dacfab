import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** Reads of an account's or a contract's state at a block: the methods a pruned node refuses for old blocks. */
const STATE_METHODS: Record<string, number> = {
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_getProof: 2,
};

/**
 * A full (not archive) geth node, played by a real anvil behind this JSON-RPC proxy: state older
 * than `keep` blocks below the head is refused with geth's own answer (`missing trie node … (path
 * )`, code -32000), as a geth full node keeps only the last 128 blocks' state. Everything else,
 * batches included, reaches anvil as it came. The one fake of the on-chain reads' tests: we run no
 * pruned node.
 */
export async function startPrunedNode({ target, keep = 128 }: { target: string; keep?: number }) {
  const upstream = async (body: unknown) => {
    const response = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return response.json() as Promise<unknown>;
  };
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Call | Call[];
    const calls = [body].flat();
    const { result: headHex } = (await upstream({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber", params: [] })) as { result: string };
    const head = BigInt(headHex);
    const refused = (call: Call) => {
      const at = STATE_METHODS[call.method] === undefined ? undefined : call.params?.[STATE_METHODS[call.method]!];
      return typeof at === "string" && at.startsWith("0x") && BigInt(at) + BigInt(keep) < head;
    };
    // The calls it answers go to anvil in one batch, as they came.
    const forwarded = calls.filter((call) => !refused(call));
    const answered = forwarded.length > 0 ? [(await upstream(forwarded)) as unknown[]].flat() : [];
    const answers = calls.map((call) =>
      refused(call)
        ? { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: `missing trie node ${"5c".repeat(32)} (path ) <nil>` } }
        : answered.find((answer) => (answer as { id?: unknown }).id === call.id),
    );
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Call = { jsonrpc: "2.0"; id: number; method: string; params?: unknown[] };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

export type PrunedNode = Awaited<ReturnType<typeof startPrunedNode>>;
