import { eq, sql, type AnyColumn } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { projectFollow } from "#db/schema/reach";
import { completion, task } from "#db/schema/quests";
import { leaderboardEntry } from "#db/schema/xp";
import type { Db } from "~/lib/db.server";
import { boardKey, rankOf } from "~/modules/leaderboards/leaderboards.server";
import { memberOfWallet } from "~/modules/tasks/project-completions.server";
import { emailSharedWith, memberIdentities, type MemberIdentity } from "./member-identity.server";

/**
 * A member as a project's own server reads them (the public API): only what the project's team
 * may see (decision 043: name, linked wallets, social handles, the e-mail address only where the
 * member shared it with this project), their XP and exact rank on the project's all-time board,
 * and their completions in it. A project knows only its own members: those who took part (a
 * completion on one of its tasks), hold XP in it, or follow it; anyone else is not found, so a key
 * cannot test whether an id or a wallet belongs to someone elsewhere.
 */

export type ProjectMember = MemberIdentity & {
  id: string;
  name: string;
  username: string | null;
  image: string | null;
  email: string | null;
  xp: number;
  /** Exact rank on the project's all-time board (the one they would have if hidden); null without XP. */
  rank: number | null;
  completions: { pending: number; approved: number; rejected: number };
};

/** Whether the member took part in, holds XP in, or follows the project: each an index lookup. */
export function isMemberOf(projectId: string, userId: string | AnyColumn) {
  return sql`(exists (select 1 from ${leaderboardEntry} where ${leaderboardEntry.board} = ${boardKey({ kind: "project", projectId }, "all")} and ${leaderboardEntry.userId} = ${userId})
    or exists (select 1 from ${completion} join ${task} on ${task.id} = ${completion.taskId} where ${completion.userId} = ${userId} and ${task.projectId} = ${projectId})
    or exists (select 1 from ${projectFollow} where ${projectFollow.userId} = ${userId} and ${projectFollow.projectId} = ${projectId}))`;
}

/** Whether `userId` is a member the project knows. */
export async function knowsMember({ db, projectId, userId }: { db: Db; projectId: string; userId: string }): Promise<boolean> {
  const [row] = await db.select({ yes: sql<boolean>`${isMemberOf(projectId, userId)}` }).from(sql`(select) as one`);
  return row?.yes === true;
}

/** The member by id, as the project sees them; null when the project does not know them. */
export async function projectMember({ db, projectId, userId }: { db: Db; projectId: string; userId: string }): Promise<ProjectMember | null> {
  const [found] = await db
    .select({
      id: user.id,
      name: user.name,
      username: user.username,
      image: user.image,
      email: emailSharedWith(projectId),
    })
    .from(user)
    .where(sql`${user.id} = ${userId} and ${isMemberOf(projectId, user.id)}`);
  if (!found) return null;
  const [identities, rank, counts] = await Promise.all([
    memberIdentities({ db, userIds: [userId] }),
    rankOf({ db, board: boardKey({ kind: "project", projectId }, "all"), userId }),
    db
      .select({ status: completion.status, n: sql<number>`count(*)::int` })
      .from(completion)
      .innerJoin(task, eq(task.id, completion.taskId))
      .where(sql`${completion.userId} = ${userId} and ${task.projectId} = ${projectId}`)
      .groupBy(completion.status),
  ]);
  const completions = { pending: 0, approved: 0, rejected: 0 };
  for (const c of counts) completions[c.status] = Number(c.n);
  return {
    id: found.id,
    name: found.name,
    username: found.username,
    image: found.image,
    email: found.email,
    ...identities.get(userId)!,
    xp: rank?.score ?? 0,
    rank: rank?.rank ?? null,
    completions,
  };
}

/** The member a linked wallet belongs to (any case), as the project sees them; null when none or not the project's. */
export async function projectMemberByWallet({ db, projectId, address }: { db: Db; projectId: string; address: string }) {
  const userId = await memberOfWallet({ db, address });
  return userId ? projectMember({ db, projectId, userId }) : null;
}
