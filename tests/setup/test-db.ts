import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, rowsOf, type Database, type Db } from "~/lib/db.server";

/** The run's migrated PGlite copy (tests/setup/database-templates.ts), read once per test file. */
let pgliteCopy: Blob | undefined;
function migratedPglite(): Blob | undefined {
  const file = inject("pgliteTemplateFile");
  if (file && !pgliteCopy) pgliteCopy = new Blob([readFileSync(file)]);
  return pgliteCopy;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server named by DATABASE_URL (dropped again on close). Either starts from the
 * run's migrated copy.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openDatabase({ dataDir: null, startFrom: migratedPglite() });
  const fresh = await createPostgresDatabase(serverUrl, inject("postgresTemplate") ?? undefined);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: null });
  return {
    ...database,
    close: async () => {
      await database.close();
      await fresh.drop();
    },
  };
}

/**
 * Empties a test file's database between its tests, as a fresh one would be: every row of the
 * app's tables (schema `public`) deleted and their sequences restarted, in one statement, with the
 * tables' own triggers (the ledger's immutability) and foreign-key checks off for that statement
 * only. For a file whose tests each need an empty database: opening one costs about 0.35 s of CPU
 * on an idle machine and 1.5–6 s on a busy one (loading the migrated copy), this about 0.06 s.
 */
export async function emptyTestDatabase(db: Db): Promise<void> {
  await db.execute(sql`do $$
    declare
      item record;
    begin
      perform set_config('session_replication_role', 'replica', true);
      for item in select schemaname, tablename from pg_tables where schemaname = 'public' loop
        execute format('delete from %I.%I', item.schemaname, item.tablename);
      end loop;
      for item in select schemaname, sequencename from pg_sequences where schemaname = 'public' loop
        execute format('alter sequence %I.%I restart', item.schemaname, item.sequencename);
      end loop;
    end
  $$`);
}

/**
 * A new database on the PostgreSQL server at `serverUrl`, empty or a copy of `template`: its URL,
 * and how to drop it again.
 */
export async function createPostgresDatabase(serverUrl: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `questline_test_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** A database a child process can open too, handed over while the child runs. */
export type SharedDatabase = {
  db: Db;
  /** What the child is told: `CHILD_DATABASE_URL`, or `CHILD_PGLITE_DIR`. */
  env: Record<string, string>;
  /** Before the child starts: PGlite lets one process at a time open its folder. */
  handOver: () => Promise<void>;
  /** After the child has ended: the database again, for the checks. */
  takeBack: () => Promise<Db>;
  close: () => Promise<void>;
};

/**
 * The test file's database for a child process: on PostgreSQL, the same database by URL (tagged
 * `applicationName`, so a test can find the child's connections); on PGlite, a folder of its own.
 */
export async function sharedDatabase(database: Database, { applicationName }: { applicationName: string }): Promise<SharedDatabase> {
  if (process.env.DATABASE_URL) {
    const [row] = rowsOf(await database.db.execute(sql`select current_database() as name`));
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${String(row!.name)}`;
    url.searchParams.set("application_name", applicationName);
    return { db: database.db, env: { CHILD_DATABASE_URL: url.toString() }, handOver: async () => {}, takeBack: async () => database.db, close: async () => {} };
  }
  const dir = mkdtempSync(path.join(tmpdir(), `${applicationName}-`));
  // A copy of the run's migrated folder (tests/setup/database-templates.ts), where loading the
  // migrated copy's file into the folder took seconds of CPU on a busy machine.
  const template = inject("pgliteTemplateFolder");
  if (template) cpSync(path.join(template, "pglite"), path.join(dir, "pglite"), { recursive: true });
  let own: Database | null = await openDatabase({ dataDir: dir, startFrom: template ? undefined : migratedPglite() });
  const db = own.db;
  return {
    db,
    env: { CHILD_PGLITE_DIR: dir },
    handOver: async () => {
      await own?.close();
      own = null;
    },
    takeBack: async () => (own = await openDatabase({ dataDir: dir })).db,
    // Also after a failure while the child had it: the failure is the test's to report, not a second close.
    close: async () => {
      await own?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
