import { sql } from "drizzle-orm";
import { againAfterFirstInsertRace } from "./db-errors";
import { rowsOf, type Db } from "./db.server";

/**
 * Whether a request was taken, with what the standard rate-limit headers say: the places left in
 * the window and the seconds until it closes (`resetSeconds`); when refused, the wait.
 */
export type RateLimitClaim =
  { ok: true; remaining: number; resetSeconds: number } | { ok: false; retryAfterSeconds: number; remaining: 0; resetSeconds: number };

/**
 * Counts a request against `key` in the database (the `rate_limit` table better-auth uses too, so
 * several web processes share the count) and says whether it is within `max` per `windowSeconds`
 * (a window opens with the first request after the last one closed); when it is not, how long
 * until the window closes. One statement: concurrent requests cannot both take the last place.
 */
export async function takeRateLimit({
  db,
  key,
  max,
  windowSeconds,
  now = Date.now(),
}: {
  db: Db;
  key: string;
  max: number;
  windowSeconds: number;
  now?: number;
}): Promise<RateLimitClaim> {
  const windowStart = now - windowSeconds * 1000;
  const countOne = () =>
    db.execute(sql`
      insert into rate_limit (id, key, count, last_request) values (${key}, ${key}, 1, ${now})
      on conflict (key) do update set
        count = case when rate_limit.last_request <= ${windowStart} then 1 else rate_limit.count + 1 end,
        last_request = case when rate_limit.last_request <= ${windowStart} then ${now} else rate_limit.last_request end
      returning count, last_request`);
  const result = await againAfterFirstInsertRace(countOne);
  const [row] = rowsOf(result);
  const count = Number(row!.count);
  const closes = Number(row!.last_request) + windowSeconds * 1000;
  const resetSeconds = Math.max(1, Math.ceil((closes - now) / 1000));
  if (count <= max) return { ok: true, remaining: max - count, resetSeconds };
  return { ok: false, retryAfterSeconds: resetSeconds, remaining: 0, resetSeconds };
}

/** `takeRateLimit` as a yes or no. */
export async function withinRateLimit(args: Parameters<typeof takeRateLimit>[0]) {
  return (await takeRateLimit(args)).ok;
}

/**
 * How long until `key` takes requests again, without counting one: 0 when it would take one now.
 * For screens that show a cooldown before the member tries.
 */
export async function rateLimitWait({
  db,
  keys,
  max,
  windowSeconds,
  now = Date.now(),
}: {
  db: Db;
  keys: string[];
  max: number;
  windowSeconds: number;
  now?: number;
}) {
  const waits = new Map<string, number>();
  if (keys.length === 0) return waits;
  const rows = rowsOf(
    await db.execute(
      sql`select key, count, last_request from rate_limit where key in (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    ),
  );
  for (const row of rows) {
    const closes = Number(row.last_request) + windowSeconds * 1000;
    if (Number(row.count) >= max && closes > now) waits.set(String(row.key), Math.ceil((closes - now) / 1000));
  }
  return waits;
}
