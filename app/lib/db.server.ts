import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as airdropSchema from "#db/schema/airdrops";
import * as authSchema from "#db/schema/auth";
import * as mailSchema from "#db/schema/mail";
import * as walletSchema from "#db/schema/wallets";
import * as projectSchema from "#db/schema/projects";
import * as questSchema from "#db/schema/quests";
import * as ledgerSchema from "#db/schema/ledger";
import * as rewardSchema from "#db/schema/rewards";
import * as xpSchema from "#db/schema/xp";
import * as socialSchema from "#db/schema/social";

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
};
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of a raw `db.execute(sql…)` result, which PGlite gives as an array and node-postgres as `{ rows }`. */
export const rowsOf = (result: unknown): Record<string, unknown>[] =>
  Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs a trivial query; throws when the database does not answer. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

/**
 * Opens the database: a PostgreSQL server when `databaseUrl` is set, otherwise PGlite in
 * `dataDir` (or in memory when `dataDir` is null). Migrations are applied before it is returned.
 */
export async function openDatabase({
  databaseUrl,
  dataDir,
  onConnectionError = () => {},
}: {
  databaseUrl?: string;
  dataDir: string | null;
  /** An idle pooled connection failed (server restart, network): the pool replaces it. */
  onConnectionError?: (error: Error) => void;
}): Promise<Database> {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    pool.on("error", onConnectionError);
    // A connection dropped while checked out (mid-transaction) emits `error` too, and the pool only
    // listens on idle ones: its query already fails with the error, so report it, do not crash.
    pool.on("connect", (client) => client.on("error", onConnectionError));
    const db = drizzlePg(pool, { schema, casing: "snake_case" });
    await migratePg(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: "postgres",
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, "pglite");
    mkdirSync(dataDir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = new PGlite();
  }
  const db = drizzlePglite(client, { schema, casing: "snake_case" });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    ping: async () => void (await client.query("select 1")),
    close: () => client.close(),
  };
}
