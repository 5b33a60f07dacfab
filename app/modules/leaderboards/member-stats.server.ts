import { and, desc, eq, sql } from "drizzle-orm";
import { project } from "#db/schema/projects";
import { leaderboardEntry, leaderboardPreference, xpEvent } from "#db/schema/xp";
import type { Db } from "~/lib/db.server";
import { boardPage, globalRanksOf, rankOf, WINDOWS, type BoardRow } from "./leaderboards.server";
import { levelOf, speedOf, starsFor } from "./progress";

/** The member's XP, level and global ranks (all time, 30 and 7 days). */
export async function memberSummary({ db, userId }: { db: Db; userId: string }) {
  const ranks = await globalRanksOf({ db, userId });
  const [all, month, week] = WINDOWS.map((w) => ranks.get(w));
  const xp = all?.score ?? 0;
  return { xp, level: levelOf(xp), ranks: { all: all?.rank ?? null, "30d": month?.rank ?? null, "7d": week?.rank ?? null } };
}

export async function speedometer({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }) {
  const day = 86_400_000;
  const [row] = await db
    .select({
      lastWeek:
        sql<number>`coalesce(sum(${xpEvent.amount}) filter (where ${xpEvent.createdAt} > ${new Date(now.getTime() - 7 * day).toISOString()}::timestamptz), 0)`.mapWith(
          Number,
        ),
      before:
        sql<number>`coalesce(sum(${xpEvent.amount}) filter (where ${xpEvent.createdAt} <= ${new Date(now.getTime() - 7 * day).toISOString()}::timestamptz), 0)`.mapWith(
          Number,
        ),
    })
    .from(xpEvent)
    .where(and(eq(xpEvent.userId, userId), sql`${xpEvent.createdAt} > ${new Date(now.getTime() - 35 * day).toISOString()}::timestamptz`));
  return speedOf({ lastWeek: row?.lastWeek ?? 0, fourWeeksBefore: row?.before ?? 0 });
}

/** Stars per project: the member's all-time XP in each project against the thresholds. */
export async function starboard({ db, userId }: { db: Db; userId: string }) {
  const rows = await db
    .select({ score: leaderboardEntry.score, project: { id: project.id, slug: project.slug, name: project.name, logoUrl: project.logoUrl } })
    .from(leaderboardEntry)
    .innerJoin(project, sql`${leaderboardEntry.board} = 'p:' || ${project.id} || '|all'`)
    .where(eq(leaderboardEntry.userId, userId))
    .orderBy(desc(leaderboardEntry.score));
  return rows.map((r) => ({ ...r.project, xp: r.score, stars: starsFor(r.score) }));
}

export async function leaderboardPreferenceOf({ db, userId }: { db: Db; userId: string }) {
  const [row] = await db.select().from(leaderboardPreference).where(eq(leaderboardPreference.userId, userId));
  return { visible: row?.visible ?? true, displayName: row?.displayName ?? null };
}

export async function setLeaderboardDisplayName({ db, userId, displayName }: { db: Db; userId: string; displayName: string | null }) {
  await db.insert(leaderboardPreference).values({ userId, displayName }).onConflictDoUpdate({ target: leaderboardPreference.userId, set: { displayName } });
}

/**
 * A board as a page shows it: a page of rows, and the member's own rank with two neighbours on
 * each side when they are not on that page.
 */
export async function boardView({
  db,
  board,
  userId,
  page = 1,
  pageSize = 50,
}: {
  db: Db;
  board: string;
  userId: string | null;
  page?: number;
  pageSize?: number;
}) {
  const rows = await boardPage({ db, board, limit: pageSize, offset: (page - 1) * pageSize });
  const mine = userId ? await rankOf({ db, board, userId }) : null;
  let around: BoardRow[] = [];
  if (userId && mine && !rows.some((r) => r.userId === userId)) {
    const start = Math.max(0, mine.rank - 3);
    around = await boardPage({ db, board, limit: 5, offset: start });
  }
  return { rows, mine, around, page, pageSize, hasMore: rows.length === pageSize };
}
