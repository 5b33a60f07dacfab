import { and, asc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { campaign } from "#db/schema/quests";
import { raffleEntrant, rewardGrant, rewardPool } from "#db/schema/rewards";
import { type Db, rowsOf } from "~/lib/db.server";
import type { Asset } from "~/modules/ledger/assets";
import { ledgerKey } from "~/modules/ledger/keys";
import { memberAvailable, move, poolEscrow, post, projectTreasury } from "~/modules/ledger/ledger.server";
import type { Logger } from "~/lib/logger.server";
import { awardXp, boardKey } from "~/modules/leaderboards/leaderboards.server";
import { recheckFollowsBeforeRewards } from "~/modules/social/recheck.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import type { DrawChains } from "./draw-chains.server";
import { drawRaffle } from "./draw-raffle";
import { newRaffleSeed } from "./draw-raffle.server";
import { entrantListHash, raffleSeed } from "./raffle-proof";
import type { RewardPool } from "./reward-pools.server";
import { poolTerms } from "./reward-pools.server";
import { rankAmount } from "./reward.schema";

/**
 * Paying reward pools when their campaign ends. Each pool is paid in one transaction that locks
 * it (skipping pools another process holds), writes its grants, pays them — XP through `awardXp`
 * (source `reward` + the pool's id: once per member, ever), tokens from the pool's escrow to the
 * winners' available balances, with what is not paid back to the project's treasury — and marks
 * it `paid`. A second run, here or in another process, finds nothing open to pay; a run killed
 * half-way rolls back whole.
 *
 * A raffle takes two runs: the first freezes its entrants and names a future block of its chain;
 * once that block has its confirmations, the next run seeds the draw with the block's hash, the
 * raffle's secret and the entrant list's hash (raffle-proof.ts) and pays it.
 *
 * Before any open pool of a campaign is paid or frozen, its follows are re-checked
 * (recheckFollowsBeforeRewards, decision 030): an approval voided there is no longer an approval,
 * and its XP is off the campaign's board, for every pool that follows.
 */

/** Grants paid per ledger entry: one entry moves escrow to this many winners. */
export const GRANTS_PER_ENTRY = 1000;

export type Completer = { userId: string; finishedAt: Date };

/** The campaign's project team: nobody pays themselves, so its members win none of its rewards. */
const teamOf = (campaignId: string) => sql`select pm.user_id from project_member pm join campaign c on c.project_id = pm.project_id where c.id = ${campaignId}`;

/**
 * Members outside the project's team who completed every published task of a campaign (each approved at least once), in the
 * order they finished: the time of their last first-approval, ties by member id. `asOf` counts
 * only approvals up to then, so a past draw can be replayed.
 */
export async function completersOf({ db, campaignId, asOf }: { db: Db; campaignId: string; asOf: Date }): Promise<Completer[]> {
  const at = asOf.toISOString();
  const result = await db.execute(sql`
    with tasks as (
      select id from task where campaign_id = ${campaignId} and published_at is not null and published_at <= ${at}::timestamptz
    ),
    team as (${teamOf(campaignId)}),
    firsts as (
      select c.user_id, min(coalesce(c.reviewed_at, c.created_at)) as approved_at
      from completion c join tasks t on t.id = c.task_id
      where c.status = 'approved' and coalesce(c.reviewed_at, c.created_at) <= ${at}::timestamptz
      group by c.user_id, c.task_id
    )
    select user_id, max(approved_at) as finished_at from firsts
    where user_id not in (select user_id from team)
    group by user_id
    having count(*) = (select count(*) from tasks)
    order by finished_at, user_id`);
  return rowsOf(result).map((r) => ({ userId: String(r.user_id), finishedAt: new Date(r.finished_at as string | Date) }));
}

/**
 * The top `limit` of the campaign's all-time board outside the project's team, best first (ties:
 * who reached the score first). Members who hide from public boards still win what their rank earns.
 */
async function campaignTop({ db, campaignId, limit }: { db: Db; campaignId: string; limit: number }) {
  const result = await db.execute(sql`
    select user_id, score from leaderboard_entry
    where board = ${boardKey({ kind: "campaign", campaignId }, "all")} and user_id not in (${teamOf(campaignId)})
    order by score desc, reached_at, user_id
    limit ${limit}`);
  return rowsOf(result).map((r) => ({ userId: String(r.user_id), score: Number(r.score) }));
}

export type Grant = { userId: string; position: number; amount: bigint };

/**
 * Who a pool pays and how much, by its distribution. A raffle's winners are drawn by the caller;
 * a raffle saved before raffles had commitments (no secret) is drawn here from a fresh seed.
 */
async function grantsFor(db: Db, pool: RewardPool, asOf: Date, drawn: string[] | null): Promise<Grant[]> {
  const terms = poolTerms(pool);
  switch (terms.distribution) {
    case "fcfs": {
      const completers = await completersOf({ db, campaignId: pool.campaignId, asOf });
      return completers.slice(0, terms.winners!).map((c, i) => ({ userId: c.userId, position: i + 1, amount: terms.amount! }));
    }
    case "raffle": {
      const winners = drawn ?? (await legacyDraw(db, pool, asOf));
      return winners.map((userId, i) => ({ userId, position: i + 1, amount: terms.amount! }));
    }
    case "ranking": {
      const top = await campaignTop({ db, campaignId: pool.campaignId, limit: terms.winners! });
      return top.map((t, i) => ({ userId: t.userId, position: i + 1, amount: rankAmount(terms.rankAmounts ?? [], i + 1) }));
    }
    case "everyone": {
      // Equal shares. XP that does not divide evenly goes, one each, to the earliest finishers;
      // a token split's dust stays in escrow and goes back to the treasury.
      const completers = await completersOf({ db, campaignId: pool.campaignId, asOf });
      const n = BigInt(completers.length);
      if (n === 0n) return [];
      const share = terms.amount! / n;
      const extra = pool.kind === "xp" ? terms.amount! % n : 0n;
      return completers.map((c, i) => ({ userId: c.userId, position: i + 1, amount: share + (BigInt(i) < extra ? 1n : 0n) })).filter((g) => g.amount > 0n);
    }
  }
}

async function legacyDraw(db: Db, pool: RewardPool, asOf: Date) {
  const entrants = (await completersOf({ db, campaignId: pool.campaignId, asOf })).map((c) => c.userId);
  const seed = pool.seed ?? newRaffleSeed();
  await db.update(rewardPool).set({ seed }).where(eq(rewardPool.id, pool.id));
  return drawRaffle({ seed, entrants, winners: pool.winners! });
}

type Due = { pool: RewardPool; projectId: string };

/** A raffle's entrants frozen once its campaign has ended (in finishing order, the draw's order), and the block that will seed it. */
async function freezeRaffle(tx: Db, { pool }: Due, chains: DrawChains, now: Date) {
  const chain = chains.get(pool.drawChainId!);
  if (!chain) throw new Error(`No node for chain ${pool.drawChainId}: the raffle waits until one is configured`);
  const entrants = (await completersOf({ db: tx, campaignId: pool.campaignId, asOf: now })).map((c) => c.userId);
  // The list travels as one JSON array (see insertGrants); its order is the draw's.
  await tx.execute(sql`
    insert into ${raffleEntrant} (pool_id, position, user_id)
    select ${pool.id}, e.position, e.user_id from jsonb_array_elements_text(${JSON.stringify(entrants)}::jsonb) with ordinality as e(user_id, position)`);
  const drawBlock = (await chain.head()) + BigInt(chain.blocksAhead);
  await tx
    .update(rewardPool)
    .set({ status: "frozen", entrantsHash: entrantListHash(entrants), entrantsCount: entrants.length, drawBlock: Number(drawBlock), updatedAt: now })
    .where(eq(rewardPool.id, pool.id));
  return { frozen: entrants.length };
}

/** A frozen raffle's winners, once its block has its confirmations; null while it waits. */
async function drawFrozenRaffle(tx: Db, pool: RewardPool, chains: DrawChains): Promise<{ winners: string[]; seed: Hex; blockHash: Hex } | null> {
  const chain = chains.get(pool.drawChainId!);
  if (!chain) throw new Error(`No node for chain ${pool.drawChainId}: the raffle waits until one is configured`);
  const needed = BigInt(pool.drawBlock!) + BigInt(chain.confirmations) - 1n;
  let head = await chain.head();
  if (head < needed && chain.mine) {
    while (head < needed) {
      await chain.mine();
      head += 1n;
    }
  }
  if (head < needed) return null;
  const blockHash = await chain.blockHash(BigInt(pool.drawBlock!));
  if (!blockHash) return null;
  const rows = await tx
    .select({ userId: raffleEntrant.userId })
    .from(raffleEntrant)
    .where(eq(raffleEntrant.poolId, pool.id))
    .orderBy(asc(raffleEntrant.position));
  const seed = raffleSeed({ secret: pool.secret as Hex, blockHash, entrantsHash: pool.entrantsHash as Hex });
  return { winners: drawRaffle({ seed, entrants: rows.map((r) => r.userId), winners: pool.winners! }), seed, blockHash };
}

/**
 * Writes a batch of a pool's grants in one statement whose rows travel as one JSON parameter:
 * a row-per-parameter insert of thousands of grants spends more time building and binding its
 * parameters than the database spends writing them.
 */
async function insertGrants(tx: Db, poolId: string, grants: Grant[], entryId: number | null, now: Date) {
  const rows = JSON.stringify(grants.map((g) => ({ user_id: g.userId, position: g.position, amount: g.amount.toString() })));
  await tx.execute(sql`
    insert into ${rewardGrant} (pool_id, user_id, position, amount, entry_id, created_at)
    select ${poolId}, g.user_id, g.position, g.amount, ${entryId}::bigint, ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${rows}::jsonb) as g(user_id text, position integer, amount numeric)`);
}

const byMember = (a: Grant, b: Grant) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/**
 * Pays a token pool's grants from its escrow and writes them, a batch of winners per entry, and
 * returns the rest to the treasury. Batches go in member order, so two processes paying pools
 * with the same winners lock their accounts in the same order and never deadlock.
 */
async function payTokens(tx: Db, { pool, projectId }: Due, grants: Grant[], now: Date) {
  const asset = pool.asset as Asset;
  const escrow = poolEscrow(pool.id);
  const ordered = [...grants].sort(byMember);
  let paid = 0n;
  for (let i = 0; i < ordered.length; i += GRANTS_PER_ENTRY) {
    const batch = ordered.slice(i, i + GRANTS_PER_ENTRY);
    const total = batch.reduce((sum, g) => sum + g.amount, 0n);
    const posted = await post({
      db: tx,
      key: ledgerKey.poolGrants(pool.id, i / GRANTS_PER_ENTRY),
      kind: "reward_paid",
      reference: pool.id,
      lines: [{ ...escrow, asset, amount: -total }, ...batch.map((g) => ({ ...memberAvailable(g.userId), asset, amount: g.amount }))],
    });
    await insertGrants(tx, pool.id, batch, posted.entryId, now);
    paid += total;
  }
  const returned = pool.escrowed - paid;
  if (returned > 0n) {
    await move({
      db: tx,
      key: ledgerKey.poolReturn(pool.id),
      kind: "reward_returned",
      reference: pool.id,
      asset,
      amount: returned,
      from: escrow,
      to: projectTreasury(projectId),
    });
  }
  return returned;
}

/** Pays one pool (or freezes a raffle) if its campaign has ended and it is due; null when there was nothing to do. */
async function payPool({ db, poolId, chains, now }: { db: Db; poolId: string; chains: DrawChains; now: Date }) {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ pool: rewardPool, projectId: campaign.projectId })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(and(eq(rewardPool.id, poolId), inArray(rewardPool.status, ["open", "frozen"]), isNotNull(campaign.publishedAt), lte(campaign.endsAt, now)))
      .for("update", { of: rewardPool, skipLocked: true });
    if (!due) return null;
    const { pool } = due;
    const db = tx;
    const raffle = pool.distribution === "raffle" && pool.secret ? pool : null;
    if (raffle && pool.status === "open") return freezeRaffle(db, due, chains, now);
    const draw = raffle ? await drawFrozenRaffle(db, pool, chains) : null;
    if (raffle && !draw) return null;

    const grants = await grantsFor(db, pool, now, draw?.winners ?? null);
    let returned = 0n;
    if (pool.kind === "token") {
      returned = await payTokens(db, due, grants, now);
    } else {
      for (let i = 0; i < grants.length; i += GRANTS_PER_ENTRY) await insertGrants(db, poolId, grants.slice(i, i + GRANTS_PER_ENTRY), null, now);
      // Always in member order, so two processes paying pools with the same members never deadlock.
      for (const g of [...grants].sort(byMember)) {
        // Reward XP counts on the global and project boards, not the campaign's: a ranking stays as it ended.
        await awardXp({
          db,
          award: { userId: g.userId, projectId: due.projectId, campaignId: null, sourceType: "reward", sourceId: poolId, amount: Number(g.amount), at: now },
        });
      }
    }
    await tx
      .update(rewardPool)
      .set({ status: "paid", ...(draw ? { seed: draw.seed } : {}), drawBlockHash: draw?.blockHash ?? null, returned, paidAt: now, updatedAt: now })
      .where(eq(rewardPool.id, poolId));
    return { poolId, grants: grants.length, paid: grants.reduce((sum, g) => sum + g.amount, 0n) };
  });
}

/** Pays the due pools of ended (published) campaigns, oldest end first; safe to run anywhere, any time. */
export async function distributeEndedCampaigns({
  db,
  chains = new Map(),
  social,
  log,
  fetchFn,
  now = new Date(),
  limit = 100,
  onPoolError = () => undefined,
}: {
  db: Db;
  /** The chains whose blocks seed raffles (a raffle whose chain is missing waits). */
  chains?: DrawChains;
  /** The social providers that re-check follows before a campaign's pools are paid; left out, nothing is re-checked. */
  social?: SocialConfig;
  log?: Pick<Logger, "warn" | "info">;
  /** Injected by tests of the re-check; the global fetch otherwise. */
  fetchFn?: typeof fetch;
  now?: Date;
  limit?: number;
  /** A pool that fails (a deadlock, the database gone) stays due for the next run; the others are still paid. */
  onPoolError?: (poolId: string, error: unknown) => void;
}) {
  const due = await db
    .select({ id: rewardPool.id, campaignId: rewardPool.campaignId, status: rewardPool.status })
    .from(rewardPool)
    .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
    .where(and(inArray(rewardPool.status, ["open", "frozen"]), isNotNull(campaign.publishedAt), lte(campaign.endsAt, now)))
    .orderBy(asc(campaign.endsAt), asc(rewardPool.createdAt))
    .limit(limit);
  let pools = 0;
  let grants = 0;
  let frozen = 0;
  let failed = 0;
  // Follows first, campaign by campaign, outside any pool's transaction (they call the providers).
  // A frozen raffle's campaign was re-checked in the run that froze it. A re-check that fails
  // leaves the campaign's pools due for the next run.
  const recheckFailed = new Map<string, unknown>();
  if (social) {
    for (const campaignId of new Set(due.filter((d) => d.status === "open").map((d) => d.campaignId))) {
      try {
        const rechecked = await recheckFollowsBeforeRewards({ db, social, campaignId, now, log, ...(fetchFn ? { fetchFn } : {}) });
        if (rechecked.voided > 0) log?.info({ campaignId, ...rechecked }, "follows re-checked before the rewards: approvals of un-follows voided");
      } catch (error) {
        recheckFailed.set(campaignId, error);
      }
    }
  }
  for (const { id, campaignId } of due) {
    if (recheckFailed.has(campaignId)) {
      failed += 1;
      onPoolError(id, recheckFailed.get(campaignId));
      continue;
    }
    try {
      const done = await payPool({ db, poolId: id, chains, now });
      if (done && "frozen" in done) frozen += 1;
      else if (done) {
        pools += 1;
        grants += done.grants;
      }
    } catch (error) {
      failed += 1;
      onPoolError(id, error);
    }
  }
  return { pools, grants, frozen, failed };
}
