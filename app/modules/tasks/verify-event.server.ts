import { and, asc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { BlockNotFoundError, getAddress, type PublicClient } from "viem";
import { onchainEventMatch } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import { taskWindow } from "./task-window.server";
import { failure, ok, type Failure } from "~/lib/result";
import type { ChainEvidence } from "~/modules/chain/chain-evidence";
import { ChainUnreachable, fromNode } from "~/modules/chain/node-errors.server";
import { CHAIN_NAMES } from "~/wallet/chains";
import { periodOf, type OnchainChains, type Task, type Verified } from "./completions.server";
import { scanEventTask, taskEventOf } from "./event-tasks.server";
import { taskConfigSchemas } from "./task.schema";

/** Matches looked at per check: the member's earliest events that pass, in block order. */
const CANDIDATES = 20;

const DAY_MS = 86_400_000;

const UNREACHABLE = "The chain could not be reached. Try again in a minute.";

/**
 * The check of an `event_emitted` task (issue #37): the events the scanner stored for the task
 * (`onchain_event_match`), after bringing the task's cursor up to the chain's confirmed head, whose
 * member argument is one of the member's linked wallets, inside the task's window (a daily task:
 * inside today, UTC), with the minimum of its numeric argument. Approves with the earliest such
 * event's ChainEvidence (chain, block, hash, log index, values); refuses with what is missing; a
 * node that cannot be reached is "unavailable", with nothing recorded. An event counts for one
 * member only: its address is one member's linked wallet.
 */
export async function verifyEvent({
  db,
  task: t,
  userId,
  now,
  chains,
}: {
  db: Db;
  task: Task;
  userId: string;
  now: Date;
  chains: OnchainChains | undefined;
}): Promise<Verified | Failure> {
  const config = taskConfigSchemas.event_emitted.parse(t.config);
  const event = taskEventOf(config);
  if ("error" in event) return failure("unavailable", "This task's event cannot be read. The team has to fix the task.");
  const chain = chains?.get(config.chainId);
  const network = chain?.name ?? CHAIN_NAMES[config.chainId] ?? `chain ${config.chainId}`;
  if (!chain) return failure("unavailable", `${network} cannot be reached from this server, so this task cannot be checked now.`);
  const confirmations = chain.confirmations ?? 1;

  const wallets = await db
    .selectDistinct({ address: sql<string>`lower(${walletAddress.address})` })
    .from(walletAddress)
    .where(eq(walletAddress.userId, userId));
  if (wallets.length === 0) return failure("not_met", "Link a wallet in Settings › Profile first.");

  try {
    // The events mined since the last run, so a member who just emitted need not wait for the job
    // (which also reads the recent blocks again for reorgs: a check reads only what is new).
    await scanEventTask({ db, task: t, chain: { id: chain.id, confirmations, client: chain.pageClient }, reread: 0 });
  } catch (error) {
    if (error instanceof ChainUnreachable) return failure("unavailable", UNREACHABLE);
    throw error;
  }

  const window = await taskWindow(db, t);
  const daily = t.recurrence === "daily";
  const dayStart = new Date(`${periodOf("daily", now)}T00:00:00Z`);
  const from = latest(window.from, daily ? dayStart : null);
  const to = earliest(window.to, daily ? new Date(dayStart.getTime() + DAY_MS) : null);

  const conditions: SQL[] = [
    eq(onchainEventMatch.taskId, t.id),
    inArray(
      onchainEventMatch.address,
      wallets.map((w) => w.address),
    ),
  ];
  if (event.minArg) conditions.push(sql`${onchainEventMatch.amount}::numeric >= ${event.minArg.min.toString()}::numeric`);
  // A block whose time is not stored yet is read below.
  if (from) conditions.push(or(isNull(onchainEventMatch.blockTime), gte(onchainEventMatch.blockTime, from))!);
  if (to) conditions.push(or(isNull(onchainEventMatch.blockTime), lt(onchainEventMatch.blockTime, to))!);
  const candidates = await db
    .select()
    .from(onchainEventMatch)
    .where(and(...conditions))
    .orderBy(asc(onchainEventMatch.blockNumber), asc(onchainEventMatch.logIndex))
    .limit(CANDIDATES);

  for (const match of candidates) {
    let blockTime = match.blockTime;
    if (!blockTime) {
      let block: { hash: string; time: Date } | null;
      try {
        block = await blockOf(chain.pageClient, BigInt(match.blockNumber));
      } catch (error) {
        if (error instanceof ChainUnreachable) return failure("unavailable", UNREACHABLE);
        throw error;
      }
      if (!block || block.hash !== match.blockHash) continue;
      blockTime = block.time;
      await db
        .update(onchainEventMatch)
        .set({ blockTime })
        .where(
          and(
            eq(onchainEventMatch.chainId, match.chainId),
            eq(onchainEventMatch.blockNumber, match.blockNumber),
            eq(onchainEventMatch.blockHash, match.blockHash),
          ),
        );
      if ((from && blockTime < from) || (to && blockTime >= to)) continue;
    }
    const evidence: ChainEvidence = {
      kind: "chain",
      chainId: chain.id,
      blockNumber: String(match.blockNumber),
      blockHash: match.blockHash,
      txHash: match.txHash,
      logIndex: match.logIndex,
      wallet: getAddress(match.address),
      values: event.minArg && match.amount !== null ? { [event.minArg.name]: match.amount } : {},
    };
    return ok({
      submission: { txHash: match.txHash, logIndex: match.logIndex, blockNumber: String(match.blockNumber), blockTime: blockTime.toISOString() },
      evidence,
    });
  }

  const least = event.minArg ? ` with ${event.minArg.name} of at least ${event.minArg.min.toLocaleString("en-US")}` : "";
  const since = daily ? "today" : "since the task opened";
  const depth = confirmations > 1 ? ` An event counts once its block has ${confirmations} confirmations.` : "";
  return failure("not_met", `No ${event.item.name} event from your linked wallets${least} on ${network} ${since}.${depth}`);
}

/** The block's hash and time, or null when the node has no such block. */
async function blockOf(client: PublicClient, blockNumber: bigint): Promise<{ hash: string; time: Date } | null> {
  try {
    const block = await fromNode(() => client.getBlock({ blockNumber }));
    return { hash: block.hash.toLowerCase(), time: new Date(Number(block.timestamp) * 1000) };
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}

const latest = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));
const earliest = (a: Date | null, b: Date | null) => (a && b ? (a < b ? a : b) : (a ?? b));
