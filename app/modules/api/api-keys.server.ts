import { createHash, randomBytes, randomUUID } from "node:crypto";
import { data } from "react-router";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { apiKey } from "#db/schema/reach";
import { type Db, preparedPerDb } from "~/lib/db.server";
import { failure, ok, type Result } from "~/lib/result";
import { authorize } from "~/modules/projects/permissions.server";
import type { ApiScope } from "./api-scopes";

/** `ql_` and 32 random bytes in base64url: 46 characters. */
const KEY_PATTERN = /^ql_[A-Za-z0-9_-]{43}$/;
/** The characters kept in clear to tell keys apart: `ql_` and 8 of the random part. */
const PREFIX_LENGTH = 11;

export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** A key as the project's team sees it: never its hash. */
export type ApiKeySummary = {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/** The key a request was made with, once it is known and live. */
export type ApiCaller = { keyId: string; projectId: string; scopes: ApiScope[]; lastUsedAt: Date | null };

const summaryColumns = {
  id: apiKey.id,
  name: apiKey.name,
  prefix: apiKey.prefix,
  scopes: apiKey.scopes,
  createdAt: apiKey.createdAt,
  lastUsedAt: apiKey.lastUsedAt,
  revokedAt: apiKey.revokedAt,
};

/**
 * A new key for the project, by one of its owners or admins (`api.manage`; anyone else gets a 403
 * thrown). The whole key is in the answer this once; only its SHA-256 is stored.
 */
export async function createApiKey({
  db,
  projectId,
  name,
  scopes,
  createdBy,
  maxLive = MAX_LIVE_KEYS,
}: {
  db: Db;
  projectId: string;
  name: string;
  scopes: ApiScope[];
  createdBy: string;
  /** The live keys the project may hold (tests that make a key per case raise it). */
  maxLive?: number;
}): Promise<{ key: string; apiKey: ApiKeySummary }> {
  await authorize({ db, projectId, userId: createdBy, action: "api.manage" });
  const refused = await keyLimitRefusal({ db, projectId, maxLive });
  if (refused) throw data(refused.message, { status: 409 });
  const key = `ql_${randomBytes(32).toString("base64url")}`;
  const [row] = await db
    .insert(apiKey)
    .values({ id: randomUUID(), projectId, name, prefix: key.slice(0, PREFIX_LENGTH), hash: hashApiKey(key), scopes: [...new Set(scopes)], createdBy })
    .returning(summaryColumns);
  return { key, apiKey: row as ApiKeySummary };
}

/** Live (unrevoked) keys a project may hold at once: keys are made by hand, so more is a flood or forgotten keys. */
export const MAX_LIVE_KEYS = 20;

/** Why the project may not have another key now, or null. */
export async function keyLimitRefusal({ db, projectId, maxLive = MAX_LIVE_KEYS }: { db: Db; projectId: string; maxLive?: number }) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKey)
    .where(and(eq(apiKey.projectId, projectId), isNull(apiKey.revokedAt)));
  return (row?.n ?? 0) >= maxLive ? failure("conflict", `This project has ${maxLive} live keys, the most it may hold: revoke one first.`) : null;
}

/** Revokes one of the project's keys (`api.manage`): requests with it are refused from now on. */
export async function revokeApiKey({
  db,
  projectId,
  keyId,
  revokedBy,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  keyId: string;
  revokedBy: string;
  now?: Date;
}): Promise<Result<{ apiKey: ApiKeySummary }>> {
  await authorize({ db, projectId, userId: revokedBy, action: "api.manage" });
  const [row] = await db
    .update(apiKey)
    .set({ revokedAt: now, revokedBy })
    .where(and(eq(apiKey.id, keyId), eq(apiKey.projectId, projectId), isNull(apiKey.revokedAt)))
    .returning(summaryColumns);
  if (row) return ok({ apiKey: row as ApiKeySummary });
  const [existing] = await db
    .select({ id: apiKey.id })
    .from(apiKey)
    .where(and(eq(apiKey.id, keyId), eq(apiKey.projectId, projectId)));
  return failure(existing ? "conflict" : "not_found", existing ? "This key is revoked already." : "This key does not exist.");
}

/** The project's keys, newest first, revoked ones too; never their hashes. */
export async function listApiKeys({ db, projectId }: { db: Db; projectId: string }): Promise<ApiKeySummary[]> {
  const rows = await db.select(summaryColumns).from(apiKey).where(eq(apiKey.projectId, projectId)).orderBy(desc(apiKey.createdAt), desc(apiKey.id));
  return rows as ApiKeySummary[];
}

/** The live key a request presents, or null (malformed, unknown or revoked). */
export async function findApiCaller({ db, key }: { db: Db; key: string }): Promise<ApiCaller | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const [row] = await callerStatement(db).execute({ hash: hashApiKey(key) });
  if (!row || row.revokedAt) return null;
  return { keyId: row.keyId, projectId: row.projectId, scopes: row.scopes as ApiScope[], lastUsedAt: row.lastUsedAt };
}

/** Read on every API request: prepared once per connection (a revoked key is refused at its next request). */
const callerStatement = preparedPerDb((db) =>
  db
    .select({ keyId: apiKey.id, projectId: apiKey.projectId, scopes: apiKey.scopes, lastUsedAt: apiKey.lastUsedAt, revokedAt: apiKey.revokedAt })
    .from(apiKey)
    .where(eq(apiKey.hash, sql.placeholder("hash")))
    .prepare("questline_api_caller"),
);

/** How often a key's `last_used_at` is written at most. */
const LAST_USED_EVERY_MS = 60_000;
/** When this process last wrote each key's `last_used_at`: most requests write nothing. */
const lastUsedWritten = new Map<string, number>();

/**
 * Notes that the key was used: at most once a minute per key (the process remembers when it last
 * wrote; the statement writes only a time older than a minute, for the other processes).
 */
export async function touchApiKey({ db, caller, now = new Date() }: { db: Db; caller: ApiCaller; now?: Date }) {
  const at = now.getTime();
  const seen = Math.max(lastUsedWritten.get(caller.keyId) ?? 0, caller.lastUsedAt?.getTime() ?? 0);
  if (at - seen < LAST_USED_EVERY_MS) return;
  if (lastUsedWritten.size > 10_000) lastUsedWritten.clear();
  lastUsedWritten.set(caller.keyId, at);
  await db
    .update(apiKey)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKey.id, caller.keyId), or(isNull(apiKey.lastUsedAt), lt(apiKey.lastUsedAt, new Date(at - LAST_USED_EVERY_MS)))));
}
