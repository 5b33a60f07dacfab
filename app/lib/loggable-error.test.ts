import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "./db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { loggableError, withoutParameters } from "./loggable-error";
import { createLogger } from "./logger.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it("keeps a failed query's database message and drops its SQL and parameters", async () => {
  const failed = await database.db.execute(sql`select ${"secret-token-value"}::int`).catch((error: unknown) => error);
  expect(String((failed as Error).message)).toContain("secret-token-value");
  const logged = loggableError(failed) as Error;
  expect(logged.name).toBe("DatabaseError");
  expect(logged.message).toMatch(/^Database query failed \(22P02\): invalid input syntax for type integer/);
  expect(`${logged.message}\n${logged.stack}`).not.toContain("secret-token-value");
  expect(`${logged.message}\n${logged.stack}`).not.toContain("select");
  const plain = new Error("plain");
  expect(loggableError(plain)).toBe(plain);
});

it("keeps a failed query's parameters out of the log, whether logged as `err` or quoted in a message", async () => {
  const failed = await database.db.execute(sql`select ${"secret-token-value"}::int`).catch((error: unknown) => error);
  const lines: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
  logger.error({ err: failed }, "a read failed");
  logger.error(withoutParameters((failed as Error).message));
  expect(lines).toHaveLength(2);
  expect(lines.join("\n")).toContain("22P02");
  expect(lines.join("\n")).not.toContain("secret-token-value");
});
