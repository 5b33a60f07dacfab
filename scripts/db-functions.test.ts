import { sql } from "drizzle-orm";
import { TransactionRollbackError } from "drizzle-orm/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { functionDrift, functionSources } from "./db-functions";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("db/functions", () => {
  it("hold every questline_* function exactly as the migrations install it (else: npm run db:functions)", async () => {
    expect(functionSources().map((source) => source.name)).toContain("questline_post");
    expect((await functionDrift(database.db)).problems).toEqual([]);
  });

  it("notice a function whose installed source differs from its file", async () => {
    // Changed inside a transaction that is rolled back: the database keeps its function.
    const changed = database.db.transaction(async (tx) => {
      await tx.execute(sql.raw("create or replace function questline_ledger_immutable() returns trigger language plpgsql as $$ begin return null; end $$"));
      expect((await functionDrift(tx)).problems).toEqual(["db/functions/questline_ledger_immutable.sql is not what the migrations install"]);
      tx.rollback();
    });
    await expect(changed).rejects.toBeInstanceOf(TransactionRollbackError);
    expect((await functionDrift(database.db)).problems).toEqual([]);
  });
});
