import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { campaign } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { type Db, rowsOf } from "~/lib/db.server";
import type { Asset } from "~/modules/ledger/assets";
import { ledgerKey } from "~/modules/ledger/keys";
import { memberAvailable, move, poolEscrow, post, projectTreasury } from "~/modules/ledger/ledger.server";
import { awardXp, xpChangedEvent } from "~/modules/leaderboards/leaderboards.server";
import { emitEvents } from "~/modules/events/emit.server";
import type { NewEvent } from "~/modules/events/event-types";

/**
 * Paying a `distributing` pool's grants, written in full when it was planned (distribute.server.ts),
 * one batch per transaction: a payout of any size never holds the database longer than a batch, and
 * a run that dies between batches leaves the paid ones paid and the rest for the next run.
 *
 * A batch is the next GRANTS_PER_ENTRY unpaid grants in member order (so two processes paying
 * pools with the same winners lock their accounts in the same order and never deadlock), taken
 * under the pool's row lock. A token batch is one ledger entry from the pool's escrow to its
 * winners, keyed by the pool and the batch's first member, and the entry's id on its grants: an
 * unpaid grant is one without an entry. An XP batch awards each grant through `awardXp` (source
 * `reward` + the pool's id: once per member, ever): an unpaid grant is one without that award.
 * The run that finds no unpaid grant left returns the rest of the escrow to the treasury and marks
 * the pool `paid`.
 */

/** Grants paid per batch: one transaction, and for a token pool one ledger entry, pays this many winners. */
export const GRANTS_PER_ENTRY = 1000;

type Unpaid = { userId: string; position: number; amount: bigint };

/** The next unpaid grants of a pool after `after` (a member id), in member order. */
async function nextUnpaid(tx: Db, pool: { id: string; kind: string }, after: string | null): Promise<Unpaid[]> {
  const from = after === null ? undefined : gt(rewardGrant.userId, after);
  if (pool.kind === "token") {
    return tx
      .select({ userId: rewardGrant.userId, position: rewardGrant.position, amount: rewardGrant.amount })
      .from(rewardGrant)
      .where(and(eq(rewardGrant.poolId, pool.id), isNull(rewardGrant.entryId), from))
      .orderBy(asc(rewardGrant.userId))
      .limit(GRANTS_PER_ENTRY);
  }
  const awarded = sql`exists (select 1 from xp_event e where e.source_type = 'reward' and e.source_id = ${pool.id} and e.user_id = ${rewardGrant.userId})`;
  return tx
    .select({ userId: rewardGrant.userId, position: rewardGrant.position, amount: rewardGrant.amount })
    .from(rewardGrant)
    .where(and(eq(rewardGrant.poolId, pool.id), sql`not ${awarded}`, from))
    .orderBy(asc(rewardGrant.userId))
    .limit(GRANTS_PER_ENTRY);
}

/** Pays one batch of a token pool: one entry from its escrow to the batch's winners, its id on their grants. */
async function payTokenBatch(tx: Db, pool: { id: string; asset: string | null }, batch: Unpaid[]) {
  const asset = pool.asset as Asset;
  const total = batch.reduce((sum, g) => sum + g.amount, 0n);
  const posted = await post({
    db: tx,
    key: ledgerKey.poolGrants(pool.id, batch[0]!.userId),
    kind: "reward_paid",
    reference: pool.id,
    lines: [{ ...poolEscrow(pool.id), asset, amount: -total }, ...batch.map((g) => ({ ...memberAvailable(g.userId), asset, amount: g.amount }))],
  });
  // A batch's first member is unpaid, so no earlier batch has its key: an existing entry means the grants moved under us.
  if (!posted.created) throw new Error(`Grant batch ${ledgerKey.poolGrants(pool.id, batch[0]!.userId)} was posted already`);
  // The batch is every unpaid grant from its first member to its last (taken in member order under the pool's lock): one index range.
  await tx.execute(sql`
    update ${rewardGrant} set entry_id = ${posted.entryId}
    where pool_id = ${pool.id} and user_id between ${batch[0]!.userId} and ${batch.at(-1)!.userId} and entry_id is null`);
}

/**
 * A batch's events, in the one statement `emitEvents` makes of them: `reward.paid` per grant paid
 * (once per pool and member, by its key) and, for XP, the award's `xp.changed` (the awards were
 * made with `emit: false` so that a batch of a thousand is one insert, not a thousand).
 */
function paidEvents(
  { pool, projectId, campaignTitle }: { pool: typeof rewardPool.$inferSelect; projectId: string; campaignTitle: string },
  paid: Unpaid[],
): NewEvent[] {
  return paid.flatMap((g): NewEvent[] => {
    const rewardPaid: NewEvent<"reward.paid"> = {
      type: "reward.paid",
      key: `reward.paid:${pool.id}:${g.userId}`,
      projectId,
      data: {
        poolId: pool.id,
        campaignId: pool.campaignId,
        campaignTitle: campaignTitle.slice(0, 300),
        userId: g.userId,
        kind: pool.kind,
        amount: g.amount.toString(),
        asset: pool.asset,
        distribution: pool.distribution,
        rank: pool.distribution === "ranking" ? g.position : null,
      },
    };
    if (pool.kind !== "xp") return [rewardPaid];
    return [rewardPaid, xpChangedEvent({ userId: g.userId, projectId, sourceType: "reward", sourceId: pool.id, delta: Number(g.amount) })];
  });
}

/** The end of a payout: what the grants did not take back to the treasury (token pools), and the pool `paid`. */
async function finishPool(tx: Db, pool: typeof rewardPool.$inferSelect, projectId: string, now: Date) {
  const [totals] = rowsOf(
    await tx.execute(sql`select count(*)::int as grants, coalesce(sum(amount), 0)::text as paid from ${rewardGrant} where pool_id = ${pool.id}`),
  );
  const grants = Number(totals!.grants);
  const paid = BigInt(String(totals!.paid));
  let returned = 0n;
  if (pool.kind === "token" && pool.escrowed - paid > 0n) {
    returned = pool.escrowed - paid;
    await move({
      db: tx,
      key: ledgerKey.poolReturn(pool.id),
      kind: "reward_returned",
      reference: pool.id,
      asset: pool.asset as Asset,
      amount: returned,
      from: poolEscrow(pool.id),
      to: projectTreasury(projectId),
    });
  }
  await tx.update(rewardPool).set({ status: "paid", returned, paidAt: now, updatedAt: now }).where(eq(rewardPool.id, pool.id));
  return { poolId: pool.id, grants, paid };
}

export type BatchResult =
  /** Another process holds the pool, or it is not distributing (paid already). */
  { done: "skipped" } | { done: "batch"; last: string; paid: number } | { done: "paid"; poolId: string; grants: number; paid: bigint };

/**
 * Pays the next batch of a `distributing` pool after member `after` (the last member this run
 * paid; null to start from the first unpaid), in one transaction; or finishes the pool when none
 * is left.
 */
export async function payGrantBatch({ db, poolId, after, now }: { db: Db; poolId: string; after: string | null; now: Date }): Promise<BatchResult> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ pool: rewardPool, projectId: campaign.projectId, campaignTitle: campaign.name })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(and(eq(rewardPool.id, poolId), eq(rewardPool.status, "distributing")))
      .for("update", { of: rewardPool, skipLocked: true });
    if (!due) return { done: "skipped" };
    const { pool, projectId, campaignTitle } = due;
    // A batch after `after` may find nothing although earlier members are unpaid (another run paid
    // past this one's place); the first unpaid are then looked for from the start.
    let batch = await nextUnpaid(tx, pool, after);
    if (batch.length === 0 && after !== null) batch = await nextUnpaid(tx, pool, null);
    if (batch.length === 0) return { done: "paid", ...(await finishPool(tx, pool, projectId, now)) };
    let paid = batch;
    if (pool.kind === "token") await payTokenBatch(tx, pool, batch);
    else {
      paid = [];
      for (const g of batch) {
        // Reward XP counts on the global and project boards, not the campaign's: a ranking stays as it ended.
        const award = { userId: g.userId, projectId, campaignId: null, sourceType: "reward", sourceId: poolId, amount: Number(g.amount), at: now };
        if (await awardXp({ db: tx, award, emit: false })) paid.push(g);
      }
    }
    await emitEvents(tx, paidEvents({ pool, projectId, campaignTitle }, paid));
    return { done: "batch", last: batch.at(-1)!.userId, paid: batch.length };
  });
}

/** Pays a `distributing` pool batch by batch until it is paid (or another process holds it); the finished pool's totals, or null. */
export async function payGrants({ db, poolId, now }: { db: Db; poolId: string; now: Date }) {
  let after: string | null = null;
  for (;;) {
    const result = await payGrantBatch({ db, poolId, after, now });
    if (result.done === "skipped") return null;
    if (result.done === "paid") return result;
    after = result.last;
  }
}
