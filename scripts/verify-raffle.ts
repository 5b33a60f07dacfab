// Checks a raffle's proof as any member can, trusting neither the app nor this repository's
// server code: the proof comes from the app, the block hash from a chain node of your choosing.
//
//   npm run verify-raffle -- <poolId> [--app http://localhost:3000] [--rpc http://127.0.0.1:8545]
//
// --app  the Questline app serving /rewards/raffles/<poolId>/proof.json (default http://localhost:3000)
// --rpc  a node of the raffle's chain (default LOCAL_CHAIN_RPC_URL, else http://127.0.0.1:8545)
//
// Prints one line per check, "✓ …" or "✗ …". Exit 0 when every check passes, 1 when one fails,
// 2 on bad arguments or when the app or the node cannot be reached.

import { parseArgs } from "node:util";
import { BlockNotFoundError, createPublicClient, http, type Hex } from "viem";
import "./app-paths.ts";

// Loaded once app-paths has taught node the extensionless imports app modules use.
const { verifyFromSources } = await import("../app/modules/rewards/raffle-proof.ts");

const USAGE = "Usage: node scripts/verify-raffle.ts <poolId> [--app http://localhost:3000] [--rpc http://127.0.0.1:8545]";

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function argumentsOf(argv: string[]): { poolId: string; app: string; rpc: string } {
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { app: { type: "string" }, rpc: { type: "string" } } });
    if (positionals.length !== 1) fail(USAGE);
    return {
      poolId: positionals[0]!,
      app: values.app ?? "http://localhost:3000",
      rpc: values.rpc ?? (process.env.LOCAL_CHAIN_RPC_URL || "http://127.0.0.1:8545"),
    };
  } catch (error) {
    fail(`${messageOf(error)}\n${USAGE}`);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return (error as { shortMessage?: string }).shortMessage ?? error.message;
  return String(error);
}

/** The proof JSON as the app serves it; anything short of a 200 with JSON is exit 2. */
async function fetchProof(app: string, poolId: string): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(`rewards/raffles/${encodeURIComponent(poolId)}/proof.json`, app.endsWith("/") ? app : `${app}/`);
  } catch {
    fail(`--app must be a URL, not ${app}`);
  }
  const response = await fetch(url).catch((error: Error) => fail(`Cannot reach the app at ${url.origin}: ${messageOf(error.cause ?? error)}`));
  if (!response.ok) fail(`The app answered ${response.status} ${response.statusText} for ${url}`);
  return response.json().catch(() => fail(`The app did not answer JSON for ${url}`));
}

/** Reads block hashes from `rpc`, refusing a node of another chain than the raffle's. */
function blockHashReader(rpc: string) {
  const client = createPublicClient({ transport: http(rpc, { retryCount: 0 }) });
  return async ({ chainId, blockNumber }: { chainId: number; blockNumber: bigint }): Promise<Hex | null> => {
    try {
      const nodeChainId = await client.getChainId();
      if (nodeChainId !== chainId) fail(`The node at ${rpc} serves chain ${nodeChainId}; the raffle was drawn on chain ${chainId}`);
      return (await client.getBlock({ blockNumber })).hash;
    } catch (error) {
      if (error instanceof BlockNotFoundError) return null;
      fail(`Cannot read block ${blockNumber} from the node at ${rpc}: ${messageOf(error)}`);
    }
  };
}

const { poolId, app, rpc } = argumentsOf(process.argv.slice(2));
const verification = await verifyFromSources({ proof: await fetchProof(app, poolId), readBlockHash: blockHashReader(rpc) });
for (const check of verification.checks) console.log(`${check.ok ? "✓" : "✗"} ${check.words}`);
process.exit(verification.ok ? 0 : 1);
