import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/lib/db.server";

/**
 * Vitest's global setup: one migrated database for the whole run, that each test file's database
 * starts from (tests/setup/test-db.ts) instead of migrating its own — on PGlite, a copy of its data
 * folder in a file (an empty PGlite with every migration takes seconds, a copy about one); on
 * PostgreSQL, a template database that `create database … template` copies. Both are named by a
 * hash of db/migrations, so a changed migration makes a new one.
 */
declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite copy's file, when the run is on PGlite. */
    pgliteTemplateFile: string | null;
    /** The same copy as a closed PGlite data folder, for a database a child process opens too. */
    pgliteTemplateFolder: string | null;
    /** The migrated template database's name, when DATABASE_URL names a server. */
    postgresTemplate: string | null;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
const migrationsDir = path.join(root, "db/migrations");

function migrationsHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(path.relative(migrationsDir, file)).update("\0").update(readFileSync(file)).update("\0");
    }
  };
  walk(migrationsDir);
  return hash.digest("hex").slice(0, 16);
}

async function pgliteTemplate(hash: string): Promise<string> {
  const dir = path.join(root, "node_modules/.cache/questline");
  const file = path.join(dir, `pglite-migrated-${hash}.tar`);
  try {
    statSync(file);
    return file;
  } catch {
    // Made below.
  }
  const database = await openDatabase({ dataDir: null });
  try {
    const { pglite } = database.jobConnection as { pglite: { dumpDataDir: (compression: "none") => Promise<Blob> } };
    const copy = await pglite.dumpDataDir("none");
    mkdirSync(dir, { recursive: true });
    // Written whole, then renamed: a run started beside this one never reads half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await copy.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await database.close();
  }
  return file;
}

/**
 * The migrated copy as a PGlite data folder, opened once and closed: a test's folder for a child
 * process (tests/setup/test-db.ts, `sharedDatabase`) is a plain copy of it. Loading the copy's file
 * into a new folder writes it file by file through PGlite, seconds on a busy machine.
 */
async function pgliteTemplateFolder(file: string, hash: string): Promise<string> {
  const folder = path.join(path.dirname(file), `pglite-migrated-${hash}.folder`);
  if (existsSync(folder)) return folder;
  const partial = `${folder}.${process.pid}`;
  const database = await openDatabase({ dataDir: partial, startFrom: new Blob([readFileSync(file)]) });
  await database.close();
  // Renamed once closed: a run started beside this one never copies half a folder (and may have made it first).
  try {
    renameSync(partial, folder);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(folder)) throw error;
  }
  return folder;
}

async function postgresTemplate(serverUrl: string, hash: string): Promise<string> {
  const name = `questline_template_${hash}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (rows.length > 0) return name;
    const building = `${name}_${process.pid}`;
    await admin.query(`create database ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null, readLanes: 0 });
    await database.close();
    // Renamed once migrated: a half-built template is never copied. A run beside this one may have
    // made it first; then that one is used.
    await admin.query(`alter database ${building} rename to ${name}`).catch(async (error: unknown) => {
      await admin.query(`drop database ${building}`);
      const { rows: made } = await admin.query("select 1 from pg_database where datname = $1", [name]);
      if (made.length === 0) throw error;
    });
    return name;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  const serverUrl = process.env.DATABASE_URL;
  project.provide("postgresTemplate", serverUrl ? await postgresTemplate(serverUrl, hash) : null);
  const file = serverUrl ? null : await pgliteTemplate(hash);
  project.provide("pgliteTemplateFile", file);
  project.provide("pgliteTemplateFolder", file ? await pgliteTemplateFolder(file, hash) : null);
}
