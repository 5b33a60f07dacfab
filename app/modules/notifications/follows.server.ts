import { and, count, eq } from "drizzle-orm";
import { projectFollow } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";

/** Follows a project (its new campaigns reach the member's inbox); following twice is following once. */
export async function followProject({ db, userId, projectId }: { db: Db; userId: string; projectId: string }) {
  await db.insert(projectFollow).values({ userId, projectId }).onConflictDoNothing();
}

export async function unfollowProject({ db, userId, projectId }: { db: Db; userId: string; projectId: string }) {
  await db.delete(projectFollow).where(and(eq(projectFollow.userId, userId), eq(projectFollow.projectId, projectId)));
}

/** How many follow the project (one index range count) and whether this member does. */
export async function followState({ db, userId, projectId }: { db: Db; userId: string | null; projectId: string }) {
  const [[total], mine] = await Promise.all([
    db.select({ n: count() }).from(projectFollow).where(eq(projectFollow.projectId, projectId)),
    userId
      ? db
          .select({ userId: projectFollow.userId })
          .from(projectFollow)
          .where(and(eq(projectFollow.userId, userId), eq(projectFollow.projectId, projectId)))
      : Promise.resolve([]),
  ]);
  return { followers: total?.n ?? 0, following: mine.length > 0 };
}
