import { and, asc, eq, inArray, sql, type AnyColumn } from "drizzle-orm";
import { account, user } from "#db/schema/auth";
import { project, projectEmailShare } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { socialAccount } from "#db/schema/social";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";
import { failure, ok, type Result } from "~/lib/result";
import { hasRealEmail } from "~/modules/wallets/wallets.server";

/**
 * What a project's team may know of a member: their name, linked wallets and connected social
 * handles; their e-mail address only where the member shared it with that project.
 */
export type MemberIdentity = { wallets: string[]; socials: { provider: string; handle: string }[] };

/**
 * The member's (`user`'s) e-mail address where they shared it with the project `projectId` names,
 * else null. The one way a team's read reaches `user.email`, its search included.
 */
export function emailSharedWith(projectId: AnyColumn | string) {
  return sql<
    string | null
  >`(case when exists (select 1 from ${projectEmailShare} where ${projectEmailShare.projectId} = ${projectId} and ${projectEmailShare.userId} = ${user.id}) then ${user.email} end)`;
}

/** Each member's linked wallets (one entry per address) and connected social handles, for a team's screens. */
export async function memberIdentities({ db, userIds }: { db: Db; userIds: string[] }): Promise<Map<string, MemberIdentity>> {
  const ids = [...new Set(userIds)];
  const found = new Map<string, MemberIdentity>(ids.map((id) => [id, { wallets: [], socials: [] }]));
  if (ids.length === 0) return found;
  const [wallets, socials] = await Promise.all([
    db
      .selectDistinct({ userId: walletAddress.userId, address: walletAddress.address })
      .from(walletAddress)
      .where(inArray(walletAddress.userId, ids))
      .orderBy(asc(walletAddress.userId), asc(walletAddress.address)),
    db
      .select({ userId: account.userId, provider: socialAccount.provider, handle: socialAccount.handle })
      .from(account)
      .innerJoin(socialAccount, and(sql`${socialAccount.provider} = ${account.providerId}`, eq(socialAccount.accountId, account.accountId)))
      .where(inArray(account.userId, ids))
      .orderBy(asc(account.userId), asc(socialAccount.provider)),
  ]);
  for (const w of wallets) found.get(w.userId)!.wallets.push(w.address);
  for (const s of socials) if (s.handle) found.get(s.userId)!.socials.push({ provider: s.provider, handle: s.handle });
  return found;
}

export type EmailShareRow = { projectId: string; name: string; slug: string; shared: boolean };

/**
 * The projects a member may share their e-mail address with: those they took part in (a
 * submission on one of its tasks) and those they share it with already, by name.
 */
export async function emailShares({ db, userId }: { db: Db; userId: string }): Promise<{ email: string | null; projects: EmailShareRow[] }> {
  const [member] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  const took = db
    .selectDistinct({ projectId: task.projectId })
    .from(completion)
    .innerJoin(task, eq(task.id, completion.taskId))
    .where(eq(completion.userId, userId));
  const rows = await db
    .select({
      projectId: project.id,
      name: project.name,
      slug: project.slug,
      shared: sql<boolean>`exists (select 1 from ${projectEmailShare} where ${projectEmailShare.projectId} = ${project.id} and ${projectEmailShare.userId} = ${userId})`,
    })
    .from(project)
    .where(
      sql`${project.id} in (${took}) or ${project.id} in (select ${projectEmailShare.projectId} from ${projectEmailShare} where ${projectEmailShare.userId} = ${userId})`,
    )
    .orderBy(asc(project.name));
  return { email: member && hasRealEmail(member.email) ? member.email : null, projects: rows.map((r) => ({ ...r, shared: Boolean(r.shared) })) };
}

/** The member shares their e-mail address with a project's team, or takes it back. */
export async function setEmailShare({
  db,
  userId,
  projectId,
  shared,
}: {
  db: Db;
  userId: string;
  projectId: string;
  shared: boolean;
}): Promise<Result<{ projectName: string }>> {
  const [found] = await db.select({ name: project.name }).from(project).where(eq(project.id, projectId));
  if (!found) return failure("not_found", "This project no longer exists.");
  if (!shared) {
    await db.delete(projectEmailShare).where(and(eq(projectEmailShare.projectId, projectId), eq(projectEmailShare.userId, userId)));
    return ok({ projectName: found.name });
  }
  const [member] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  if (!member || !hasRealEmail(member.email)) return failure("conflict", "Your account has no e-mail address to share: add one in Profile first.");
  await db.insert(projectEmailShare).values({ projectId, userId }).onConflictDoNothing();
  return ok({ projectName: found.name });
}
