import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "~/lib/db.server";

/** Rows where a board's histogram disagrees with its visible members per score (decision 008): none, always. */
export async function histogramDrift(db: Db) {
  return rowsOf(
    await db.execute(sql`
      select coalesce(h.board, c.board) as board, coalesce(h.score, c.score) as score, h.members, c.members as counted
      from leaderboard_histogram h
      full join (select board, score, count(*)::int as members from leaderboard_entry where visible group by board, score) c
        on c.board = h.board and c.score = h.score
      where h.members is distinct from c.members`),
  );
}
