import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { BOT_CALLS_PER_HOUR, takeBotCall } from "./bot-calls.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("a project's calls to its bots from its pages", () => {
  it("allows an hour's worth per project, then refuses in words until the hour has passed, without touching another project's", async () => {
    const now = new Date("2026-11-29T12:00:00Z");
    for (let i = 0; i < BOT_CALLS_PER_HOUR; i++) expect(await takeBotCall({ db: database.db, projectId: "p", now })).toEqual({ ok: true });
    expect(await takeBotCall({ db: database.db, projectId: "p", now })).toMatchObject({
      ok: false,
      code: "limited",
      message: expect.stringMatching(/^Too many saves and checks of this project's bots: try again in \d+ min\.$/),
    });
    expect(await takeBotCall({ db: database.db, projectId: "q", now })).toEqual({ ok: true });
    expect(await takeBotCall({ db: database.db, projectId: "p", now: new Date(now.getTime() + 3_601_000) })).toEqual({ ok: true });
  });
});
