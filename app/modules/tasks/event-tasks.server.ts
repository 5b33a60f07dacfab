import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { getAddress, parseAbiItem, type AbiEvent, type PublicClient } from "viem";
import { z } from "zod";
import { chainEventCursor } from "#db/schema/chain";
import { onchainEventMatch, task } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import { scanEvents, type EventSubscription } from "~/modules/chain/event-scanner.server";
import { ChainUnreachable, fromNode } from "~/modules/chain/node-errors.server";
import { blockAtTime } from "~/modules/chain/onchain-reads.server";
import type { Task } from "./completions.server";
import { taskWindow } from "./task-window.server";
import { taskConfigSchemas } from "./task.schema";

/**
 * `event_emitted` tasks as subscriptions of the event scanner (decision 053, issue #37): each live
 * task reads its contract's event on its chain from its own cursor (`task-event:<taskId>`), up to
 * the last block with the chain's confirmations, from the block its window opens at, and stores
 * every log in `onchain_event_match` (the member argument's address, the numeric argument the task
 * asks a minimum of, where the log is). A member's check (verify-event.server.ts) reads these rows;
 * the per-chain job `onchain-events` keeps every live task's cursor near the head.
 */

/** Blocks past the confirmations that a run reads again and the reorg check watches (onchain-reorgs.server.ts). */
export const SETTLE_MARGIN = 64;
/** How deep a block is before a reorg is no longer looked for under it: the confirmations and a margin well past them. */
export const settleDepthOf = (confirmations: number) => confirmations + SETTLE_MARGIN;

/** An ended task's cursor is still read this long, for members who emitted just before its end. */
export const EVENT_TASK_GRACE_MS = 60 * 60 * 1000;

/** Rows per insert statement (nine parameters a row, under PostgreSQL's 65,535). */
const ROWS_PER_INSERT = 1000;

export type EventTaskConfig = z.output<(typeof taskConfigSchemas)["event_emitted"]>;

/** A task's event, parsed: the ABI item the scanner reads, and the arguments the check looks at. */
export type TaskEvent = { item: AbiEvent; memberArg: string; minArg: { name: string; min: bigint } | null };

/** The subscription's name: one cursor per task on its chain. */
export const eventTaskSubscription = (taskId: string) => `task-event:${taskId}`;

/**
 * Reads a task's event as Solidity declares it (`Swap(address indexed sender, uint256 amountIn)`),
 * or why it cannot be read, in words: the member argument must be an indexed address, the minimum's
 * argument a whole number.
 */
export function taskEventOf(config: Pick<EventTaskConfig, "event" | "memberArg" | "minArg">): TaskEvent | { error: string } {
  let item: AbiEvent;
  try {
    const parsed = parseAbiItem(`event ${config.event}`);
    if (parsed.type !== "event")
      return { error: "The event does not parse: write it as Solidity declares it, e.g. Swap(address indexed sender, uint256 amount)" };
    item = parsed;
  } catch {
    return { error: "The event does not parse: write it as Solidity declares it, e.g. Swap(address indexed sender, uint256 amount)" };
  }
  const member = item.inputs.find((input) => input.name === config.memberArg);
  if (!member || member.type !== "address" || !member.indexed) return { error: `${item.name} has no indexed address argument named ${config.memberArg}` };
  if (!config.minArg) return { item, memberArg: member.name!, minArg: null };
  const numeric = item.inputs.find((input) => input.name === config.minArg!.name);
  if (!numeric || !/^u?int\d*$/.test(numeric.type)) return { error: `${item.name} has no whole-number argument named ${config.minArg.name}` };
  return { item, memberArg: member.name!, minArg: { name: numeric.name!, min: BigInt(config.minArg.min) } };
}

const hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .transform((value) => value.toLowerCase());

const logSchema = z.object({
  transactionHash: hash32,
  logIndex: z.number().int().nonnegative(),
  blockNumber: z.bigint().nonnegative(),
  blockHash: hash32,
  /** Some nodes (anvil, recent geth and reth) give the block's time with each log. */
  blockTimestamp: z.bigint().nonnegative().optional(),
  removed: z.boolean().optional(),
  args: z.record(z.string(), z.unknown()),
});

/** One log as the scanner hands it to `record`. */
export type EventMatchLog = {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date | null;
  /** Lowercase 0x address: the member argument. */
  address: string;
  /** The numeric argument the task asks a minimum of, as a decimal string. */
  amount: string | null;
};

/** A log as the node gave it, checked; null for a removed log or arguments that are not what the task names. */
function eventLogOf(raw: unknown, event: TaskEvent): EventMatchLog | null {
  const log = logSchema.parse(raw);
  if (log.removed) return null;
  const member = log.args[event.memberArg];
  if (typeof member !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(member)) return null;
  const amount = event.minArg ? log.args[event.minArg.name] : null;
  if (event.minArg && typeof amount !== "bigint") return null;
  return {
    txHash: log.transactionHash,
    logIndex: log.logIndex,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    blockTime: log.blockTimestamp === undefined ? null : new Date(Number(log.blockTimestamp) * 1000),
    address: member.toLowerCase(),
    amount: typeof amount === "bigint" ? amount.toString() : null,
  };
}

/**
 * Stores a chunk's logs, once per (task, transaction, log index). A log read again in another block
 * (a reorg moved its transaction) takes its new place. Returns how many rows were new or moved.
 */
export async function recordEventMatches(tx: Db, { taskId, chainId, logs }: { taskId: string; chainId: number; logs: EventMatchLog[] }): Promise<number> {
  let stored = 0;
  for (let i = 0; i < logs.length; i += ROWS_PER_INSERT) {
    const written = await tx
      .insert(onchainEventMatch)
      .values(
        logs.slice(i, i + ROWS_PER_INSERT).map((log) => ({
          taskId,
          chainId,
          txHash: log.txHash,
          logIndex: log.logIndex,
          address: log.address,
          blockNumber: Number(log.blockNumber),
          blockHash: log.blockHash,
          amount: log.amount,
          blockTime: log.blockTime,
        })),
      )
      .onConflictDoUpdate({
        target: [onchainEventMatch.taskId, onchainEventMatch.txHash, onchainEventMatch.logIndex],
        set: {
          blockNumber: sql`excluded.block_number`,
          blockHash: sql`excluded.block_hash`,
          blockTime: sql`excluded.block_time`,
          address: sql`excluded.address`,
          amount: sql`excluded.amount`,
        },
        setWhere: sql`${onchainEventMatch.blockHash} <> excluded.block_hash`,
      })
      .returning({ txHash: onchainEventMatch.txHash });
    stored += written.length;
  }
  return stored;
}

/** The chain a task's events are read on: its id, its confirmation count, and the client to read through. */
export type EventChain = { id: number; confirmations: number; client: PublicClient };

/**
 * One scanner run of a task: reads its event from its cursor up to the last block with the
 * chain's confirmations (the block itself counts), the last `settleDepthOf(confirmations)` blocks
 * again (a reorg may have moved a log there), and records the logs (not those known to be older
 * than the task's opening). The first run starts at the
 * block the task's window opens at (else when the task was published): `blockAtTime`. A node that
 * cannot be reached throws ChainUnreachable, with nothing recorded for the chunk it was reading.
 */
export async function scanEventTask({
  db,
  task: t,
  chain,
  batchSize = 2000,
  reread = settleDepthOf(chain.confirmations),
}: {
  db: Db;
  task: Task;
  chain: EventChain;
  batchSize?: number;
  /** Blocks below the cursor read again (where a reorg may have moved a log); a member's check reads none, the job the settle depth. */
  reread?: number;
}): Promise<{ head: bigint; recorded: number }> {
  const config = taskConfigSchemas.event_emitted.parse(t.config);
  const event = taskEventOf(config);
  if ("error" in event) throw new Error(`task ${t.id}: ${event.error}`);
  const name = eventTaskSubscription(t.id);
  const address = getAddress(config.contract);
  const [cursor] = await db
    .select({ address: chainEventCursor.address })
    .from(chainEventCursor)
    .where(and(eq(chainEventCursor.chainId, chain.id), eq(chainEventCursor.subscription, name)));
  const opens = (await taskWindow(db, t)).from ?? t.publishedAt ?? t.createdAt;
  let startBlock = 0n;
  if (cursor?.address.toLowerCase() !== address.toLowerCase()) {
    // The first run (or the task now names another contract: its old matches were another's events).
    if (cursor) await db.delete(onchainEventMatch).where(eq(onchainEventMatch.taskId, t.id));
    startBlock = await blockAtTime({ client: chain.client, at: opens });
  }
  const subscription: EventSubscription<readonly [AbiEvent], EventMatchLog, number> = {
    name,
    address,
    abi: [event.item] as const,
    eventName: event.item.name as never,
    parse: (raw) => eventLogOf(raw, event),
    lastBlock: (head) => head - BigInt(chain.confirmations - 1),
    reread,
    record: async (tx, logs) => {
      // The re-read window may reach below the block the task opened at: what is known to be older is left out.
      logs = logs.filter((log) => !log.blockTime || log.blockTime >= opens);
      // What was new or moved (the re-read window's logs already stored count nothing).
      return { result: await recordEventMatches(tx, { taskId: t.id, chainId: chain.id, logs }) };
    },
  };
  const scanned = await fromNode(() => scanEvents({ db, chainId: chain.id, client: chain.client, subscription, batchSize, startBlock }));
  return { head: scanned.head, recorded: scanned.results.reduce((sum, n) => sum + n, 0) };
}

/**
 * The chain's live `event_emitted` tasks: published, their window open (or ended less than `grace`
 * ago, so an event mined just before the end is still read).
 */
export async function liveEventTasks({
  db,
  chainId,
  now,
  grace = EVENT_TASK_GRACE_MS,
}: {
  db: Db;
  chainId: number;
  now: Date;
  grace?: number;
}): Promise<Task[]> {
  const tasks = await db
    .select()
    .from(task)
    .where(and(eq(task.type, "event_emitted"), isNotNull(task.publishedAt), sql`(${task.config}->>'chainId')::int = ${chainId}`))
    .orderBy(asc(task.id));
  const live: Task[] = [];
  for (const t of tasks) {
    if (t.publishedAt! > now) continue;
    const { from, to } = await taskWindow(db, t);
    if (from && from > now) continue;
    if (to && to.getTime() + grace < now.getTime()) continue;
    live.push(t);
  }
  return live;
}

export type EventTasksRun = { tasks: number; recorded: number; failed: number };

/**
 * The `onchain-events` job on one chain: one scanner run of each live event task. A node that
 * cannot be reached fails the run (the job engine retries it); a task that cannot be read (its event
 * no longer parses) is reported and the others go on.
 */
export async function scanEventTasks({
  db,
  chain,
  now = new Date(),
  onError,
}: {
  db: Db;
  chain: EventChain;
  now?: Date;
  onError: (taskId: string, error: unknown) => void;
}): Promise<EventTasksRun> {
  const run: EventTasksRun = { tasks: 0, recorded: 0, failed: 0 };
  for (const t of await liveEventTasks({ db, chainId: chain.id, now })) {
    try {
      const { recorded } = await scanEventTask({ db, task: t, chain });
      run.tasks += 1;
      run.recorded += recorded;
    } catch (error) {
      if (error instanceof ChainUnreachable) throw error;
      run.failed += 1;
      onError(t.id, error);
    }
  }
  return run;
}
