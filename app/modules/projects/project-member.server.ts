import { and, eq, inArray, sql, type AnyColumn } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { projectFollow } from "#db/schema/reach";
import { completion, task } from "#db/schema/quests";
import { leaderboardEntry } from "#db/schema/xp";
import { rowsOf, type Db } from "~/lib/db.server";
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

/** Members by id as the project sees them, in the order given; those it does not know are left out. */
export async function projectMembers({ db, projectId, userIds }: { db: Db; projectId: string; userIds: string[] }): Promise<ProjectMember[]> {
  if (userIds.length === 0) return [];
  const board = boardKey({ kind: "project", projectId }, "all");
  const found = await db
    .select({ id: user.id, name: user.name, username: user.username, image: user.image, email: emailSharedWith(projectId) })
    .from(user)
    .where(and(inArray(user.id, userIds), isMemberOf(projectId, user.id)));
  const ids = found.map((m) => m.id);
  if (ids.length === 0) return [];
  const [identities, ranks, counts] = await Promise.all([
    memberIdentities({ db, userIds: ids }),
    // The board's own exact rank, one prepared lookup per member.
    Promise.all(ids.map((userId) => rankOf({ db, board, userId }))),
    db
      .select({ userId: completion.userId, status: completion.status, n: sql<number>`count(*)::int` })
      .from(completion)
      .innerJoin(task, eq(task.id, completion.taskId))
      .where(and(inArray(completion.userId, ids), eq(task.projectId, projectId)))
      .groupBy(completion.userId, completion.status),
  ]);
  const byId = new Map(
    found.map((m, i): [string, ProjectMember] => [
      m.id,
      { ...m, ...identities.get(m.id)!, xp: ranks[i]?.score ?? 0, rank: ranks[i]?.rank ?? null, completions: { pending: 0, approved: 0, rejected: 0 } },
    ]),
  );
  for (const c of counts) byId.get(c.userId)!.completions[c.status] = Number(c.n);
  return userIds.flatMap((id) => byId.get(id) ?? []);
}

/** The member by id, as the project sees them; null when the project does not know them. */
export async function projectMember({ db, projectId, userId }: { db: Db; projectId: string; userId: string }): Promise<ProjectMember | null> {
  return (await projectMembers({ db, projectId, userIds: [userId] }))[0] ?? null;
}

/**
 * A page of the project's members by id after `after`: those with XP on its board, a completion
 * on one of its tasks, or a follow, each found through its own index; and the next page's id.
 */
export async function listProjectMembers({ db, projectId, after = null, limit }: { db: Db; projectId: string; after?: string | null; limit: number }) {
  const from = after === null ? sql`true` : sql`user_id > ${after}`;
  const rows = rowsOf(
    await db.execute(sql`
      select user_id from (
        select ${leaderboardEntry.userId} as user_id from ${leaderboardEntry} where ${leaderboardEntry.board} = ${boardKey({ kind: "project", projectId }, "all")}
        union select ${completion.userId} from ${completion} join ${task} on ${task.id} = ${completion.taskId} where ${task.projectId} = ${projectId}
        union select ${projectFollow.userId} from ${projectFollow} where ${projectFollow.projectId} = ${projectId}
      ) m where ${from} order by user_id limit ${limit + 1}`),
  );
  const ids = rows.map((r) => String(r.user_id));
  const more = ids.length > limit;
  const page = more ? ids.slice(0, limit) : ids;
  return { rows: await projectMembers({ db, projectId, userIds: page }), next: more ? page.at(-1)! : null };
}

/** The member a linked wallet belongs to (any case), as the project sees them; null when none or not the project's. */
export async function projectMemberByWallet({ db, projectId, address }: { db: Db; projectId: string; address: string }) {
  const userId = await memberOfWallet({ db, address });
  return userId ? projectMember({ db, projectId, userId }) : null;
}
