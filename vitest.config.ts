import { globSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const TEST_FILES = ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "contracts/**/*.test.ts", "scripts/**/*.test.ts"];

/**
 * With DATABASE_URL (the PostgreSQL pass, `npm run test:postgres`), only the files that open a
 * database: the others do not depend on which one it is, and the PGlite pass has run them.
 */
function databaseTestFiles() {
  return TEST_FILES.flatMap((pattern) => globSync(pattern)).filter((file) =>
    /test-db|test-services|DATABASE_URL|openDatabase/.test(readFileSync(file, "utf8")),
  );
}

export default defineConfig({
  resolve: {
    alias: { "~": new URL("./app", import.meta.url).pathname, "#db": new URL("./db", import.meta.url).pathname },
  },
  test: {
    include: process.env.DATABASE_URL ? databaseTestFiles() : TEST_FILES,
    environment: "node",
    // A limit for a test that hangs, not a speed check: the fault tests start app processes of
    // their own, which take long on a busy two-core machine running two suites at once.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: one database-heavy file at a time per core.
    maxWorkers: 2,
    // A worker runs file after file in one module graph instead of importing the app afresh for
    // each: half the suite's CPU time. Files keep to their own database and state (decision 049).
    isolate: false,
    // One migrated database per run, that each file's database starts from.
    globalSetup: ["tests/setup/database-templates.ts"],
  },
});
