// A reward-job process for the SIGKILL fault test: opens the database named by CHILD_DATABASE_URL
// (PostgreSQL) or CHILD_PGLITE_DIR (a PGlite data folder), runs the distribution job once at
// CHILD_NOW and exits. With CHILD_STALL_POOL set, the job stops dead inside the transaction of
// that pool's grant batch number CHILD_STALL_BATCH (from 0) right after its entry is posted,
// prints `stalled after grant batch <n> of <pool>` and waits there: the test kills it with SIGKILL.
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { z } from "zod";
import { openDatabase, type Db } from "../../app/lib/db.server.ts";
import { ledgerKey } from "../../app/modules/ledger/keys.ts";
import { distributeEndedCampaigns } from "../../app/modules/rewards/distribute.server.ts";

const env = z
  .object({
    CHILD_DATABASE_URL: z.string().optional(),
    CHILD_PGLITE_DIR: z.string().optional(),
    CHILD_NOW: z.iso.datetime(),
    CHILD_STALL_POOL: z.string().optional(),
    CHILD_STALL_BATCH: z.coerce.number().int().min(0).default(0),
  })
  .parse(process.env);

const dialect = new PgDialect();
const stallPrefix = env.CHILD_STALL_POOL ? ledgerKey.poolGrants(env.CHILD_STALL_POOL, "") : null;
let batchesPosted = 0;

/** The posting key of a raw `questline_post(…)` statement, or null for any other statement. */
function postingKey(query: unknown): string | null {
  if (!(query && typeof query === "object" && "queryChunks" in query)) return null;
  const { sql: text, params } = dialect.sqlToQuery(query as SQL);
  return text.includes("questline_post(") && typeof params[0] === "string" ? params[0] : null;
}

/** A transaction handle whose `execute` stops for good once the stall batch has been posted. */
function watchedTransaction(tx: Db): Db {
  return new Proxy(tx, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === "execute") {
        return async (query: SQL) => {
          const result = await target.execute(query);
          const key = postingKey(query);
          if (key !== null && stallPrefix !== null && key.startsWith(stallPrefix) && batchesPosted++ === env.CHILD_STALL_BATCH) {
            console.log(`stalled after grant batch ${env.CHILD_STALL_BATCH} of ${env.CHILD_STALL_POOL}`);
            // The event loop stays alive (the interval), the transaction stays open: nothing more happens.
            await new Promise(() => setInterval(() => undefined, 60_000));
          }
          return result;
        };
      }
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The database handle the job gets: its transactions are watched. */
function watched(db: Db): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "transaction") {
        return (run: (tx: Db) => Promise<unknown>, config?: unknown) =>
          (target.transaction as (fn: (tx: Db) => Promise<unknown>, c?: unknown) => Promise<unknown>)((tx) => run(watchedTransaction(tx)), config);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const database = await openDatabase({ databaseUrl: env.CHILD_DATABASE_URL, dataDir: env.CHILD_PGLITE_DIR ?? null });
await database.db.execute(sql`select 1`);
console.log("job starting");
const db = stallPrefix ? watched(database.db) : database.db;
const summary = await distributeEndedCampaigns({
  db,
  now: new Date(env.CHILD_NOW),
  onPoolError: (poolId, error) => console.error("pool failed", poolId, error),
});
console.log("job done", JSON.stringify(summary));
await database.close();
