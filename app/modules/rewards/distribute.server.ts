import { and, asc, eq, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { campaign } from "#db/schema/quests";
import { raffleEntrant, rewardGrant, rewardPool } from "#db/schema/rewards";
import { type Db, rowsOf } from "~/lib/db.server";
import type { Logger } from "~/lib/logger.server";
import { boardKey } from "~/modules/leaderboards/leaderboards.server";
import { emitEvent } from "~/modules/events/emit.server";
import { recheckFollowsBeforeRewards } from "~/modules/social/recheck.server";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import { recheckHoldingsBeforeRewards } from "~/modules/tasks/recheck-holdings.server";
import type { SocialConfig } from "~/modules/social/social-config.server";
import { countsOf, keptOutOf } from "~/modules/trust/exclusions.server";
import type { DrawChains } from "./draw-chains.server";
import type { PoolStatus } from "./pool-types";
import { drawRaffle } from "./draw-raffle";
import { newRaffleSeed } from "./draw-raffle.server";
import { entrantIdOf, processEntrantKey } from "./entrant-ids.server";
import { payGrants } from "./pay-grants.server";
import { entrantListHash, raffleSeed } from "./raffle-proof";
import type { RewardPool } from "./reward-pools.server";
import { poolTerms } from "./reward-pools.server";
import { rankAmount } from "./reward.schema";

/**
 * Paying reward pools when their campaign ends, in two steps. Planning, in one transaction that
 * locks the pool (skipping pools another process holds), writes who gets what — its grants — and
 * marks it `distributing`; paying (pay-grants.server.ts) then pays them a batch per transaction —
 * XP through `awardXp`, tokens from the pool's escrow to the winners' available balances, with
 * what is not paid back to the project's treasury — and marks it `paid`. A run killed while
 * planning rolls back whole; one killed while paying leaves the batches paid so far, and the next
 * run, here or in another process, pays the rest, each grant once.
 *
 * A raffle takes two runs: the first freezes its entrants and names a future block of its chain;
 * once that block has its confirmations, the next run seeds the draw with the block's hash, the
 * raffle's secret and the entrant list's hash (raffle-proof.ts) and pays it.
 *
 * Before any open pool of a campaign is paid or frozen, its follows are re-checked
 * (recheckFollowsBeforeRewards, decision 030) and its holdings read again on their chains
 * (recheckHoldingsBeforeRewards, decision 058): an approval voided there is no longer an approval,
 * and its XP is off the campaign's board, for every pool that follows.
 *
 * Whoever the project's team excluded (from the pool or the whole project), and whoever the
 * campaign's or the pool's eligibility gate no longer lets in, is left out when the pool is
 * planned (a raffle: when its entrants are frozen), and the pool keeps how many, by reason
 * (`excluded_counts`); a ranking pays the members after them. A gate that cannot be read now
 * (a node down) throws: the pool stays due and the next run reads again (keptOutOf).
 */

/** Grants written per statement when a pool is planned. */
const PLAN_ROWS = 5000;

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
 * The top `limit` of the campaign's all-time board outside the project's team and the members
 * `keep` keeps out, best first (ties: who reached the score first), read a page at a time until
 * `limit` are found; and those kept out above the last of them. Members who hide from public
 * boards still win what their rank earns.
 */
async function campaignTop({ db, campaignId, limit, keep }: { db: Db; campaignId: string; limit: number; keep: KeepOut }) {
  const top: { userId: string; score: number }[] = [];
  const kept = new Map<string, string>();
  const page = Math.max(limit * 2, 100);
  for (let offset = 0; top.length < limit; offset += page) {
    const result = await db.execute(sql`
      select user_id, score from leaderboard_entry
      where board = ${boardKey({ kind: "campaign", campaignId }, "all")} and user_id not in (${teamOf(campaignId)})
      order by score desc, reached_at, user_id
      limit ${page} offset ${offset}`);
    const rows = rowsOf(result).map((r) => ({ userId: String(r.user_id), score: Number(r.score) }));
    const out = await keep(rows.map((r) => r.userId));
    for (const row of rows) {
      if (top.length === limit) break;
      const words = out.get(row.userId);
      if (words) kept.set(row.userId, words);
      else top.push(row);
    }
    if (rows.length < page) break;
  }
  return { top, kept };
}

/** Who among these members the pool must not pay: userId → the reason in words (exclusions, gates). */
type KeepOut = (userIds: readonly string[]) => Promise<Map<string, string>>;

/** Completers the pool may pay, and those it keeps out. */
async function eligibleCompleters(db: Db, pool: RewardPool, asOf: Date, keep: KeepOut) {
  const completers = await completersOf({ db, campaignId: pool.campaignId, asOf });
  const kept = await keep(completers.map((c) => c.userId));
  return { eligible: completers.filter((c) => !kept.has(c.userId)), kept };
}

export type Grant = { userId: string; position: number; amount: bigint };

/**
 * Who a pool pays and how much, by its distribution. A raffle's winners are drawn by the caller;
 * a raffle saved before raffles had commitments (no secret) is drawn here from a fresh seed.
 */
async function grantsFor(
  db: Db,
  pool: RewardPool,
  asOf: Date,
  drawn: string[] | null,
  keep: KeepOut,
): Promise<{ grants: Grant[]; kept: Map<string, string> | null; entrants?: number }> {
  const terms = poolTerms(pool);
  switch (terms.distribution) {
    case "fcfs": {
      const { eligible, kept } = await eligibleCompleters(db, pool, asOf, keep);
      return { grants: eligible.slice(0, terms.winners!).map((c, i) => ({ userId: c.userId, position: i + 1, amount: terms.amount! })), kept };
    }
    case "raffle": {
      // A frozen raffle's entrants were sifted when they were frozen (its counts with them).
      const { winners, kept, entrants } = drawn
        ? { winners: drawn, kept: null, entrants: pool.entrantsCount ?? drawn.length }
        : await legacyDraw(db, pool, asOf, keep);
      return { grants: winners.map((userId, i) => ({ userId, position: i + 1, amount: terms.amount! })), kept, entrants };
    }
    case "ranking": {
      const { top, kept } = await campaignTop({ db, campaignId: pool.campaignId, limit: terms.winners!, keep });
      return { grants: top.map((t, i) => ({ userId: t.userId, position: i + 1, amount: rankAmount(terms.rankAmounts ?? [], i + 1) })), kept };
    }
    case "everyone": {
      // Equal shares. XP that does not divide evenly goes, one each, to the earliest finishers;
      // a token split's dust stays in escrow and goes back to the treasury.
      const { eligible, kept } = await eligibleCompleters(db, pool, asOf, keep);
      const n = BigInt(eligible.length);
      if (n === 0n) return { grants: [], kept };
      const share = terms.amount! / n;
      const extra = pool.kind === "xp" ? terms.amount! % n : 0n;
      const grants = eligible
        .map((c, i) => ({ userId: c.userId, position: i + 1, amount: share + (BigInt(i) < extra ? 1n : 0n) }))
        .filter((g) => g.amount > 0n);
      return { grants, kept };
    }
  }
}

async function legacyDraw(db: Db, pool: RewardPool, asOf: Date, keep: KeepOut) {
  const { eligible, kept } = await eligibleCompleters(db, pool, asOf, keep);
  const seed = pool.seed ?? newRaffleSeed();
  await db.update(rewardPool).set({ seed }).where(eq(rewardPool.id, pool.id));
  return { winners: drawRaffle({ seed, entrants: eligible.map((c) => c.userId), winners: pool.winners! }), kept, entrants: eligible.length };
}

type Due = { pool: RewardPool; projectId: string; campaignTitle: string };

/** No chain: a gate's holding rule reads as unknown, and its pool waits. */
const NO_CHAINS: OnchainChains = { get: () => undefined };

/**
 * A raffle's entrants frozen once its campaign has ended (in finishing order, the draw's order),
 * each with the id its proof lists (entrant-ids.server.ts), and the block that will seed it.
 */
async function freezeRaffle(tx: Db, { pool }: Due, chains: DrawChains, entrantKey: string, keep: KeepOut, now: Date) {
  const chain = chains.get(pool.drawChainId!);
  if (!chain) throw new Error(`No node for chain ${pool.drawChainId}: the raffle waits until one is configured`);
  const { eligible, kept } = await eligibleCompleters(tx, pool, now, keep);
  const entrants = eligible.map((c) => ({
    user_id: c.userId,
    entrant_id: entrantIdOf({ key: entrantKey, poolId: pool.id, userId: c.userId }),
  }));
  // The list travels as one JSON array (see insertGrants); its order is the draw's.
  await tx.execute(sql`
    insert into ${raffleEntrant} (pool_id, position, user_id, entrant_id)
    select ${pool.id}, e.position, e.row->>'user_id', e.row->>'entrant_id'
    from jsonb_array_elements(${JSON.stringify(entrants)}::jsonb) with ordinality as e(row, position)`);
  const drawBlock = (await chain.head()) + BigInt(chain.blocksAhead);
  const entrantsHash = entrantListHash(entrants.map((e) => e.entrant_id));
  await tx
    .update(rewardPool)
    .set({ status: "frozen", entrantsHash, entrantsCount: entrants.length, drawBlock: Number(drawBlock), excludedCounts: countsOf(kept), updatedAt: now })
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
    .select({ userId: raffleEntrant.userId, entrantId: raffleEntrant.entrantId })
    .from(raffleEntrant)
    .where(eq(raffleEntrant.poolId, pool.id))
    .orderBy(asc(raffleEntrant.position));
  const seed = raffleSeed({ secret: pool.secret as Hex, blockHash, entrantsHash: pool.entrantsHash as Hex });
  // Drawn on the ids the proof lists (a raffle frozen before entrants had their own: the member's id).
  const memberOf = new Map(rows.map((r) => [r.entrantId ?? r.userId, r.userId]));
  const drawn = drawRaffle({ seed, entrants: [...memberOf.keys()], winners: pool.winners! });
  return { winners: drawn.map((id) => memberOf.get(id)!), seed, blockHash };
}

/**
 * Writes a chunk of a pool's grants, unpaid, in one statement whose rows travel as one JSON
 * parameter: a row-per-parameter insert of thousands of grants spends more time building and
 * binding its parameters than the database spends writing them.
 */
async function insertGrants(tx: Db, poolId: string, grants: Grant[], now: Date) {
  const rows = JSON.stringify(grants.map((g) => ({ user_id: g.userId, position: g.position, amount: g.amount.toString() })));
  await tx.execute(sql`
    insert into ${rewardGrant} (pool_id, user_id, position, amount, created_at)
    select ${poolId}, g.user_id, g.position, g.amount, ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${rows}::jsonb) as g(user_id text, position integer, amount numeric)`);
}

/**
 * Plans a due pool, in one transaction that locks it (skipping pools another process holds):
 * freezes a raffle's entrants, or writes every grant (a raffle's once its block is there) and
 * marks the pool `distributing`, for payGrants to pay a batch per transaction. Null when there
 * was nothing to do.
 */
async function planPool({
  db,
  poolId,
  chains,
  entrantKey,
  onchain,
  now,
}: {
  db: Db;
  poolId: string;
  chains: DrawChains;
  entrantKey: string;
  onchain: OnchainChains;
  now: Date;
}) {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ pool: rewardPool, projectId: campaign.projectId, campaignTitle: campaign.name })
      .from(rewardPool)
      .innerJoin(campaign, eq(campaign.id, rewardPool.campaignId))
      .where(and(eq(rewardPool.id, poolId), inArray(rewardPool.status, ["open", "frozen"]), isNotNull(campaign.publishedAt), lte(campaign.endsAt, now)))
      .for("update", { of: rewardPool, skipLocked: true });
    if (!due) return null;
    const { pool } = due;
    const keep: KeepOut = (userIds) => keptOutOf({ db: tx, chains: onchain, target: { kind: "pool", poolId }, userIds, now });
    const raffle = pool.distribution === "raffle" && pool.secret ? pool : null;
    if (raffle && pool.status === "open") return freezeRaffle(tx, due, chains, entrantKey, keep, now);
    const draw = raffle ? await drawFrozenRaffle(tx, pool, chains) : null;
    if (raffle && !draw) return null;

    const { grants, kept, entrants } = await grantsFor(tx, pool, now, draw?.winners ?? null, keep);
    if (pool.distribution === "raffle") {
      await emitEvent(tx, {
        type: "raffle.drawn",
        key: `raffle.drawn:${pool.id}`,
        projectId: due.projectId,
        data: {
          poolId: pool.id,
          campaignId: pool.campaignId,
          campaignTitle: due.campaignTitle.slice(0, 300),
          winners: grants.length,
          entrants: entrants ?? grants.length,
        },
      });
    }
    for (let i = 0; i < grants.length; i += PLAN_ROWS) await insertGrants(tx, poolId, grants.slice(i, i + PLAN_ROWS), now);
    await tx
      .update(rewardPool)
      .set({
        status: "distributing",
        ...(draw ? { seed: draw.seed } : {}),
        ...(kept ? { excludedCounts: countsOf(kept) } : {}),
        drawBlockHash: draw?.blockHash ?? null,
        updatedAt: now,
      })
      .where(eq(rewardPool.id, poolId));
    return { planned: grants.length };
  });
}

/** Pays one pool (or freezes a raffle) if it is due: plans it, then pays its grants; or pays the rest of one an earlier run left `distributing`. */
async function payPool({
  db,
  poolId,
  status,
  ...plan
}: {
  db: Db;
  poolId: string;
  status: PoolStatus;
  chains: DrawChains;
  entrantKey: string;
  onchain: OnchainChains;
  now: Date;
}) {
  const { now } = plan;
  const planned = status === "distributing" ? null : await planPool({ db, poolId, ...plan });
  if (planned && "frozen" in planned) return planned;
  return payGrants({ db, poolId, now });
}

/** Pays the due pools of ended (published) campaigns, oldest end first; safe to run anywhere, any time. */
export async function distributeEndedCampaigns({
  db,
  chains = new Map(),
  entrantKey = processEntrantKey,
  social,
  onchain,
  log,
  fetchFn,
  now = new Date(),
  limit = 100,
  onPoolError = () => undefined,
}: {
  db: Db;
  /** The chains whose blocks seed raffles (a raffle whose chain is missing waits). */
  chains?: DrawChains;
  /** The server's key of raffle entrant ids (entrant-ids.server.ts); left out, this process's own. */
  entrantKey?: string;
  /** The social providers that re-check follows before a campaign's pools are paid; left out, nothing is re-checked. */
  social?: SocialConfig;
  /**
   * The chains holdings are read again on before a campaign's pools are paid, and eligibility
   * gates' holdings at payout; left out, no holding is re-checked (and a gate that needs a chain
   * cannot be read: its pool waits).
   */
  onchain?: OnchainChains;
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
    .where(
      or(
        // A pool being paid is finished whatever its campaign became meanwhile.
        eq(rewardPool.status, "distributing"),
        and(inArray(rewardPool.status, ["open", "frozen"]), isNotNull(campaign.publishedAt), lte(campaign.endsAt, now)),
      ),
    )
    .orderBy(sql`${rewardPool.status} = 'distributing' desc`, asc(campaign.endsAt), asc(rewardPool.createdAt))
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
  if (onchain) {
    for (const campaignId of new Set(due.filter((d) => d.status === "open" && !recheckFailed.has(d.campaignId)).map((d) => d.campaignId))) {
      try {
        // A node that cannot be reached throws: the campaign's pools wait for the next run, which reads on.
        const held = await recheckHoldingsBeforeRewards({ db, chains: onchain, scope: { campaignId }, now, log });
        if (held.voided > 0) log?.info({ campaignId, ...held }, "holdings re-checked before the rewards: approvals of holdings sold voided");
      } catch (error) {
        recheckFailed.set(campaignId, error);
      }
    }
  }
  for (const { id, campaignId, status } of due) {
    if (status !== "distributing" && recheckFailed.has(campaignId)) {
      failed += 1;
      onPoolError(id, recheckFailed.get(campaignId));
      continue;
    }
    try {
      const done = await payPool({ db, poolId: id, status, chains, entrantKey, onchain: onchain ?? NO_CHAINS, now });
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
