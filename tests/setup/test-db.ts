import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "~/lib/db.server";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server named by DATABASE_URL (dropped again on close).
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openDatabase({ dataDir: null });

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
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}
