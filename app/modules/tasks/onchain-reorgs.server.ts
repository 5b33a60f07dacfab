import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { BlockNotFoundError, decodeEventLog, TransactionReceiptNotFoundError, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import { completion, onchainEventMatch, onchainTxUse, task } from "#db/schema/quests";
import type { Db } from "~/lib/db.server";
import { chainEvidenceOf, type ChainEvidence } from "~/modules/chain/chain-evidence";
import { fromNode } from "~/modules/chain/node-errors.server";
import type { Task } from "./completions.server";
import { settleDepthOf, taskEventOf } from "./event-tasks.server";
import { taskConfigSchemas } from "./task.schema";
import { ONCHAIN_TASK_TYPES } from "./task-checks";
import { voidApproval } from "./void-approval.server";

/**
 * Reorg safety of on-chain completions (issue #37, decision 058). A completion counts from the
 * chain's confirmation depth; until its block is deep enough that a reorg is no longer looked for
 * (`settleDepthOf`: the confirmations and a margin well past them), the per-chain job
 * `onchain-reorgs` reads the block its evidence names again:
 *  - the same block, deep enough: the evidence is `settled` and never read again;
 *  - another block at that height: the transaction's receipt is read again. Still successful (and,
 *    for an event task, the member's event still in it) in another block: the evidence takes its
 *    new block. Gone, or failed this time: the approval is voided as decision 030 voids one
 *    (voidApproval: rejected with the reason below, XP taken back, its place freed), and the
 *    transaction may be used again (it no longer is one on this chain);
 *  - event matches (`onchain_event_match`) of the recent blocks whose block was replaced are
 *    dropped, so no later check finds them (the scanner reads those blocks again and records the
 *    events where they are now).
 * Every node read is made with no database transaction open (decision 051).
 */

/** Completions read per query while a task's unsettled ones are walked through. */
const PAGE = 200;

export type ReorgChain = { id: number; name: string; confirmations: number; client: PublicClient };
export type ReorgRun = { checked: number; settled: number; moved: number; voided: number; droppedMatches: number };

/** Why a completion no longer counts, as the member reads it on the task's page. */
export const reorgReason = (network: string) =>
  `The block holding your transaction was replaced on ${network} (a reorganisation), so this task no longer counts. You can do it again.`;

/** Evidence that is a transaction or a log, on this chain, not settled yet. */
const unsettled = (chainId: number) => [
  sql`${completion.evidence}->>'kind' = 'chain'`,
  sql`(${completion.evidence}->>'chainId')::int = ${chainId}`,
  sql`${completion.evidence}->>'txHash' is not null`,
  sql`coalesce(${completion.evidence}->>'settled', 'false') <> 'true'`,
];

/** One run of the reorg check on one chain. A node that cannot be reached throws ChainUnreachable (the job retries). */
export async function checkOnchainReorgs({
  db,
  chain,
  settleDepth = settleDepthOf(chain.confirmations),
  now = new Date(),
}: {
  db: Db;
  chain: ReorgChain;
  /** Blocks (the evidence's own included) after which a reorg is no longer looked for. */
  settleDepth?: number;
  now?: Date;
}): Promise<ReorgRun> {
  const run: ReorgRun = { checked: 0, settled: 0, moved: 0, voided: 0, droppedMatches: 0 };
  const tasks = await db
    .select()
    .from(task)
    .where(and(inArray(task.type, [...ONCHAIN_TASK_TYPES]), isNotNull(task.config), sql`(${task.config}->>'chainId')::int = ${chain.id}`))
    .orderBy(asc(task.id));
  // No on-chain task on this chain: nothing to read, and the node is not asked.
  if (tasks.length === 0) return run;
  const head = await fromNode(() => chain.client.getBlockNumber({ cacheTime: 0 }));
  const hashes = new Map<bigint, Promise<string | null>>();
  const hashAt = (blockNumber: bigint) => {
    if (!hashes.has(blockNumber)) hashes.set(blockNumber, canonicalHash(chain.client, blockNumber));
    return hashes.get(blockNumber)!;
  };

  // Event matches of the recent blocks: those whose block left the chain are dropped.
  const recent = await db
    .selectDistinct({ blockNumber: onchainEventMatch.blockNumber, blockHash: onchainEventMatch.blockHash })
    .from(onchainEventMatch)
    .where(
      and(
        eq(onchainEventMatch.chainId, chain.id),
        gt(onchainEventMatch.blockNumber, Number(head) - settleDepth),
        lte(onchainEventMatch.blockNumber, Number(head)),
      ),
    );
  for (const block of recent) {
    const canonical = await hashAt(BigInt(block.blockNumber));
    if (canonical !== null && canonical !== block.blockHash) run.droppedMatches += await dropMatches(db, { chainId: chain.id, ...block });
  }

  for (const t of tasks) {
    let after = "";
    for (;;) {
      const page = await db
        .select({ id: completion.id, evidence: completion.evidence })
        .from(completion)
        .where(and(eq(completion.taskId, t.id), eq(completion.status, "approved"), ...unsettled(chain.id), gt(completion.id, after)))
        .orderBy(asc(completion.id))
        .limit(PAGE);
      for (const c of page) {
        const evidence = chainEvidenceOf(c.evidence);
        if (!evidence?.txHash) continue;
        const blockNumber = BigInt(evidence.blockNumber);
        // A block past this node's head cannot be judged yet (a node lagging behind the one that checked).
        if (blockNumber > head) continue;
        const canonical = await hashAt(blockNumber);
        if (canonical === null) continue;
        run.checked += 1;
        if (canonical === evidence.blockHash.toLowerCase()) {
          if (head - blockNumber + 1n >= BigInt(settleDepth) && (await patchEvidence(db, c.id, evidence, { settled: true }))) run.settled += 1;
          continue;
        }
        const moved = await findAgain(chain.client, t, evidence, head);
        if (t.type === "event_emitted") {
          run.droppedMatches += await dropMatches(db, { chainId: chain.id, blockNumber: Number(blockNumber), blockHash: evidence.blockHash.toLowerCase() });
        }
        if (moved) {
          const patch = { blockNumber: moved.blockNumber.toString(), blockHash: moved.blockHash, reorgedAt: now.toISOString(), ...moved.logIndex };
          if (await patchEvidence(db, c.id, evidence, patch)) run.moved += 1;
          continue;
        }
        const outcome = await voidApproval({
          db,
          completionId: c.id,
          reason: reorgReason(chain.name),
          evidence: { reorgedAt: now.toISOString(), voidedAt: now.toISOString() },
          // Judged on this evidence: another run may have moved it meanwhile.
          onlyIf: (row) => chainEvidenceOf(row.evidence)?.blockHash === evidence.blockHash,
          now,
        });
        if (outcome.voided) {
          run.voided += 1;
          // The transaction is no longer on this chain: if it is mined again, it may count again.
          await db.delete(onchainTxUse).where(eq(onchainTxUse.completionId, c.id));
        }
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  return run;
}

/** The hash of the chain's block at `blockNumber` (lowercase), or null when the node has no such block. */
async function canonicalHash(client: PublicClient, blockNumber: bigint): Promise<string | null> {
  try {
    const block = await fromNode(() => client.getBlock({ blockNumber }));
    return block.hash.toLowerCase();
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}

/**
 * The evidence's transaction where the chain has it now: its block, and for an event task the log
 * index of the member's event in it; null when it is gone, failed, not confirmed by this head or
 * (an event task) no longer carries the member's event.
 */
async function findAgain(
  client: PublicClient,
  t: Task,
  evidence: ChainEvidence,
  head: bigint,
): Promise<{ blockNumber: bigint; blockHash: string; logIndex: { logIndex?: number } } | null> {
  let receipt: TransactionReceipt;
  try {
    receipt = await fromNode(() => client.getTransactionReceipt({ hash: evidence.txHash as Hex }));
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
  if (receipt.status !== "success" || receipt.blockNumber > head) return null;
  const found = { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash.toLowerCase() };
  if (t.type !== "event_emitted") return { ...found, logIndex: {} };
  const logIndex = memberEventIn(receipt, t, evidence);
  return logIndex === null ? null : { ...found, logIndex: { logIndex } };
}

/** The index of the task's event for the evidence's wallet (with its minimum) in the receipt, the same index first; null when none. */
function memberEventIn(receipt: TransactionReceipt, t: Task, evidence: ChainEvidence): number | null {
  const config = taskConfigSchemas.event_emitted.parse(t.config);
  const event = taskEventOf(config);
  if ("error" in event) return null;
  const indexes = receipt.logs.flatMap((log) => {
    if (log.address.toLowerCase() !== config.contract.toLowerCase()) return [];
    try {
      const decoded = decodeEventLog({ abi: [event.item], data: log.data, topics: log.topics, strict: true });
      const args = decoded.args as unknown as Record<string, unknown>;
      const member = args[event.memberArg];
      if (typeof member !== "string" || member.toLowerCase() !== evidence.wallet.toLowerCase()) return [];
      const amount = event.minArg ? args[event.minArg.name] : null;
      if (event.minArg && !(typeof amount === "bigint" && amount >= event.minArg.min)) return [];
      return [log.logIndex];
    } catch {
      return [];
    }
  });
  if (indexes.length === 0) return null;
  return indexes.includes(evidence.logIndex ?? -1) ? evidence.logIndex! : indexes[0]!;
}

/** Adds `patch` to an approved completion's evidence while it still names the block it was judged on. */
async function patchEvidence(db: Db, completionId: string, judged: ChainEvidence, patch: Record<string, unknown>): Promise<boolean> {
  const updated = await db
    .update(completion)
    .set({ evidence: sql`${completion.evidence} || ${JSON.stringify(patch)}::jsonb` })
    .where(and(eq(completion.id, completionId), eq(completion.status, "approved"), sql`${completion.evidence}->>'blockHash' = ${judged.blockHash}`))
    .returning({ id: completion.id });
  return updated.length > 0;
}

/** Drops the event matches recorded in a block that left the chain. */
async function dropMatches(db: Db, { chainId, blockNumber, blockHash }: { chainId: number; blockNumber: number; blockHash: string }): Promise<number> {
  const dropped = await db
    .delete(onchainEventMatch)
    .where(and(eq(onchainEventMatch.chainId, chainId), eq(onchainEventMatch.blockNumber, blockNumber), eq(onchainEventMatch.blockHash, blockHash)))
    .returning({ taskId: onchainEventMatch.taskId });
  return dropped.length;
}
