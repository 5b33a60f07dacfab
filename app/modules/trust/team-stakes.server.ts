import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "~/lib/db.server";
import { boardKey } from "~/modules/leaderboards/leaderboards.server";
import { assetAmount, type Asset } from "~/modules/ledger/assets";
import { completersOf } from "~/modules/rewards/distribute.server";
import { DISTRIBUTION_LABELS, type Distribution } from "~/modules/rewards/pool-types";

/**
 * What a cluster's members are about to be paid in one project, for its team's cluster view
 * (team-trust.server.ts `clusterView`): a reading of now in words, not the payout itself.
 */

/** Each member's rank on a board (ties: who reached the score first), outside the project's team, for the members asked. */
async function ranksOn(db: Db, board: string, projectId: string, userIds: string[]) {
  const rows = rowsOf(
    await db.execute(sql`
      select user_id, score, rank from (
        select user_id, score, row_number() over (order by score desc, reached_at, user_id) as rank from leaderboard_entry
        where board = ${board} and user_id not in (select user_id from project_member where project_id = ${projectId})
      ) ranked where user_id in ${userIds}`),
  );
  return new Map(rows.map((r) => [String(r.user_id), { rank: Number(r.rank), score: Number(r.score) }]));
}

/**
 * What each member is about to be paid here, in words: where they stand in the open pools of the
 * project's campaigns (as completers, or by rank on the campaign's board) and in its airdrops
 * (points on a live one, an unclaimed share of a frozen one). A reading of now, not the payout.
 */
export async function stakesHere({
  db,
  projectId,
  userIds,
  now,
  decimalsOf,
}: {
  db: Db;
  projectId: string;
  userIds: string[];
  now: Date;
  decimalsOf: (asset: Asset) => number;
}) {
  const stakes = new Map<string, string[]>(userIds.map((id) => [id, []]));
  const say = (userId: string, words: string) => stakes.get(userId)?.push(words);
  const [pools, airdrops] = await Promise.all([
    db
      .execute(
        sql`
      select rp.id, rp.campaign_id, rp.kind, rp.asset, rp.distribution, rp.winners, rp.amount, rp.rank_amounts, c.name as campaign
      from reward_pool rp join campaign c on c.id = rp.campaign_id
      where c.project_id = ${projectId} and rp.status = 'open' order by c.ends_at, rp.created_at, rp.id limit 20`,
      )
      .then(rowsOf),
    db
      .execute(
        sql`
      select id, name, asset, status, claim_deadline from airdrop
      where project_id = ${projectId} and published_at is not null
        and (status = 'open' or (status = 'frozen' and claim_deadline > ${now.toISOString()}::timestamptz))
      order by ends_at, id limit 20`,
      )
      .then(rowsOf),
  ]);
  const amountOf = (units: bigint, kind: unknown, asset: unknown) =>
    kind === "token" && asset ? assetAmount(units, asset as Asset, decimalsOf(asset as Asset)) : `${units.toLocaleString("en")} XP`;
  const orders = new Map<string, Promise<string[]>>();
  for (const p of pools) {
    const campaignId = String(p.campaign_id);
    const pool = `${String(p.campaign)}'s ${DISTRIBUTION_LABELS[p.distribution as Distribution].title} pool`;
    const winners = p.winners == null ? null : Number(p.winners);
    if (p.distribution === "ranking") {
      const amounts = (p.rank_amounts as string[] | null) ?? [];
      const ranks = await ranksOn(db, boardKey({ kind: "campaign", campaignId }, "all"), projectId, userIds);
      for (const [userId, { rank }] of ranks) {
        const paid = rank <= (winners ?? 0) && amounts.length > 0;
        say(
          userId,
          paid
            ? `${pool}: rank ${rank} of the campaign's board, in the paid top ${winners} (${amountOf(BigInt(amounts[Math.min(rank, amounts.length) - 1]!), p.kind, p.asset)})`
            : `${pool}: rank ${rank} of the campaign's board, outside the paid top ${winners}`,
        );
      }
      continue;
    }
    if (!orders.has(campaignId))
      orders.set(
        campaignId,
        completersOf({ db, campaignId, asOf: now }).then((found) => found.map((c) => c.userId)),
      );
    const order = await orders.get(campaignId)!;
    const amount = BigInt(String(p.amount ?? 0));
    for (const userId of userIds) {
      const at = order.indexOf(userId);
      if (at < 0) continue;
      if (p.distribution === "fcfs")
        say(
          userId,
          at < winners!
            ? `${pool}: completer no. ${at + 1}, within the first ${winners} paid (${amountOf(amount, p.kind, p.asset)})`
            : `${pool}: completer no. ${at + 1}, past the first ${winners} paid`,
        );
      else if (p.distribution === "raffle")
        say(userId, `${pool}: one of ${order.length} entrants for ${winners} prizes of ${amountOf(amount, p.kind, p.asset)}`);
      else
        say(
          userId,
          order.length === 1
            ? `${pool}: the only completer so far, ${amountOf(amount, p.kind, p.asset)} to them alone`
            : `${pool}: shares ${amountOf(amount, p.kind, p.asset)} with ${order.length - 1} other ${order.length === 2 ? "completer" : "completers"}`,
        );
    }
  }
  for (const a of airdrops) {
    const airdrop = `Airdrop ${String(a.name)}`;
    if (a.status === "open") {
      const ranks = await ranksOn(db, boardKey({ kind: "airdrop", airdropId: String(a.id) }, "all"), projectId, userIds);
      for (const [userId, { rank, score }] of ranks) say(userId, `${airdrop} (live): ${score.toLocaleString("en")} points, rank ${rank}`);
      continue;
    }
    const shares = rowsOf(
      await db.execute(sql`
        select al.user_id, al.amount, al.rank from airdrop_allocation al
        where al.airdrop_id = ${String(a.id)} and al.user_id in ${userIds} and al.amount > 0
          and not exists (select 1 from airdrop_claim cl where cl.airdrop_id = al.airdrop_id and cl.leaf = al.leaf)`),
    );
    for (const s of shares)
      say(String(s.user_id), `${airdrop} (frozen, not claimed yet): rank ${Number(s.rank)}, ${amountOf(BigInt(String(s.amount)), "token", a.asset)} to claim`);
  }
  return stakes;
}
