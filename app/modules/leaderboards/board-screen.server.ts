import { eq, sql } from "drizzle-orm";
import { redirect } from "react-router";
import { user } from "#db/schema/auth";
import { leaderboardPreference } from "#db/schema/xp";
import type { Db } from "~/lib/db.server";
import { boardKey, WINDOWS, type BoardScope, type BoardWindow } from "./leaderboards.server";
import { boardView, leaderboardPreferenceOf } from "./member-stats.server";

export const BOARD_PAGE_SIZE = 50;

/** The `?window=` of a board's URL: all, 30d or 7d; anything else is all time. */
export function boardWindowParam(url: URL): BoardWindow {
  const value = url.searchParams.get("window");
  return WINDOWS.find((w) => w === value) ?? "all";
}

type Row = { rank: number; userId: string; score: number; name: string; image: string | null };

/** The viewer as a board row: their board name and picture. */
async function boardRowOf({ db, userId, rank, score }: { db: Db; userId: string; rank: number; score: number }): Promise<Row> {
  const [row] = await db
    .select({ name: sql<string>`coalesce(${leaderboardPreference.displayName}, nullif(${user.name}, ''), ${user.username}, 'Member')`, image: user.image })
    .from(user)
    .leftJoin(leaderboardPreference, eq(leaderboardPreference.userId, user.id))
    .where(eq(user.id, userId));
  return { rank, userId, score, name: row?.name ?? "Member", image: row?.image ?? null };
}

/**
 * What a board screen shows: a page of the board for the window, the viewer's own rank with
 * neighbours, and whether the viewer is hidden from public boards. Public pages never list a
 * hidden member, so their own row is put back among the neighbours only they see.
 */
export async function loadBoard({ db, scope, window, page, userId }: { db: Db; scope: BoardScope; window: BoardWindow; page: number; userId: string | null }) {
  const [view, preference] = await Promise.all([
    boardView({ db, board: boardKey(scope, window), userId, page, pageSize: BOARD_PAGE_SIZE }),
    userId ? leaderboardPreferenceOf({ db, userId }) : null,
  ]);
  const strip = ({ rank, userId, score, name, image }: Row): Row => ({ rank, userId, score, name, image });
  const hidden = preference ? !preference.visible : false;
  let around = view.around.map(strip);
  if (hidden && userId && view.mine) {
    // The rank a hidden member would have counts only visible members above, so the visible
    // member now holding that rank comes right after them.
    const me = await boardRowOf({ db, userId, ...view.mine });
    const before = around.filter((r) => r.rank < me.rank).slice(-2);
    const after = around.filter((r) => r.rank >= me.rank).slice(0, 2);
    around = [...before, me, ...after];
  }
  return {
    window,
    board: { rows: view.rows.map(strip), around, mine: view.mine, page: view.page, hasMore: view.hasMore },
    hidden,
  };
}

/** A page past a board's end (an old link, a board that shrank) goes back to its first page. */
export function redirectPastLastPage(url: URL, page: number, rows: number) {
  if (page <= 1 || rows > 0) return;
  const params = new URLSearchParams(url.search);
  params.delete("page");
  const search = params.toString();
  throw redirect(url.pathname + (search ? `?${search}` : ""));
}
