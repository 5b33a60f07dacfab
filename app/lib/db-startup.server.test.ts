import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { project } from "#db/schema/projects";
import { seedDemo } from "~/modules/demo/seed.server";
import { createPostgresDatabase } from "#tests/setup/test-db";
import { openDatabase } from "./db.server";

/** Processes starting together on one fresh PostgreSQL database: one migrates, one seeds, none fails. */
describe.skipIf(!process.env.DATABASE_URL)("starting several processes on one fresh PostgreSQL database", () => {
  it("migrates and seeds exactly once, however many open it at the same moment", async () => {
    const fresh = await createPostgresDatabase(process.env.DATABASE_URL!);
    try {
      // Each opening has its own pool, as separate processes would.
      const databases = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl: fresh.url, dataDir: null })));
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
      await fresh.drop();
    }
  }, 120_000);
});
