// event_emitted checks of 10,000 members from one scan: part of `npm run bench -- onchain`, or alone:
// `node --import ./scripts/app-paths.ts bench/onchain-event-10k.ts` (PGlite, or PostgreSQL with DATABASE_URL).
//
// A fresh local chain with a tiny swap contract (tests/setup/onchain-fixtures.ts) whose `swapFor`
// emits one `Swap` per address in one transaction: 10,000 members' events in BENCH_EVENT_MEMBERS /
// 1,000 transactions, then SETTLE blocks mined on top (so a check's scan finds nothing new to read,
// as when the job keeps up). Each round makes a new event_emitted task (its own cursor, from the
// window's first block) and measures:
// - onchain_event_scan_10k_s: one scanner run of the task (scanEventTask, as the onchain-events
//   job runs it): one eth_getLogs over the blocks, 10,000 matches recorded;
// - onchain_event_10k_s: that scan, then every member's check (attemptTask with "check": the
//   task's cursor brought to the head, the member's match found, the completion approved and its XP
//   paid), BENCH_EVENT_CONCURRENCY (8) at a time.
// Figures are the median of BENCH_EVENT_ROUNDS (3) rounds.

import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { getAddress, type Address } from "viem";
import { user } from "../db/schema/auth.ts";
import { project } from "../db/schema/projects.ts";
import { task } from "../db/schema/quests.ts";
import { walletAddress } from "../db/schema/wallets.ts";
import { openDatabase, type Db } from "../app/lib/db.server.ts";
import { LOCAL_CHAIN_ID } from "../app/lib/local-chain-id.ts";
import { startLocalChain } from "../app/lib/local-chain.server.ts";
import { attemptTask, type Task } from "../app/modules/tasks/completions.server.ts";
import { scanEventTask, settleDepthOf } from "../app/modules/tasks/event-tasks.server.ts";
import { deployOnchainFixtures, SWAP_EVENT } from "../tests/setup/onchain-fixtures.ts";
import { localRegistry } from "../tests/setup/local-registry.ts";
import { bench, log, median } from "./stats.ts";

const MEMBERS = Number(process.env.BENCH_EVENT_MEMBERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_EVENT_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_EVENT_CONCURRENCY ?? 8);
const PER_TX = 1_000;
const CONFIRMATIONS = 1;

/**
 * The figures, on a fresh local chain and database of their own. Not on the onchain group's
 * 100,000-block chain: its genesis is numbered 95,000 (`anvil --number`), and the task's first run
 * looks for its opening block from block 0 (`blockAtTime`), which that chain does not have.
 */
export async function benchEventChecks() {
  const node = await startLocalChain();
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: null });
  try {
    await run(database.db, node.url);
  } finally {
    await database.close();
    await node.stop();
  }
}

async function run(db: Db, url: string) {
  const fx = await deployOnchainFixtures(url);
  const chains = localRegistry({ url, confirmations: CONFIRMATIONS, webSocket: null });
  const chain = chains.get(LOCAL_CHAIN_ID)!;
  const opened = new Date(Number((await fx.client.getBlock()).timestamp) * 1000);

  log(`${MEMBERS} members, each with a linked wallet of their own`);
  const members = Array.from({ length: MEMBERS }, (_, i) => ({ id: `member-${i}`, address: getAddress(`0x${randomBytes(20).toString("hex")}`) as Address }));
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  for (let i = 0; i < MEMBERS; i += 1_000) {
    const slice = members.slice(i, i + 1_000);
    await db.insert(user).values(slice.map((m) => ({ id: m.id, email: `${m.id}@example.com`, name: m.id })));
    await db.insert(walletAddress).values(slice.map((m) => ({ id: randomUUID(), userId: m.id, address: m.address, chainId: LOCAL_CHAIN_ID, isPrimary: true })));
  }

  log(`their ${MEMBERS} Swap events in ${Math.ceil(MEMBERS / PER_TX)} transactions`);
  for (let i = 0; i < MEMBERS; i += PER_TX) {
    const senders = members.slice(i, i + PER_TX).map((m) => m.address);
    await fx.send(0, { address: fx.swap, abi: fx.abis.swap, functionName: "swapFor", args: [senders, 5n] });
  }
  await fx.mine(settleDepthOf(CONFIRMATIONS) + 1);

  const scans: number[] = [];
  const totals: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const [t] = (await db
      .insert(task)
      .values({
        id: randomUUID(),
        projectId: "p",
        title: `Swap ${round}`,
        type: "event_emitted",
        verification: "auto",
        xp: 10,
        startsAt: opened,
        publishedAt: opened,
        config: { chainId: LOCAL_CHAIN_ID, contract: fx.swap, event: SWAP_EVENT, memberArg: "sender", minArg: { name: "amountIn", min: "1" }, actionUrl: "" },
      })
      .returning()) as [Task];
    const started = performance.now();
    const scanned = await scanEventTask({ db, task: t, chain: { id: chain.id, confirmations: CONFIRMATIONS, client: chain.client } });
    const scanMs = performance.now() - started;
    if (scanned.recorded !== MEMBERS) throw new Error(`the scan recorded ${scanned.recorded} events, not ${MEMBERS}`);
    let next = 0;
    let approved = 0;
    const worker = async () => {
      while (next < MEMBERS) {
        const m = members[next++]!;
        const done = await attemptTask({ db, taskId: t.id, userId: m.id, input: { kind: "check" }, chains });
        if (done.ok) approved++;
        else throw new Error(`${m.id}: ${JSON.stringify(done)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const totalMs = performance.now() - started;
    if (approved !== MEMBERS) throw new Error(`${approved} of ${MEMBERS} checks approved`);
    log(`round ${round}: scan ${(scanMs / 1000).toFixed(2)} s, scan and ${MEMBERS} checks ${(totalMs / 1000).toFixed(2)} s`);
    scans.push(scanMs / 1000);
    totals.push(totalMs / 1000);
  }
  bench("onchain_event_scan_10k_s", median(scans), "s");
  bench("onchain_event_10k_s", median(totals), "s");
}

// Run alone.
if (path.resolve(process.argv[1] ?? "") === import.meta.filename) await benchEventChecks();
