// On-chain task checks: `npm run bench -- onchain`.
//
// A fresh local chain whose head is block BENCH_ONCHAIN_BLOCKS (100,000 by default). anvil 1.7
// slows down with every block it mines (each `anvil_mine` of 1,000 blocks takes ~1.4 ms more per
// block than the one before: 100,000 blocks would take hours), so its genesis is numbered
// BENCH_ONCHAIN_BLOCKS - BENCH_ONCHAIN_MINED (`--number`) and the last BENCH_ONCHAIN_MINED (5,000)
// are mined for real: `anvil_mine` runs with a token transfer of another wallet every 500 blocks,
// then the last 2,000 blocks with one every 20 blocks and the member's matching transfer near the
// oldest end (10 blocks in). The figures read only those last blocks (and the head), as a real
// node's 100,000-block chain would be read. Reads go through the registry's page transport for this
// chain (one try within CHAIN_PAGE_TIMEOUT_MS's default), as while a member waits:
// - onchain_contract_call_p95_ms: checking the pasted hash of the member's transfer (transaction,
//   receipt, head, then the block's time for the window; 100 samples);
// - onchain_find_tx_p95_ms: "Find my transaction" over the last 2,000 blocks, newest first, down to
//   the member's transfer near the oldest end (30 samples), on a node with historical state
//   (the wallets' nonces bisected); onchain_find_tx_full_node_p95_ms, the same on a full node
//   (every block read, in batches; 10 samples), a diagnostic;
// - onchain_event_10k_s (and onchain_event_scan_10k_s): event_emitted checks of 10,000 members from
//   one scan, on a chain and database of its own (bench/onchain-event-10k.ts).

import { createRequire } from "node:module";
import path from "node:path";
import { createPublicClient, parseEther, toFunctionSelector, type Address, type Hex } from "viem";
import { anvil } from "viem/chains";
import { DEV_ADDRESSES } from "../contracts/dev-accounts.ts";
import { spawnTied } from "../app/lib/tied-process.server.ts";
import { checkContractCall, type CallMatch } from "../app/modules/chain/onchain-reads-calls.server.ts";
import { findContractCall } from "../app/modules/chain/onchain-reads-find.server.ts";
import { chainTransport } from "../app/wallet/chain-config.ts";
import { deployMiniContracts, devWallet } from "../tests/setup/mini-contracts.ts";
import { startPrunedNode } from "../tests/fakes/pruned-node.ts";
import { benchEventChecks } from "./onchain-event-10k.ts";
import { bench, log, measure, p95, timed } from "./stats.ts";

const HISTORY = Number(process.env.BENCH_ONCHAIN_BLOCKS ?? 100_000);
const MINED = Number(process.env.BENCH_ONCHAIN_MINED ?? 5_000);
const LOOK_BACK = 2_000;
const PASTE_SAMPLES = 100;
const FIND_SAMPLES = 30;
const FULL_NODE_SAMPLES = 10;
/** CHAIN_PAGE_TIMEOUT_MS's default (app/services/env.server.ts). */
const PAGE_TIMEOUT_MS = 800;

/** anvil from the npm package (as app/lib/local-chain.server.ts starts it), its genesis numbered `genesis`. */
async function startChain(genesis: number) {
  const require = createRequire(import.meta.url);
  const binary = path.join(
    path.dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}/package.json`)),
    "bin",
    "anvil",
  );
  const anvilProcess = spawnTied(binary, ["--host", "127.0.0.1", "--port", "0", "--number", String(genesis)]);
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    anvilProcess.child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on (127\.0\.0\.1:\d+)/.exec(output);
      if (listening) resolve(`http://${listening[1]}`);
    });
    anvilProcess.child.once("exit", (code) => reject(new Error(`anvil exited with code ${code}: ${output.slice(-500)}`)));
  });
  return { url, stop: anvilProcess.stop };
}

const node = await startChain(HISTORY - MINED);
try {
  // The registry's page transport (createChainRegistry): one try, batched.
  const client = createPublicClient({ chain: anvil, transport: chainTransport([node.url], { timeoutMs: PAGE_TIMEOUT_MS, retryCount: 0, batch: true }) });
  const setup = createPublicClient({ chain: anvil, transport: chainTransport([node.url]), pollingInterval: 10 });
  const rpc = (method: string, params: unknown[] = []) => setup.request({ method, params } as never);
  const mini = await deployMiniContracts({ url: node.url, client: setup });
  const [, member, other, receiver] = DEV_ADDRESSES as unknown as Address[];
  const transfer = async (from: number, amount: bigint): Promise<Hex> => {
    const hash = await devWallet(node.url, from).writeContract({
      address: mini.token,
      abi: mini.abi.token,
      functionName: "transfer",
      args: [receiver, amount],
      gas: 100_000n,
    } as never);
    await setup.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    return hash;
  };
  for (const holder of [member, other]) {
    const hash = await devWallet(node.url, 0).writeContract({
      address: mini.token,
      abi: mini.abi.token,
      functionName: "mint",
      args: [holder, parseEther("1000000")],
    } as never);
    await setup.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  }

  const start = await setup.getBlockNumber({ cacheTime: 0 });
  await timed(`${(HISTORY - LOOK_BACK - Number(start)).toLocaleString("en")} blocks before the last ${LOOK_BACK.toLocaleString("en")}`, async () => {
    for (let mined = Number(start); mined < HISTORY - LOOK_BACK - 500; mined += 500) {
      await rpc("anvil_mine", [`0x${(499).toString(16)}`]);
      await transfer(2, 1n);
    }
    const rest = HISTORY - LOOK_BACK - Number(await setup.getBlockNumber({ cacheTime: 0 }));
    if (rest > 0) await rpc("anvil_mine", [`0x${rest.toString(16)}`]);
  });
  await rpc("anvil_mine", [`0x${(9).toString(16)}`]);
  const pasted = await transfer(1, parseEther("2"));
  await timed(`the last ${LOOK_BACK.toLocaleString("en")} blocks`, async () => {
    for (let next = HISTORY - LOOK_BACK + 10; next + 20 <= HISTORY; next += 20) {
      await rpc("anvil_mine", [`0x${(19).toString(16)}`]);
      await transfer(2, 1n);
    }
    const rest = HISTORY - Number(await setup.getBlockNumber({ cacheTime: 0 }));
    if (rest > 0) await rpc("anvil_mine", [`0x${rest.toString(16)}`]);
  });
  const head = await setup.getBlockNumber({ cacheTime: 0 });
  const { blockNumber } = await setup.getTransactionReceipt({ hash: pasted });
  log(`head ${head}; the member's transfer is ${head - blockNumber + 1n} blocks deep`);

  const match: CallMatch = {
    from: [member as Address],
    to: mini.token,
    selectors: [toFunctionSelector("transfer(address,uint256)")],
    minValue: null,
    transfer: { token: mini.token, minAmount: parseEther("2") },
    window: { from: new Date(0), to: null },
  };
  const confirmations = 12;

  const pastes = await measure(PASTE_SAMPLES, async () => {
    const checked = await checkContractCall({ client, chainId: anvil.id, confirmations, hash: pasted, match });
    if (checked.kind !== "found") throw new Error(`the pasted hash was not found: ${JSON.stringify(checked)}`);
  });
  bench("onchain_contract_call_p95_ms", p95(pastes), "ms");

  const finds = await measure(FIND_SAMPLES, async () => {
    const found = await findContractCall({ client, chainId: anvil.id, confirmations, match, blocks: LOOK_BACK, exclude: new Set() });
    if (found.kind !== "found" || found.evidence.txHash !== pasted) throw new Error(`Find my transaction missed it: ${JSON.stringify(found)}`);
  });
  bench("onchain_find_tx_p95_ms", p95(finds), "ms");

  // The same search where the node keeps no old state (a full node: the pruned-node proxy in front
  // of anvil refuses state older than 128 blocks), so every block is read, newest first, in
  // batches. A diagnostic beside the figure above (the proxy adds a hop and a head read per batch).
  const fullNode = await startPrunedNode({ target: node.url, keep: 128 });
  const scanning = createPublicClient({ chain: anvil, transport: chainTransport([fullNode.url], { timeoutMs: PAGE_TIMEOUT_MS, retryCount: 0, batch: true }) });
  const scans = await measure(FULL_NODE_SAMPLES, async () => {
    const found = await findContractCall({ client: scanning, chainId: anvil.id, confirmations, match, blocks: LOOK_BACK, exclude: new Set() });
    if (found.kind !== "found" || found.evidence.txHash !== pasted) throw new Error(`Find my transaction missed it on a full node: ${JSON.stringify(found)}`);
  });
  await fullNode.stop();
  bench("onchain_find_tx_full_node_p95_ms", p95(scans), "ms");

  // ---- onchain_event_10k_s: event_emitted checks for 10,000 members from one scan (issue #37). ----
  // On a fresh chain and database of its own (PGlite, or PostgreSQL with DATABASE_URL): bench/onchain-event-10k.ts says why.
  await benchEventChecks();
  // ---- end of onchain_event_10k_s ----
} finally {
  await node.stop();
}
