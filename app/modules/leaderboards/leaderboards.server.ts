import { sql, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import { type Db, preparedPerDb, rowsOf } from "~/lib/db.server";
import { emitEvent } from "~/modules/events/emit.server";
import type { NewEvent } from "~/modules/events/event-types";

/**
 * XP awards and exact leaderboards.
 *
 * Each board keeps one row per member (`leaderboard_entry`) and a histogram of how many visible
 * members hold each score (`leaderboard_histogram`). A member's rank is one plus the members
 * above them: the histogram's sum over higher scores, plus those with the same score who reached
 * it earlier. Both are kept exact inside the award's transaction (SQL functions in
 * db/migrations/0003_xp_functions.sql; the award's current version in 0007_award_xp_set_based.sql,
 * its revoke in 0015_revoke_xp.sql), so a rank costs a short index range, not a count over the whole board.
 */

export const WINDOWS = ["all", "30d", "7d"] as const;
export type BoardWindow = (typeof WINDOWS)[number];
export type BoardScope =
  { kind: "global" } | { kind: "project"; projectId: string } | { kind: "campaign"; campaignId: string } | { kind: "airdrop"; airdropId: string };

export function boardKey(scope: BoardScope, window: BoardWindow): string {
  switch (scope.kind) {
    case "global":
      return `global|${window}`;
    case "project":
      return `p:${scope.projectId}|${window}`;
    case "campaign":
      return `c:${scope.campaignId}|${window}`;
    case "airdrop":
      return `a:${scope.airdropId}|${window}`;
  }
}

export type Award = {
  userId: string;
  projectId: string | null;
  campaignId?: string | null;
  /** What earned it, e.g. `completion` and the completion's id: one award per source and member. */
  sourceType: string;
  sourceId: string;
  amount: number;
  at?: Date;
};

const p = (name: string) => sql.placeholder(name);

/**
 * The award (db/functions/questline_award_xp.sql, which bumps each board through
 * questline_bump_score.sql) as a named prepared statement: PostgreSQL parses and plans it once per
 * connection, and each award only binds its values.
 */
const awardStatement = preparedPerDb((db) =>
  db
    .select({
      awarded: sql<boolean>`questline_award_xp(${p("userId")}, ${p("projectId")}, ${p("campaignId")}, ${p("sourceType")}, ${p("sourceId")}, ${p("amount")}, ${p("at")}::timestamptz)`,
    })
    .from(sql`(select) as award`)
    .prepare("questline_award_xp"),
);

/**
 * The `xp.changed` event of an award (`delta` > 0) or of its take-back (< 0), once per source and
 * member: XP that counts in a project (an award without one is nobody's webhook).
 */
export function xpChangedEvent({
  userId,
  projectId,
  sourceType,
  sourceId,
  delta,
}: {
  userId: string;
  projectId: string;
  sourceType: string;
  sourceId: string;
  delta: number;
}): NewEvent<"xp.changed"> {
  const source = `${sourceType}${delta < 0 ? "_void" : ""}:${sourceId}`;
  return { type: "xp.changed", key: `xp.changed:${source}:${userId}`, projectId, data: { userId, delta, source: source.slice(0, 300) } };
}

/**
 * Awards XP once per source and member; returns false when this source already paid. An award in
 * a project records its `xp.changed` event in the same transaction, unless the caller records the
 * events of many awards in one statement itself (`emit: false`, a payout's batch).
 */
export async function awardXp({ db, award, emit = true }: { db: Db; award: Award; emit?: boolean }): Promise<boolean> {
  if (!Number.isInteger(award.amount) || award.amount <= 0) throw new RangeError("XP awards are positive whole numbers");
  const [row] = await awardStatement(db).execute({
    userId: award.userId,
    projectId: award.projectId,
    campaignId: award.campaignId ?? null,
    sourceType: award.sourceType,
    sourceId: award.sourceId,
    amount: award.amount,
    at: (award.at ?? new Date()).toISOString(),
  });
  const awarded = row?.awarded === true;
  if (awarded && emit && award.projectId) {
    await emitEvent(db, xpChangedEvent({ ...award, projectId: award.projectId, delta: award.amount }));
  }
  return awarded;
}

/**
 * Takes back one award of a member, exactly once (db/functions/questline_revoke_xp.sql): a
 * negative `<sourceType>_void` event dated like the award, and every board the award still counts
 * on lowered by its amount (windowed boards only while the award's day is in their window), the
 * histograms kept exact. Returns the XP taken back: 0 when the source paid this member nothing or
 * was taken back already. Crusade bonuses and reward XP paid because of the award are not touched.
 */
export async function revokeXp({ db, userId, sourceType, sourceId }: { db: Db; userId: string; sourceType: string; sourceId: string }): Promise<number> {
  const result = await db.execute(sql`select questline_revoke_xp(${userId}, ${sourceType}, ${sourceId}) as revoked`);
  const revoked = Number(rowsOf(result)[0]?.revoked ?? 0);
  if (revoked > 0) {
    // The project the award counted in, from the take-back's own event (the function reads it the same way).
    const [award] = rowsOf(
      await db.execute(sql`select project_id from xp_event where source_type = ${`${sourceType}_void`} and source_id = ${sourceId} and user_id = ${userId}`),
    );
    const projectId = award?.project_id == null ? null : String(award.project_id);
    if (projectId) await emitEvent(db, xpChangedEvent({ userId, projectId, sourceType, sourceId, delta: -revoked }));
  }
  return revoked;
}

export type BoardRow = { rank: number; userId: string; score: number; name: string; username: string | null; image: string | null };

/** One page of a board, best first, with exact ranks. Opted-out members are not listed. */
export async function boardPage({ db, board, limit = 100, offset = 0 }: { db: Db; board: string; limit?: number; offset?: number }) {
  const rows = await boardPageStatement(db).execute({ board, limit, offset });
  return rows.map((r, i): BoardRow => ({ rank: offset + i + 1, userId: r.userId, score: Number(r.score), name: r.name, username: r.username, image: r.image }));
}

/**
 * A board's page as a named prepared statement (read by every leaderboard): planned once per
 * connection. The page is cut from the rank index first; only its rows meet the member tables.
 */
const boardPageStatement = preparedPerDb((db) =>
  db
    .select({
      userId: sql<string>`page.user_id`,
      score: sql<string | number>`page.score`,
      name: sql<string>`coalesce(pref.display_name, nullif(u.name, ''), u.username, 'Member')`,
      username: sql<string | null>`u.username`,
      image: sql<string | null>`u.image`,
    })
    .from(
      sql`(select user_id, score, reached_at from leaderboard_entry
           where board = ${p("board")} and visible
           order by score desc, reached_at, user_id
           limit ${p("limit")} offset ${p("offset")}) page
         join "user" u on u.id = page.user_id
         left join leaderboard_preference pref on pref.user_id = page.user_id`,
    )
    .orderBy(sql`page.score desc, page.reached_at, page.user_id`)
    .prepare("questline_board_page"),
);

/**
 * A member's exact rank on a board among the visible members, or null when they have no XP there.
 * An opted-out member still learns the rank they would have.
 */
export async function rankOf({ db, board, userId }: { db: Db; board: string; userId: string }) {
  const [row] = await rankStatement(db).execute({ board, userId });
  return row ? { rank: Number(row.rank), score: Number(row.score) } : null;
}

/** The member's ranks on the global boards, by window (those they have XP on), in one statement. */
export async function globalRanksOf({ db, userId }: { db: Db; userId: string }) {
  const byBoard = new Map((await globalRankStatement(db).execute({ userId })).map((row) => [row.board, row]));
  const ranks = new Map<BoardWindow, { rank: number; score: number }>();
  for (const window of WINDOWS) {
    const row = byBoard.get(boardKey(GLOBAL, window));
    if (row) ranks.set(window, { rank: Number(row.rank), score: Number(row.score) });
  }
  return ranks;
}

const GLOBAL: BoardScope = { kind: "global" };

/** The member's row on the boards `where` picks, with its exact rank. */
const ranksWhere = (db: Db, where: SQL) =>
  db
    .select({
      board: sql<string>`me.board`,
      score: sql<string | number>`me.score`,
      rank: sql<string | number>`1 + coalesce((select sum(h.members) from leaderboard_histogram h where h.board = me.board and h.score > me.score), 0)
        + (select count(*) from leaderboard_entry e
           where e.board = me.board and e.visible and e.score = me.score
             and (e.reached_at, e.user_id) < (me.reached_at, me.user_id))`,
    })
    .from(sql`leaderboard_entry me`)
    .where(where);

/** The rank on one board as a named prepared statement, like the award: planned once per connection. */
const rankStatement = preparedPerDb((db) => ranksWhere(db, sql`me.board = ${p("board")} and me.user_id = ${p("userId")}`).prepare("questline_rank_of"));

/**
 * The global boards' ranks, one lookup of the member on each board: PostgreSQL knows each finds at
 * most one row and plans the statement once per connection. A list of boards (`board = any($1)` or
 * `board in (…)`) looked costlier in a plan for any member than in one for the member at hand, so
 * it planned the statement anew on every run (0.15 ms, twice the run itself).
 */
const globalRankStatement = preparedPerDb((db) => {
  const [all, month, week] = WINDOWS.map((window) => ranksWhere(db, sql`me.board = ${boardKey(GLOBAL, window)} and me.user_id = ${p("userId")}`));
  return unionAll(all!, month!, week!).prepare("questline_global_ranks_of");
});

/** The naive rank, counting every member above: the baseline the benchmark compares against. */
export async function naiveRankOf({ db, board, userId }: { db: Db; board: string; userId: string }) {
  const result = await db.execute(sql`
    select 1 + (select count(*) from leaderboard_entry e
                where e.board = ${board} and e.visible
                  and (e.score > me.score or (e.score = me.score and (e.reached_at, e.user_id) < (me.reached_at, ${userId})))) as rank
    from leaderboard_entry me where me.board = ${board} and me.user_id = ${userId}`);
  const row = rowsOf(result)[0];
  return row ? Number(row.rank) : null;
}

/** Takes the XP of days that left the 7- and 30-day windows out of those boards (idempotent; db/functions/questline_expire_windows.sql). */
export async function expireWindows({ db, today = new Date() }: { db: Db; today?: Date }) {
  const day = today.toISOString().slice(0, 10);
  const result = await db.execute(sql`select questline_expire_windows(${day}::date) as n`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}

/** Shows or hides a member on every public board (db/functions/questline_set_leaderboard_visibility.sql). */
/**
 * Adds points to one board that XP awards do not keep (an airdrop's), through the same SQL
 * function that keeps the board's histogram exact (db/functions/questline_bump_score.sql). The
 * caller makes it exactly-once (an airdrop task's points ride on its completion's XP award).
 */
export async function addBoardPoints({ db, board, userId, points, at }: { db: Db; board: string; userId: string; points: number; at: Date }) {
  await db.execute(sql`
    select questline_bump_score(${board}, ${userId}, ${points}::bigint, ${at.toISOString()}::timestamptz,
      coalesce((select visible from leaderboard_preference where user_id = ${userId}), true))`);
}

export async function setLeaderboardVisibility({ db, userId, visible }: { db: Db; userId: string; visible: boolean }) {
  await db.execute(sql`select questline_set_leaderboard_visibility(${userId}, ${visible})`);
}
