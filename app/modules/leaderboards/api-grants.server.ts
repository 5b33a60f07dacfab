import { and, eq, sql } from "drizzle-orm";
import { xpEvent } from "#db/schema/xp";
import type { Db } from "~/lib/db.server";
import { failure, ok, type Result } from "~/lib/result";
import { knowsMember } from "~/modules/projects/project-member.server";
import { awardXp, revokeXp } from "./leaderboards.server";

/**
 * XP a project grants from its own server (the public API), on the XP ledger like every award: an
 * `xp_event` of source `api_grant` whose id names the API key and the request's Idempotency-Key,
 * so the same request is one award however often and however concurrently it comes, with or
 * without the API's table of first answers. Taken back like every award (decision 030): a
 * negative `api_grant_void` event through `revokeXp`, once.
 */

export const API_GRANT_SOURCE = "api_grant";
export const API_GRANT_MAX = 10_000;

export type ApiGrant = { id: string; userId: string; amount: number; createdAt: Date; revoked: boolean };

const sourceIdOf = (keyId: string, idempotencyKey: string) => `${keyId}:${idempotencyKey}`;

/** The grant as stored, by its source (the key and Idempotency-Key) or its id; null when none in this project. */
async function storedGrant(db: Db, projectId: string, where: { sourceId: string } | { id: number }) {
  const [row] = await db
    .select({ id: xpEvent.id, userId: xpEvent.userId, amount: xpEvent.amount, createdAt: xpEvent.createdAt, sourceId: xpEvent.sourceId })
    .from(xpEvent)
    .where(
      and(
        eq(xpEvent.sourceType, API_GRANT_SOURCE),
        eq(xpEvent.projectId, projectId),
        "id" in where ? eq(xpEvent.id, where.id) : eq(xpEvent.sourceId, where.sourceId),
      ),
    )
    .limit(1);
  if (!row) return null;
  const [voided] = await db
    .select({ amount: xpEvent.amount })
    .from(xpEvent)
    .where(and(eq(xpEvent.sourceType, `${API_GRANT_SOURCE}_void`), eq(xpEvent.sourceId, row.sourceId), eq(xpEvent.userId, row.userId)));
  return { grant: { id: String(row.id), userId: row.userId, amount: row.amount, createdAt: row.createdAt, revoked: Boolean(voided) }, sourceId: row.sourceId };
}

/**
 * Grants `amount` XP to a member the project knows, once per key and Idempotency-Key: a repeat
 * (or a racing twin, which waits for the first) answers the grant as first made, whatever its
 * body says. The award records `xp.changed` in the same transaction.
 */
export async function grantApiXp({
  db,
  projectId,
  keyId,
  idempotencyKey,
  userId,
  amount,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  keyId: string;
  idempotencyKey: string;
  userId: string;
  amount: number;
  /** Why, in the caller's words: answered back, not kept (an XP event keeps its source, not words). */
  reason: string;
  now?: Date;
}): Promise<Result<{ grant: ApiGrant }>> {
  const sourceId = sourceIdOf(keyId, idempotencyKey);
  return db.transaction(async (tx) => {
    // One request per source at a time: the first makes the grant, its twins find it.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${API_GRANT_SOURCE}:${sourceId}`}, 0))`);
    const first = await storedGrant(tx, projectId, { sourceId });
    if (first) return ok({ grant: first.grant });
    if (!(await knowsMember({ db: tx, projectId, userId }))) return failure("not_found", "No member with this id has taken part in this project.");
    // The award records its own `xp.changed` event, as every award does.
    await awardXp({ db: tx, award: { userId, projectId, campaignId: null, sourceType: API_GRANT_SOURCE, sourceId, amount, at: now } });
    const made = await storedGrant(tx, projectId, { sourceId });
    return ok({ grant: made!.grant });
  });
}

/**
 * Takes back a grant of this project's API (any of its keys) by its id, exactly once: a second
 * revocation changes nothing and answers the same (its `xp.changed` recorded by `revokeXp`).
 */
export async function revokeApiGrant({ db, projectId, grantId }: { db: Db; projectId: string; grantId: string }): Promise<Result<{ grant: ApiGrant }>> {
  const id = /^\d{1,15}$/.test(grantId) ? Number(grantId) : null;
  const found = id === null ? null : await storedGrant(db, projectId, { id });
  if (!found) return failure("not_found", "No XP grant of this project has this id.");
  if (found.grant.revoked) return ok({ grant: found.grant });
  // The take-back records its own `xp.changed` event, as every take-back does.
  await revokeXp({ db, userId: found.grant.userId, sourceType: API_GRANT_SOURCE, sourceId: found.sourceId });
  return ok({ grant: { ...found.grant, revoked: true } });
}
