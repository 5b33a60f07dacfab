import { randomBytes } from "node:crypto";
import pg from "pg";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { project } from "#db/schema/projects";
import { seedDemo } from "~/modules/demo/seed.server";
import { openDatabase } from "./db.server";

/** Processes starting together on one fresh PostgreSQL database: one migrates, one seeds, none fails. */
describe.skipIf(!process.env.DATABASE_URL)("starting several processes on one fresh PostgreSQL database", () => {
  it("migrates and seeds exactly once, however many open it at the same moment", async () => {
    const serverUrl = process.env.DATABASE_URL!;
    const name = `questline_startup_${randomBytes(6).toString("hex")}`;
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
    try {
      // Each opening has its own pool, as separate processes would.
      const databases = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url.toString(), dataDir: null })));
      try {
        const seeded = await Promise.all(databases.map((database) => database.exclusively((db) => seedDemo({ db }))));
        const first = seeded.filter((s) => s.seeded);
        expect(first).toHaveLength(1);
        const [row] = await databases[0]!.db.select({ n: count() }).from(project);
        expect(row?.n).toBe(first[0]!.projects);
      } finally {
        await Promise.all(databases.map((database) => database.close()));
      }
    } finally {
      await admin(`drop database if exists ${name} with (force)`);
    }
  }, 120_000);
});
