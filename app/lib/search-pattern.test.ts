import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { containsPattern } from "./search-pattern";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Whether the database finds `text` in `value` through the pattern, as the searches ask it. */
async function matches(text: string, value: string) {
  const [row] = rowsOf(await database.db.execute(sql`select ${value}::text ilike ${containsPattern(text)} as hit`));
  return row?.hit;
}

describe("containsPattern", () => {
  it("finds the text anywhere, in any case", async () => {
    expect(await matches("quest", "The Big QUEST week")).toBe(true);
    expect(await matches("quest", "Questline")).toBe(true);
    expect(await matches("quest", "Crusade")).toBe(false);
  });

  it("takes %, _ and \\ as themselves", async () => {
    expect(await matches("50%", "Win 50% more")).toBe(true);
    expect(await matches("50%", "Win 500 more")).toBe(false);
    expect(await matches("a_b", "a_b")).toBe(true);
    expect(await matches("a_b", "axb")).toBe(false);
    expect(await matches("a\\b", "a\\b")).toBe(true);
    expect(await matches("a\\b", "ab")).toBe(false);
  });
});
