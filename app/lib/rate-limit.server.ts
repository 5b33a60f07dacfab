import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "./db.server";

/**
 * Counts a request against `key` in the database (the `rate_limit` table better-auth uses too, so
 * several web processes share the count) and says whether it is within `max` per `windowSeconds`.
 * One statement: concurrent requests cannot both take the last place.
 */
export async function withinRateLimit({ db, key, max, windowSeconds, now = Date.now() }: { db: Db; key: string; max: number; windowSeconds: number; now?: number }) {
  const windowStart = now - windowSeconds * 1000;
  const [row] = rowsOf(
    await db.execute(sql`
      insert into rate_limit (id, key, count, last_request) values (${key}, ${key}, 1, ${now})
      on conflict (key) do update set
        count = case when rate_limit.last_request < ${windowStart} then 1 else rate_limit.count + 1 end,
        last_request = case when rate_limit.last_request < ${windowStart} then ${now} else rate_limit.last_request end
      returning count`),
  );
  return Number(row!.count) <= max;
}
