// The database's SQL functions (questline_*) keep their current source in db/functions/<name>.sql.
//
//   npm run db:functions   compares each file with what the migrations install (a fresh PGlite)
//                          and, when some differ, writes a migration that installs them
//                          (drizzle-kit generate --custom, then the files' SQL in it).
//
// scripts/db-functions.test.ts fails while a file and the migrations disagree.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type Db } from "../app/lib/db.server.ts";

const root = path.resolve(import.meta.dirname, "..");
const FUNCTIONS_DIR = path.join(root, "db/functions");

export type FunctionSource = {
  name: string;
  file: string;
  /** The whole file: a `CREATE OR REPLACE FUNCTION` statement and its comments. */
  statement: string;
  /** What stands between the `$$` quotes: PostgreSQL keeps it as written (`pg_proc.prosrc`). */
  body: string;
  /** `SET name = value` clauses, as `pg_proc.proconfig` lists them (`name=value`). */
  settings: string[];
};

/** Every file of db/functions, read and taken apart. */
export function functionSources(): FunctionSource[] {
  return readdirSync(FUNCTIONS_DIR)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const statement = readFileSync(path.join(FUNCTIONS_DIR, file), "utf8");
      const name = /CREATE OR REPLACE FUNCTION (\w+)\(/.exec(statement)?.[1];
      const open = statement.indexOf("AS $$");
      const close = statement.lastIndexOf("$$");
      if (!name || open < 0 || close <= open) throw new Error(`db/functions/${file}: expected one CREATE OR REPLACE FUNCTION … AS $$ … $$ statement`);
      if (`${name}.sql` !== file) throw new Error(`db/functions/${file} defines ${name}: name the file after its function`);
      const settings = [...statement.slice(0, open).matchAll(/^SET (\w+) = (\w+)$/gm)].map(([, key, value]) => `${key}=${value}`);
      return { name, file, statement, body: statement.slice(open + "AS $$".length, close), settings };
    });
}

/** The questline_* functions as a database holds them. */
async function installedFunctions(db: Db) {
  const rows = rowsOf(
    await db.execute(sql`select p.proname as name, p.prosrc as body, coalesce(p.proconfig, '{}') as settings
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.proname like 'questline\\_%'`),
  );
  return new Map(rows.map((r) => [String(r.name), { body: String(r.body), settings: (r.settings as string[]).map(String) }]));
}

/** What disagrees between db/functions and a migrated database, in words (empty when nothing). */
export async function functionDrift(db: Db): Promise<{ changed: FunctionSource[]; problems: string[] }> {
  const installed = await installedFunctions(db);
  const sources = functionSources();
  const changed = sources.filter((source) => {
    const current = installed.get(source.name);
    return !current || current.body !== source.body || current.settings.join(",") !== source.settings.join(",");
  });
  const problems = [
    ...changed.map((source) => `db/functions/${source.file} is not what the migrations install`),
    ...[...installed.keys()].filter((name) => !sources.some((s) => s.name === name)).map((name) => `${name} has no source in db/functions/`),
  ];
  return { changed, problems };
}

async function main() {
  const database = await openDatabase({ dataDir: null });
  let changed: FunctionSource[];
  try {
    ({ changed } = await functionDrift(database.db));
  } finally {
    await database.close();
  }
  if (changed.length === 0) {
    console.log("Every function in db/functions/ is installed by the migrations as written.");
    return;
  }
  const before = new Set(readdirSync(path.join(root, "db/migrations")));
  execFileSync("npx", ["drizzle-kit", "generate", "--custom", "--name", "functions"], { cwd: root, stdio: "inherit" });
  const created = readdirSync(path.join(root, "db/migrations")).find((file) => file.endsWith(".sql") && !before.has(file));
  if (!created) throw new Error("drizzle-kit wrote no migration");
  writeFileSync(path.join(root, "db/migrations", created), changed.map((source) => source.statement.trim()).join("\n--> statement-breakpoint\n") + "\n");
  console.log(`db/migrations/${created} installs ${changed.map((source) => source.name).join(", ")}.`);
}

if (import.meta.main) await main();
