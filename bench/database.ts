// The database a benchmark runs on: a fresh database on the PostgreSQL server named by
// DATABASE_URL (dropped afterwards), or in-memory PGlite when DATABASE_URL is unset.

import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "../app/lib/db.server.ts";

async function admin(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

/**
 * Runs `run` on a fresh, migrated database; `url` is its connection string on PostgreSQL (for
 * benchmarks that open more connections), null on PGlite.
 */
export async function withBenchDatabase<T>(run: (database: Database, url: string | null) => Promise<T>): Promise<T> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return run(await openDatabase({ dataDir: null }), null);
  const name = `questline_bench_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  try {
    return await run(database, url.toString());
  } finally {
    await database.close();
    await admin(serverUrl, `drop database if exists ${name} with (force)`);
  }
}
