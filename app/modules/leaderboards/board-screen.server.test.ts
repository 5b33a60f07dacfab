import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { boardWindowParam, loadBoard, redirectPastLastPage } from "./board-screen.server";
import { awardXp, setLeaderboardVisibility } from "./leaderboards.server";
import { setLeaderboardDisplayName } from "./member-stats.server";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(Array.from({ length: 60 }, (_, i) => ({ id: `m${i}`, email: `m${i}@example.com`, name: `Member ${i}` })));
  // The projects the awards count in (their XP events name them).
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
  // m0 has the most XP, m59 the least.
  for (let i = 0; i < 60; i++) {
    await awardXp({ db: database.db, award: { userId: `m${i}`, projectId: "p", sourceType: "test", sourceId: `s${i}`, amount: 1000 - i * 10 } });
  }
});
afterAll(() => database.close());

describe("a board screen", () => {
  it("reads the window from the URL", () => {
    expect(boardWindowParam(new URL("http://x/leaderboard?window=7d"))).toBe("7d");
    expect(boardWindowParam(new URL("http://x/leaderboard?window=week"))).toBe("all");
  });

  it("shows a page, and the viewer's rank with neighbours below it when they are further down", async () => {
    const view = await loadBoard({ db: database.db, scope: { kind: "global" }, window: "all", page: 1, userId: "m55" });
    expect(view.board.rows).toHaveLength(50);
    expect(view.board.hasMore).toBe(true);
    expect(view.board.mine).toEqual({ rank: 56, score: 450 });
    expect(view.board.around.map((r) => r.rank)).toEqual([54, 55, 56, 57, 58]);
    expect(view.hidden).toBe(false);
  });

  it("puts a hidden viewer back among their neighbours, for them only", async () => {
    await setLeaderboardVisibility({ db: database.db, userId: "m55", visible: false });
    await setLeaderboardDisplayName({ db: database.db, userId: "m55", displayName: "Quiet One" });
    const own = await loadBoard({ db: database.db, scope: { kind: "global" }, window: "all", page: 1, userId: "m55" });
    expect(own.hidden).toBe(true);
    expect(own.board.mine).toEqual({ rank: 56, score: 450 });
    expect(own.board.around.map((r) => [r.rank, r.userId])).toEqual([
      [54, "m53"],
      [55, "m54"],
      [56, "m55"],
      [56, "m56"],
      [57, "m57"],
    ]);
    expect(own.board.around[2]!.name).toBe("Quiet One");
    const second = await loadBoard({ db: database.db, scope: { kind: "global" }, window: "all", page: 2, userId: "m0" });
    expect(second.board.rows.some((r) => r.userId === "m55")).toBe(false);
  });

  it("sends a page past the end back to the first page, keeping the window", () => {
    expect(() => redirectPastLastPage(new URL("http://x/leaderboard?window=7d&page=9"), 9, 0)).toThrow();
    try {
      redirectPastLastPage(new URL("http://x/leaderboard?window=7d&page=9"), 9, 0);
    } catch (response) {
      expect((response as Response).headers.get("Location")).toBe("/leaderboard?window=7d");
    }
    expect(redirectPastLastPage(new URL("http://x/leaderboard?page=2"), 2, 3)).toBeUndefined();
  });
});
