import { and, asc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { formatUnits, getAddress, type Address } from "viem";
import { completion, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { ChainUnreachable } from "~/modules/chain/node-errors.server";
import { readNftCount, readTokenBalance } from "~/modules/chain/onchain-reads.server";
import { NATIVE_SYMBOLS } from "~/wallet/chains";
import type { OnchainChains, Task } from "./completions.server";
import { taskConfigSchemas } from "./task.schema";
import { HOLDING_TYPES } from "./task-checks";
import { voidApproval } from "./void-approval.server";

/**
 * Holdings read again once before a campaign's pools pay or an airdrop freezes (issue #37,
 * decision 058), as follows are (decision 030). Every approved completion of the campaign's or
 * airdrop's `hold_token` (read at the latest block, not at a snapshot block) and `nft_hold` tasks
 * that asks for it (`recheckBeforeRewards`) and was not re-checked yet is read again across the
 * member's linked wallets, through the chain's job client:
 *  - still held (one of the wallets holds the task's minimum, as the member's check asked): `evidence.recheckedAt`;
 *  - not any more: the approval is voided (voidApproval: rejected with the reason below, its XP and
 *    airdrop points taken back, its place freed), with `recheckedAt` and `voidedAt`;
 *  - the node could not be reached: ChainUnreachable is thrown after what was read so far is kept.
 *    Unlike a follow's provider, a holding decides money and the chain will answer again: the
 *    campaign's pools (the airdrop's freeze) wait for the next run, which reads on;
 *  - a read the chain answered with an error (a contract that no longer answers `balanceOf`): the
 *    approval stands, marked `recheck: "skipped"` with the reason, logged once per run;
 *  - a task whose chain this server does not reach (not configured) is left alone.
 * Each completion is re-checked at most once, and no node is called inside a database transaction.
 */

export type HoldingsRecheck = { checked: number; kept: number; voided: number; skipped: number };

/** What the re-check is for: a campaign's pools, or an airdrop's freeze. */
export type RecheckScope = { campaignId: string } | { airdropId: string };

/** Completions read per query while a task's re-check walks through them. */
const PAGE = 100;

/** Not re-checked yet: its evidence has no `recheckedAt` (a completion without evidence neither). */
const notRechecked = sql`coalesce(${completion.evidence}->>'recheckedAt', '') = ''`;

/** What a holding task asks for, in words and as a reader of one wallet. */
type Holding = { chainId: number; needed: bigint; what: string; read: (client: OnchainClient, owner: Address) => Promise<bigint> };
type OnchainClient = NonNullable<ReturnType<OnchainChains["get"]>>["client"];

/** The holding a task asks for, or null when it is not re-checked (a snapshot block, turned off, or settings that cannot be read). */
export function holdingOf(t: Pick<Task, "type" | "config">): Holding | null {
  if (t.type === "hold_token") {
    const config = taskConfigSchemas.hold_token.safeParse(t.config).data;
    if (!config || !config.recheckBeforeRewards || config.snapshotBlock !== null) return null;
    const token = config.tokenAddress ? getAddress(config.tokenAddress) : null;
    const symbol = config.symbol || (token ? "tokens" : (NATIVE_SYMBOLS[config.chainId] ?? "ETH"));
    return {
      chainId: config.chainId,
      needed: BigInt(config.minBalance),
      what: `${formatUnits(BigInt(config.minBalance), token ? config.decimals : 18)} ${symbol}`,
      read: (client, owner) => readTokenBalance({ client, token, owner }),
    };
  }
  if (t.type === "nft_hold") {
    const config = taskConfigSchemas.nft_hold.safeParse(t.config).data;
    if (!config || !config.recheckBeforeRewards) return null;
    const tokenIds = config.tokenIds.map(BigInt);
    return {
      chainId: config.chainId,
      needed: BigInt(config.minCount),
      what: `${config.minCount} ${config.name || (config.minCount === 1 ? "NFT" : "NFTs")}`,
      read: (client, owner) => readNftCount({ client, standard: config.standard, contract: getAddress(config.contract), owner, tokenIds }),
    };
  }
  return null;
}

/** Why the member's approval no longer counts, as the task page shows it. */
export function holdingVoidReason(what: string, network: string, scope: RecheckScope) {
  const when = "campaignId" in scope ? "when the rewards were paid" : "when the airdrop was frozen";
  return `You no longer held ${what} on ${network} ${when}, so this task no longer counts.`;
}

/** Adds `patch` to a completion's evidence, if it is still approved and not re-checked yet. */
async function mark(db: Db, completionId: string, patch: Record<string, unknown>) {
  await db
    .update(completion)
    .set({ evidence: sql`coalesce(${completion.evidence}, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb` })
    .where(and(eq(completion.id, completionId), eq(completion.status, "approved"), notRechecked));
}

export async function recheckHoldingsBeforeRewards({
  db,
  chains,
  scope,
  now = new Date(),
  log,
}: {
  db: Db;
  chains: OnchainChains;
  scope: RecheckScope;
  now?: Date;
  log?: Pick<Logger, "warn">;
}): Promise<HoldingsRecheck> {
  const summary: HoldingsRecheck = { checked: 0, kept: 0, voided: 0, skipped: 0 };
  const skippedWhy = new Set<string>();
  const within: SQL = "campaignId" in scope ? eq(task.campaignId, scope.campaignId) : eq(task.airdropId, scope.airdropId);
  const tasks = await db
    .select()
    .from(task)
    .where(and(within, inArray(task.type, [...HOLDING_TYPES])))
    .orderBy(asc(task.id));
  const at = now.toISOString();
  for (const t of tasks) {
    const holding = holdingOf(t);
    if (!holding) continue;
    const chain = chains.get(holding.chainId);
    if (!chain) {
      log?.warn({ taskId: t.id, chainId: holding.chainId }, "a holding task's chain is not configured here: its approvals are not re-checked");
      continue;
    }
    let after = "";
    for (;;) {
      const page = await db
        .select({ id: completion.id, userId: completion.userId })
        .from(completion)
        .where(and(eq(completion.taskId, t.id), eq(completion.status, "approved"), notRechecked, gt(completion.id, after)))
        .orderBy(asc(completion.id))
        .limit(PAGE);
      for (const c of page) {
        summary.checked += 1;
        const wallets = await db
          .selectDistinct({ address: sql<string>`lower(${walletAddress.address})` })
          .from(walletAddress)
          .where(eq(walletAddress.userId, c.userId));
        // The most one wallet holds: the member's check asked one wallet for the minimum, and so does this.
        let held = 0n;
        try {
          for (const w of wallets) {
            const amount = await holding.read(chain.client, getAddress(w.address));
            if (amount > held) held = amount;
            if (held >= holding.needed) break;
          }
        } catch (error) {
          // The chain will answer again: this run stops here, and the pools wait for the next.
          if (error instanceof ChainUnreachable) throw error;
          const reason = "The chain answered the holding's read with an error.";
          log?.warn({ err: error, taskId: t.id, completionId: c.id }, "a holding's re-check failed");
          await mark(db, c.id, { recheckedAt: at, recheck: "skipped", recheckReason: reason });
          summary.skipped += 1;
          skippedWhy.add(reason);
          continue;
        }
        if (held >= holding.needed) {
          await mark(db, c.id, { recheckedAt: at, recheck: "held", recheckHeld: held.toString() });
          summary.kept += 1;
          continue;
        }
        const outcome = await voidApproval({
          db,
          completionId: c.id,
          reason: holdingVoidReason(holding.what, chain.name, scope),
          evidence: { recheckedAt: at, recheck: "not_held", recheckHeld: held.toString(), voidedAt: at },
          // Another process may have re-checked it meanwhile: once only.
          onlyIf: (row) => !(row.evidence as { recheckedAt?: string } | null)?.recheckedAt,
          now,
        });
        if (outcome.voided) summary.voided += 1;
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  if (summary.skipped > 0) {
    log?.warn(
      { ...scope, skipped: summary.skipped, reasons: [...skippedWhy] },
      "some holdings could not be re-checked before the rewards: their approvals stand",
    );
  }
  return summary;
}
