import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { apiIdempotency } from "#db/schema/reach";
import type { Db } from "~/lib/db.server";

/** How long a write's first answer is kept for its `Idempotency-Key`. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;

/** What an idempotent write answers: a status and a JSON body. */
export type StoredAnswer = { status: number; body: unknown };

export type IdempotentOutcome =
  | { kind: "answer"; status: number; body: unknown; replayed: boolean }
  /** The key was used before with another request (method, path or body). */
  | { kind: "mismatch" };

/** Thrown inside the claim's transaction to undo it while keeping the answer (a 5xx is not kept: a retry runs again). */
class NotKept extends Error {
  // (A field, not a parameter property: Node runs this file as it is in the job processes, stripping types only.)
  readonly answer: StoredAnswer;
  constructor(answer: StoredAnswer) {
    super("not kept");
    this.answer = answer;
  }
}

export const requestHashOf = ({ method, path, body }: { method: string; path: string; body: string }) =>
  createHash("sha256").update(`${method.toUpperCase()}\n${path}\n${body}`).digest("hex");

/**
 * Runs a write once per (key, `Idempotency-Key`): the first request claims the key by inserting
 * its row, runs `run` in the same transaction and stores its answer there; a concurrent request
 * with the same key waits on that insert (the primary key) and, once the first commits, reads the
 * stored answer instead of running. If the first fails (throws, or answers 5xx) nothing is kept
 * and the next request runs. The same key with another request is a mismatch.
 */
export async function withIdempotency({
  db,
  keyId,
  idempotencyKey,
  request,
  run,
}: {
  db: Db;
  keyId: string;
  idempotencyKey: string;
  /** What the key is bound to: the method, the path with its query, and the raw body. */
  request: { method: string; path: string; body: string };
  /** The write, on the claim's transaction. */
  run: (tx: Db) => Promise<StoredAnswer>;
}): Promise<IdempotentOutcome> {
  const requestHash = requestHashOf(request);
  try {
    return await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(apiIdempotency)
        .values({ keyId, idempotencyKey, requestHash, status: 0, body: {} })
        .onConflictDoNothing()
        .returning({ keyId: apiIdempotency.keyId });
      if (claimed.length === 0) {
        const [stored] = await tx
          .select({ requestHash: apiIdempotency.requestHash, status: apiIdempotency.status, body: apiIdempotency.body })
          .from(apiIdempotency)
          .where(and(eq(apiIdempotency.keyId, keyId), eq(apiIdempotency.idempotencyKey, idempotencyKey)));
        if (!stored) throw new Error("idempotency: a claimed key has no row");
        if (stored.requestHash !== requestHash) return { kind: "mismatch" as const };
        return { kind: "answer" as const, status: stored.status, body: stored.body, replayed: true };
      }
      const answer = await run(tx as unknown as Db);
      if (answer.status >= 500) throw new NotKept(answer);
      await tx
        .update(apiIdempotency)
        .set({ status: answer.status, body: answer.body ?? null })
        .where(and(eq(apiIdempotency.keyId, keyId), eq(apiIdempotency.idempotencyKey, idempotencyKey)));
      return { kind: "answer" as const, ...answer, replayed: false };
    });
  } catch (error) {
    if (error instanceof NotKept) return { kind: "answer", ...error.answer, replayed: false };
    throw error;
  }
}

/** Forgets answers older than 24 hours (a purge job's step); how many were removed. */
export async function purgeIdempotency({ db, now = new Date() }: { db: Db; now?: Date }) {
  const removed = await db
    .delete(apiIdempotency)
    .where(lt(apiIdempotency.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEEP_MS)))
    .returning({ keyId: apiIdempotency.keyId });
  return removed.length;
}
