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
 * run's migrated copy; on PGlite it may be one an earlier file of the worker closed as it found it,
 * emptied (`pgliteDatabase`). `unused: true` asks for one no file used before: for a test that
 * reads the server's cumulative statistics, which an earlier file's rows may still be reaching.
 */
export async function createTestDatabase({ unused = false }: { unused?: boolean } = {}): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return pgliteDatabase({ unused });
  const fresh = await createPostgresDatabase(serverUrl, inject("postgresTemplate") ?? undefined);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: null });
  pool.fresh ??= await freshContentsOf(database.db);
  return {
    ...database,
    close: async () => {
      await database.close();
      await fresh.drop();
    },
  };
}

/**
 * PGlite databases that earlier test files of this worker closed, emptied, for the next file:
 * loading the migrated copy costs about 0.35 s of CPU on an idle machine and 1.5–6 s on a busy
 * one, emptying one about 0.06 s. Kept on `globalThis`, which outlives a re-imported module.
 */
const pool: { idle: Database[]; freshState?: string; fresh?: FreshContents } = ((
  globalThis as { questlineTestDatabases?: typeof pool }
).questlineTestDatabases ??= {
  idle: [],
});

/**
 * What a test file could leave behind in a database besides its rows: its schema objects (tables,
 * columns, functions and their code, triggers on or off, constraints, schemas, roles), settings
 * changed for the session, temporary tables, advisory locks and an open transaction. A database is
 * handed to the next file only if all of this is as it was when it was opened.
 */
async function stateOf(db: Db): Promise<string> {
  const [row] = rowsOf(
    await db.execute(sql`select md5(concat_ws('|',
      (select string_agg(format('%s:%s:%s:%s', c.oid, c.relname, c.relkind, c.relnamespace), ',' order by c.oid) from pg_class c
        where c.relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)),
      (select string_agg(format('%s:%s:%s:%s:%s:%s', a.attrelid, a.attname, a.atttypid, a.attnotnull, a.atthasdef, a.attisdropped), ',' order by a.attrelid, a.attnum)
        from pg_attribute a join pg_class c on c.oid = a.attrelid where c.relnamespace = 'public'::regnamespace and a.attnum > 0),
      (select string_agg(format('%s:%s', p.oid, md5(coalesce(p.prosrc, ''))), ',' order by p.oid) from pg_proc p
        where p.pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)),
      (select string_agg(format('%s:%s', t.oid, t.tgenabled), ',' order by t.oid) from pg_trigger t),
      (select string_agg(format('%s:%s', k.oid, k.convalidated), ',' order by k.oid) from pg_constraint k where k.connamespace = 'public'::regnamespace),
      (select string_agg(format('%s:%s', n.oid, n.nspname), ',' order by n.oid) from pg_namespace n),
      (select string_agg(r.rolname, ',' order by r.rolname) from pg_roles r),
      (select string_agg(format('%s=%s', s.name, s.setting), ',' order by s.name) from pg_settings s where s.source <> 'default'),
      (select count(*) from pg_locks l where l.locktype = 'advisory'),
      now() = statement_timestamp()
    )) as state`),
  );
  return String(row!.state);
}

/** A migrated in-memory PGlite: one an earlier file of this worker left as it found it, emptied, or a new one. */
async function pgliteDatabase({ unused }: { unused: boolean }): Promise<Database> {
  let database = unused ? undefined : pool.idle.pop();
  if (!database) {
    database = await openDatabase({ dataDir: null, startFrom: migratedPglite() });
    // A fresh database's fingerprint and contents, taken from the first this worker opens.
    pool.freshState ??= await stateOf(database.db);
    pool.fresh ??= await freshContentsOf(database.db);
  }
  const own = database;
  let closed = false;
  // Closed for its file, as a database of its own would be, though the next file may get it.
  const alive = () => {
    if (closed) throw new Error("This test file's database was closed");
  };
  return {
    ...own,
    db: new Proxy(own.db, {
      get: (target, property, receiver) => {
        alive();
        return Reflect.get(target, property, receiver) as unknown;
      },
    }),
    ping: async () => {
      alive();
      await own.ping();
    },
    exclusively: (fn) => {
      alive();
      return own.exclusively(fn);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      // Emptied now, so that nothing of this file's rows reaches the next one; if anything else
      // changed (or the database no longer answers), closed for good instead.
      let reusable = false;
      try {
        if (pool.idle.length < 2 && (await stateOf(own.db)) === pool.freshState) {
          await emptyTestDatabase(own.db);
          reusable = true;
        }
      } catch {
        // It no longer answers as it should: closed below.
      }
      if (reusable) pool.idle.push(own);
      else await own.close();
    },
  };
}

/**
 * What a fresh database holds besides its schema: the rows the migrations put in (xp_window_state's
 * one row) and its sequences' positions, as `emptyTestDatabase` puts them back. Read from the first
 * fresh database of the worker.
 */
type FreshContents = { rows: Record<string, unknown>; sequences: Record<string, unknown> };

async function freshContentsOf(db: Db): Promise<FreshContents> {
  const [row] = rowsOf(
    await db.execute(sql`select
      (select coalesce(json_object_agg(format('%I.%I', schemaname, sequencename), last_value), '{}') from pg_sequences
        where schemaname = 'public' and last_value is not null) as sequences,
      (select coalesce(json_agg(format('%I.%I', schemaname, tablename)), '[]') from pg_tables where schemaname = 'public') as tables`),
  );
  const rows: Record<string, unknown> = {};
  for (const table of row!.tables as string[]) {
    const [held] = rowsOf(await db.execute(sql.raw(`select json_agg(t) as rows from ${table} t`)));
    if (held?.rows) rows[table] = held.rows;
  }
  return { rows, sequences: row!.sequences as Record<string, unknown> };
}

/**
 * Empties a test file's database between its tests, as a fresh one would be: every row of the
 * app's tables (schema `public`) deleted, the rows the migrations put in put back, the sequences
 * where they started, in one statement, with the tables' own triggers (the ledger's immutability)
 * and foreign-key checks off for that statement only. For a file whose tests each need an empty
 * database: opening one costs about 0.35 s of CPU on an idle machine and 1.5–6 s on a busy one
 * (loading the migrated copy), this about 0.06 s. The database must come from `createTestDatabase`.
 */
export async function emptyTestDatabase(db: Db): Promise<void> {
  if (!pool.fresh) throw new Error("emptyTestDatabase: the database does not come from createTestDatabase");
  const { rows, sequences } = pool.fresh;
  // Dollar-quoted: the JSON needs no escaping (no key or value of it holds "$fresh$").
  const literal = (value: unknown) => `$fresh$${JSON.stringify(value)}$fresh$::json`;
  await db.execute(
    sql.raw(`do $$
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
      for item in select key, value from json_each(${literal(rows)}) loop
        execute format('insert into %s overriding system value select * from json_populate_recordset(null::%s, %L)', item.key, item.key, item.value);
      end loop;
      for item in select key, value from json_each_text(${literal(sequences)}) loop
        perform setval(item.key, item.value::bigint, true);
      end loop;
    end
  $$`),
  );
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
