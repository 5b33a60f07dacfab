import { and, asc, eq, gte, inArray, or, sql, type SQL } from "drizzle-orm";
import { getAddress, isAddress } from "viem";
import { completion, task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import type { Db } from "~/lib/db.server";

/**
 * A project's completions as its own server reads them (the public API): every completion of its
 * tasks, oldest first, filtered, one page at a time by keyset. The key is the completion's
 * `created_at` as PostgreSQL's text (microseconds kept: a JS Date would lose them and skip or
 * repeat rows) and its id, so a page never repeats or misses a row whatever is added meanwhile.
 */

export const COMPLETION_STATUSES = ["pending", "approved", "rejected"] as const;

export type CompletionFilter = {
  taskId?: string;
  campaignId?: string;
  status?: (typeof COMPLETION_STATUSES)[number];
  userId?: string;
  /** A linked wallet's address, any case: its member's completions. */
  wallet?: string;
  /** Created at or after. */
  since?: Date;
};

/** Where a page ends: the last row's creation time (PostgreSQL's text) and id. */
export type CompletionKey = { createdAt: string; id: string };

export type ProjectCompletion = {
  id: string;
  taskId: string;
  campaignId: string | null;
  crusadeId: string | null;
  userId: string;
  period: string;
  status: (typeof COMPLETION_STATUSES)[number];
  verifiedBy: string | null;
  reason: string | null;
  createdAt: Date;
  reviewedAt: Date | null;
};

/** The forms an address may be stored in (checksummed as signed, or lowercase): an index lookup for either case. */
export function addressForms(address: string): string[] {
  const lower = address.toLowerCase();
  return isAddress(lower, { strict: false }) ? [getAddress(lower), lower] : [address];
}

/** The member a linked wallet belongs to, any case; null when none. */
export async function memberOfWallet({ db, address }: { db: Db; address: string }): Promise<string | null> {
  const [row] = await db
    .select({ userId: walletAddress.userId })
    .from(walletAddress)
    .where(inArray(walletAddress.address, addressForms(address)))
    .limit(1);
  return row?.userId ?? null;
}

/** One page of the project's completions after `after` (null: from the first), and the key of the next page when there is one. */
export async function listProjectCompletions({
  db,
  projectId,
  filter = {},
  after = null,
  limit,
}: {
  db: Db;
  projectId: string;
  filter?: CompletionFilter;
  after?: CompletionKey | null;
  limit: number;
}): Promise<{ rows: ProjectCompletion[]; next: CompletionKey | null }> {
  let userId = filter.userId;
  if (filter.wallet !== undefined) {
    const owner = await memberOfWallet({ db, address: filter.wallet });
    if (!owner || (userId !== undefined && userId !== owner)) return { rows: [], next: null };
    userId = owner;
  }
  const where: (SQL | undefined)[] = [eq(task.projectId, projectId)];
  if (filter.taskId !== undefined) where.push(eq(completion.taskId, filter.taskId));
  if (filter.campaignId !== undefined) where.push(eq(task.campaignId, filter.campaignId));
  if (filter.status !== undefined) where.push(eq(completion.status, filter.status));
  if (userId !== undefined) where.push(eq(completion.userId, userId));
  if (filter.since !== undefined) where.push(gte(completion.createdAt, filter.since));
  if (after) {
    // Written so the creation-time index bounds the scan (a row comparison would not use it).
    const at = sql`${after.createdAt}::timestamptz`;
    where.push(sql`${completion.createdAt} >= ${at}`, or(sql`${completion.createdAt} > ${at}`, sql`${completion.id} > ${after.id}`));
  }
  // Planned for each request's values (not a prepared statement's generic plan): a member's few
  // rows are found through their index, a project's whole list through the creation-time one.
  const found = await db
    .select({
      id: completion.id,
      taskId: completion.taskId,
      campaignId: task.campaignId,
      crusadeId: task.crusadeId,
      userId: completion.userId,
      period: completion.period,
      status: completion.status,
      verifiedBy: completion.verifiedBy,
      reason: completion.reason,
      createdAt: completion.createdAt,
      reviewedAt: completion.reviewedAt,
      key: sql<string>`${completion.createdAt}::text`,
    })
    .from(completion)
    .innerJoin(task, eq(task.id, completion.taskId))
    .where(and(...where))
    .orderBy(asc(completion.createdAt), asc(completion.id))
    .limit(limit + 1);
  const more = found.length > limit;
  const page = more ? found.slice(0, limit) : found;
  const last = page.at(-1);
  return { rows: page.map(({ key: _key, ...row }) => row), next: more && last ? { createdAt: last.key, id: last.id } : null };
}
