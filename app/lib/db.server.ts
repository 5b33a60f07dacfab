import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import * as airdropSchema from "#db/schema/airdrops";
import * as authSchema from "#db/schema/auth";
import * as chainSchema from "#db/schema/chain";
import * as mailSchema from "#db/schema/mail";
import * as walletSchema from "#db/schema/wallets";
import * as projectSchema from "#db/schema/projects";
import * as questSchema from "#db/schema/quests";
import * as ledgerSchema from "#db/schema/ledger";
import * as rewardSchema from "#db/schema/rewards";
import * as xpSchema from "#db/schema/xp";
import * as socialSchema from "#db/schema/social";
import * as trustSchema from "#db/schema/trust";
import * as reachSchema from "#db/schema/reach";
import { lockFolder } from "./folder-lock.server";
import type { JobConnection } from "./job-engine.server";
import { poolWithReadLanes } from "./read-lanes.server";

export const schema = {
  ...authSchema,
  ...mailSchema,
  ...walletSchema,
  ...xpSchema,
  ...projectSchema,
  ...questSchema,
  ...rewardSchema,
  ...ledgerSchema,
  ...airdropSchema,
  ...socialSchema,
  ...chainSchema,
  ...trustSchema,
  ...reachSchema,
};
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of a raw `db.execute(sql…)` result, which PGlite gives as an array and node-postgres as `{ rows }`. */
export const rowsOf = (result: unknown): Record<string, unknown>[] =>
  Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);

/**
 * A statement built once per database handle and run as a named prepared statement: Drizzle builds
 * its SQL once, PostgreSQL parses and plans it once per connection, and each run only binds its
 * values (`sql.placeholder`). A transaction's handle prepares anew.
 */
export function preparedPerDb<S>(build: (db: Db) => S): (db: Db) => S {
  const statements = new WeakMap<Db, S>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) statements.set(db, (statement = build(db)));
    return statement;
  };
}

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs a trivial query; throws when the database does not answer. */
  ping: () => Promise<void>;
  /**
   * Runs `fn` while no other process runs startup work on this database (migrations, the demo
   * seed, the local chain's contracts): on PostgreSQL under a session advisory lock on one
   * connection, which `fn` gets; on PGlite, whose data folder is this process's alone, one call after
   * another within the process.
   */
  exclusively: <T>(fn: (db: Db) => Promise<T>) => Promise<T>;
  /** How the job engine reaches this database. */
  jobConnection: JobConnection;
  close: () => Promise<void>;
};

const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

/** The advisory lock key processes starting on one PostgreSQL database take turns on. */
const STARTUP_LOCK = 0x5175_6573_74;

/**
 * Opens the database: a PostgreSQL server when `databaseUrl` is set, otherwise PGlite in
 * `dataDir` (or in memory when `dataDir` is null). Migrations are applied before it is returned.
 */
export async function openDatabase({
  databaseUrl,
  dataDir,
  readLanes = 2,
  onConnectionError = () => {},
  startFrom,
}: {
  databaseUrl?: string;
  dataDir: string | null;
  /**
   * PGlite only: a copy of a database (`dumpDataDir`) to start an empty one from instead of an
   * empty cluster; the migrations then apply only what the copy lacks. The tests start each file's
   * database from one migrated copy (tests/setup/test-db.ts).
   */
  startFrom?: Blob;
  /** On PostgreSQL: how many pipelined read-only connections one-shot reads share (0: none). */
  readLanes?: number;
  /** An idle pooled connection failed (server restart, network): the pool replaces it. */
  onConnectionError?: (error: Error) => void;
}): Promise<Database> {
  if (databaseUrl) {
    // One-shot reads share pipelined connections (decision 035); transactions and writes take the
    // pool's own. With the 2 lanes of the default, 8 + 2 connections: as many as the pool alone.
    const pool = poolWithReadLanes({ connectionString: databaseUrl, max: readLanes > 0 ? 8 : 10 }, { lanes: readLanes, onConnectionError });
    pool.on("error", onConnectionError);
    // A connection dropped while checked out (mid-transaction) emits `error` too, and the pool only
    // listens on idle ones: its query already fails with the error, so report it, do not crash.
    pool.on("connect", (client) => client.on("error", onConnectionError));
    const db = drizzlePg(pool, { schema, casing: "snake_case" });
    const exclusively = async <T>(fn: (db: Db) => Promise<T>) => {
      // A session lock, held by one connection for the whole of `fn`; a process that dies drops it with its connection.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK]);
        return await fn(drizzlePg(client, { schema, casing: "snake_case" }) as unknown as Db);
      } finally {
        await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK]).catch(() => undefined);
        client.release();
      }
    };
    // Processes started together against a fresh database: exactly one applies the migrations, the others then find them applied.
    try {
      await exclusively((locked) => migratePg(locked as unknown as typeof db, { migrationsFolder }));
    } catch (error) {
      await pool.end();
      throw error;
    }
    return {
      db: db as unknown as Db,
      kind: "postgres",
      ping: async () => void (await db.execute(sql`select 1`)),
      exclusively,
      jobConnection: { connectionString: databaseUrl },
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  let release = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    // PGlite's folder is one process's alone: a second one opening it would leave it unusable.
    release = lockFolder(dataDir);
    client = new PGlite(path.join(dataDir, "pglite"), { loadDataDir: startFrom });
  } else {
    client = new PGlite({ loadDataDir: startFrom });
  }
  const db = drizzlePglite(client, { schema, casing: "snake_case" });
  try {
    await migratePglite(db, { migrationsFolder });
  } catch (error) {
    await client.close().catch(() => undefined);
    release();
    throw error;
  }
  let turn: Promise<unknown> = Promise.resolve();
  return {
    db: db as unknown as Db,
    kind: "pglite",
    ping: async () => void (await client.query("select 1")),
    exclusively: <T>(fn: (db: Db) => Promise<T>) => {
      const mine = turn.catch(() => undefined).then(() => fn(db as unknown as Db));
      turn = mine;
      return mine;
    },
    jobConnection: { pglite: client },
    close: async () => {
      await client.close();
      release();
    },
  };
}
