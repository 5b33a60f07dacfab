import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "~/lib/db.server";

type Row = Record<string, unknown>;

export type CompleterRow = { rank: number; userId: string; name: string; image: string | null; completedAt: Date };

/**
 * A task's leaderboard: its first completers in the order of `firstCompleters` (approval time,
 * then completion id), each member once (their first approved completion, for daily tasks too),
 * with their board name. Members who opted out of public boards are left out, except the viewer,
 * who sees the place they would have.
 */
export async function taskBoard({
  db,
  taskId,
  userId,
  page = 1,
  pageSize = 50,
}: {
  db: Db;
  taskId: string;
  userId: string | null;
  page?: number;
  pageSize?: number;
}) {
  const ranked = (where: ReturnType<typeof sql>, limit: number, offset = 0) => sql`
    with firsts as (
      select distinct on (c.user_id) c.user_id, c.id, coalesce(c.reviewed_at, c.created_at) as completed_at
      from completion c
      where c.task_id = ${taskId} and c.status = 'approved'
      order by c.user_id, coalesce(c.reviewed_at, c.created_at), c.id
    ), shown as (
      select f.user_id, f.completed_at, row_number() over (order by f.completed_at, f.id) as rank
      from firsts f
      left join leaderboard_preference p on p.user_id = f.user_id
      where coalesce(p.visible, true) or f.user_id = ${userId}
    )
    select shown.rank, shown.user_id, shown.completed_at,
      coalesce(p.display_name, nullif(u.name, ''), u.username, 'Member') as name, u.image
    from shown
    join "user" u on u.id = shown.user_id
    left join leaderboard_preference p on p.user_id = shown.user_id
    where ${where}
    order by shown.rank
    limit ${limit} offset ${offset}`;
  const toRow = (r: Row): CompleterRow => ({
    rank: Number(r.rank),
    userId: String(r.user_id),
    name: String(r.name),
    image: (r.image as string | null) ?? null,
    completedAt: new Date(r.completed_at as string | Date),
  });

  const offset = (page - 1) * pageSize;
  const rows = rowsOf(await db.execute(ranked(sql`true`, pageSize + 1, offset))).map(toRow);
  const hasMore = rows.length > pageSize;
  rows.length = Math.min(rows.length, pageSize);

  let mine: CompleterRow | null = null;
  let around: CompleterRow[] = [];
  if (userId) {
    mine = rows.find((r) => r.userId === userId) ?? rowsOf(await db.execute(ranked(sql`shown.user_id = ${userId}`, 1))).map(toRow)[0] ?? null;
    if (mine && !rows.some((r) => r.userId === userId)) {
      around = rowsOf(await db.execute(ranked(sql`shown.rank between ${mine.rank - 2} and ${mine.rank + 2}`, 5))).map(toRow);
    }
  }
  return { rows, mine, around, page, hasMore };
}
