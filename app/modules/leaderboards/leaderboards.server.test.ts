import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { awardXp, boardKey, boardPage, expireWindows, globalRanksOf, naiveRankOf, rankOf, setLeaderboardVisibility, WINDOWS } from "./leaderboards.server";

let database: Database;
const DAY = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db
    .insert(user)
    .values([...Array.from({ length: 40 }, (_, i) => `u${i}`), "g1", "g2"].map((id) => ({ id, email: `${id}@example.com`, name: `Member ${id}` })));
  // The projects the awards count in (their XP events name them).
  await database.db.insert(project).values(["p1", "p2", "p3", "p4", "p5"].map((id) => ({ id, slug: id, name: id })));
});
afterAll(() => database.close());

const award = (userId: string, amount: number, sourceId: string, extra: { projectId?: string; campaignId?: string; at?: Date } = {}) =>
  awardXp({
    db: database.db,
    award: { userId, projectId: extra.projectId ?? "p1", campaignId: extra.campaignId, sourceType: "test", sourceId, amount, at: extra.at },
  });

describe("awarding XP", () => {
  it("pays each source once per member, even when awards race", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => award("u0", 50, "race-1")));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await rankOf({ db: database.db, board: boardKey({ kind: "project", projectId: "p1" }, "all"), userId: "u0" })).toEqual({
      rank: 1,
      score: 50,
    });
  });

  it("refuses zero, negative and fractional amounts", async () => {
    await expect(award("u0", 0, "zero")).rejects.toThrow(RangeError);
    await expect(award("u0", -5, "neg")).rejects.toThrow(RangeError);
    await expect(award("u0", 1.5, "frac")).rejects.toThrow(RangeError);
  });
});

describe("ranks", () => {
  const board = boardKey({ kind: "project", projectId: "p2" }, "all");
  const t0 = Date.now() - 1000_000;

  it("order by score, and ties by who reached the score first", async () => {
    await award("u1", 100, "a1", { projectId: "p2", at: new Date(t0 + 1) });
    await award("u2", 100, "a2", { projectId: "p2", at: new Date(t0 + 2) });
    await award("u3", 150, "a3", { projectId: "p2", at: new Date(t0 + 3) });
    await award("u4", 60, "a4", { projectId: "p2", at: new Date(t0 + 4) });
    await award("u4", 40, "a5", { projectId: "p2", at: new Date(t0 + 5) }); // u4 reaches 100 last

    const page = await boardPage({ db: database.db, board });
    expect(page.map((r) => [r.rank, r.userId, r.score])).toEqual([
      [1, "u3", 150],
      [2, "u1", 100],
      [3, "u2", 100],
      [4, "u4", 100],
    ]);
    for (const row of page) expect(await rankOf({ db: database.db, board, userId: row.userId })).toEqual({ rank: row.rank, score: row.score });
    expect(await rankOf({ db: database.db, board, userId: "u9" })).toBeNull();
  });

  it("of the global boards in one statement, each as read alone; a window without the member's XP is left out", async () => {
    const at = new Date();
    await award("g1", 30, "global-1", { at });
    await award("g2", 20, "global-2", { at });
    await award("g2", 40, "global-3", { at: new Date(at.getTime() - 10 * DAY) });
    for (const userId of ["g1", "g2"]) {
      const ranks = await globalRanksOf({ db: database.db, userId });
      for (const window of WINDOWS)
        expect(ranks.get(window), `${userId} ${window}`).toEqual(
          (await rankOf({ db: database.db, board: boardKey({ kind: "global" }, window), userId })) ?? undefined,
        );
    }
    const ranks = await globalRanksOf({ db: database.db, userId: "g2" });
    expect([ranks.get("all")?.score, ranks.get("30d")?.score, ranks.get("7d")?.score]).toEqual([60, 60, 20]);
    expect(await globalRanksOf({ db: database.db, userId: "u39" })).toEqual(new Map());
  });

  it("hide opted-out members from the board but still tell them their rank", async () => {
    await setLeaderboardVisibility({ db: database.db, userId: "u3", visible: false });
    const page = await boardPage({ db: database.db, board });
    expect(page.map((r) => r.userId)).toEqual(["u1", "u2", "u4"]);
    expect(await rankOf({ db: database.db, board, userId: "u1" })).toEqual({ rank: 1, score: 100 });
    expect(await rankOf({ db: database.db, board, userId: "u3" })).toEqual({ rank: 1, score: 150 });
    await award("u3", 10, "a6", { projectId: "p2" });
    expect(await rankOf({ db: database.db, board, userId: "u1" })).toEqual({ rank: 1, score: 100 });

    await setLeaderboardVisibility({ db: database.db, userId: "u3", visible: true });
    expect((await boardPage({ db: database.db, board })).map((r) => r.userId)).toEqual(["u3", "u1", "u2", "u4"]);
    expect(await rankOf({ db: database.db, board, userId: "u4" })).toEqual({ rank: 4, score: 100 });
  });

  it("always equal the naive count over the whole board (random awards)", async () => {
    const randomBoard = boardKey({ kind: "project", projectId: "p3" }, "all");
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 150; i++) {
      const member = `u${10 + Math.floor(random() * 25)}`;
      await award(member, 1 + Math.floor(random() * 5) * 10, `r${i}`, { projectId: "p3", at: new Date(t0 + 10 + i) });
      if (i % 37 === 0) await setLeaderboardVisibility({ db: database.db, userId: member, visible: random() > 0.5 });
    }
    const page = await boardPage({ db: database.db, board: randomBoard, limit: 100 });
    for (let id = 10; id < 35; id++) {
      const userId = `u${id}`;
      const ours = await rankOf({ db: database.db, board: randomBoard, userId });
      expect(ours?.rank ?? null, userId).toBe(await naiveRankOf({ db: database.db, board: randomBoard, userId }));
      const listed = page.find((r) => r.userId === userId);
      if (listed) expect(ours?.rank).toBe(listed.rank);
    }
  });

  it("keep each histogram equal to its board's visible members per score, even when awards race", async () => {
    // Members climbing through each other's scores from several connections at once (on PostgreSQL).
    await Promise.all(
      Array.from({ length: 4 }, (_, lane) =>
        (async () => {
          for (let i = 0; i < 15; i++) {
            await award(`u${10 + ((lane * 7 + i) % 25)}`, 10 * (1 + ((lane + i) % 3)), `h${lane}-${i}`, { projectId: "p5", campaignId: "c5" });
          }
        })(),
      ),
    );
    const drift = await database.db.execute(sql`
      select coalesce(h.board, c.board) as board, coalesce(h.score, c.score) as score, h.members, c.members as counted
      from leaderboard_histogram h
      full join (select board, score, count(*)::int as members from leaderboard_entry where visible group by board, score) c
        on c.board = h.board and c.score = h.score
      where h.members is distinct from c.members`);
    expect(Array.isArray(drift) ? drift : (drift as { rows: unknown[] }).rows).toEqual([]);
  });
});

describe("windows", () => {
  it("count XP of the last 7 and 30 UTC days, and drop days as they leave", async () => {
    const scope = { kind: "project", projectId: "p4" } as const;
    const now = new Date();
    await award("u5", 10, "w-old", { projectId: "p4", at: new Date(now.getTime() - 10 * DAY) });
    await award("u5", 5, "w-new", { projectId: "p4", at: now });
    await award("u6", 7, "w-other", { projectId: "p4", at: now, campaignId: "c1" });
    const rank = (window: "all" | "30d" | "7d", userId = "u5") => rankOf({ db: database.db, board: boardKey(scope, window), userId });
    expect(await rank("all")).toEqual({ rank: 1, score: 15 });
    expect(await rank("30d")).toEqual({ rank: 1, score: 15 });
    expect(await rank("7d")).toEqual({ rank: 2, score: 5 });
    expect(await rankOf({ db: database.db, board: "c:c1|7d", userId: "u6" })).toEqual({ rank: 1, score: 7 });
    expect(await rankOf({ db: database.db, board: "global|all", userId: "u6" })).not.toBeNull();

    await expireWindows({ db: database.db, today: new Date(now.getTime() + 8 * DAY) });
    expect(await rank("7d")).toBeNull();
    expect(await rank("30d")).toEqual({ rank: 1, score: 15 });
    expect(await rank("all")).toEqual({ rank: 1, score: 15 });
    // Running it again changes nothing.
    expect(await expireWindows({ db: database.db, today: new Date(now.getTime() + 8 * DAY) })).toBe(0);

    await expireWindows({ db: database.db, today: new Date(now.getTime() + 31 * DAY) });
    expect(await rank("30d")).toBeNull();
    expect(await rank("all")).toEqual({ rank: 1, score: 15 });
  });
});
