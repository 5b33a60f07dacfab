import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { xpDaily, xpEvent } from "#db/schema/xp";
import type { Database, Db } from "~/lib/db.server";
import { histogramDrift } from "#tests/setup/board-checks";
import { createTestDatabase } from "#tests/setup/test-db";
import { awardXp, boardKey, expireWindows, naiveRankOf, rankOf, revokeXp, setLeaderboardVisibility } from "./leaderboards.server";

/** Taking an award back (db/functions/questline_revoke_xp.sql): once, from every board it still counts on, histograms exact. */

let database: Database;
const DAY = 86_400_000;
// The award and the windows read the database's clock: these tests run on today's UTC day.
const now = new Date();
const day = (offset: number) => new Date(now.getTime() + offset * DAY);

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(Array.from({ length: 12 }, (_, i) => ({ id: `u${i}`, email: `u${i}@example.com`, name: `Member ${i}` })));
  // The projects the awards count in (their XP events name them).
  await database.db.insert(project).values(["p1", "p2", "p3", "p4", "p5"].map((id) => ({ id, slug: id, name: id })));
});
afterAll(() => database.close());

const award = (userId: string, amount: number, sourceId: string, extra: { projectId?: string; campaignId?: string; at?: Date } = {}) =>
  awardXp({
    db: database.db,
    award: { userId, projectId: extra.projectId ?? "p1", campaignId: extra.campaignId, sourceType: "completion", sourceId, amount, at: extra.at ?? now },
  });
const revoke = (userId: string, sourceId: string, db: Db = database.db) => revokeXp({ db, userId, sourceType: "completion", sourceId });
const score = async (board: string, userId: string) => (await rankOf({ db: database.db, board, userId }))?.score ?? null;

describe("revoking an award", () => {
  it("lowers every board the award counted on by its amount, once, and records one negative event dated like the award", async () => {
    await award("u0", 50, "c-a", { campaignId: "c1" });
    await award("u0", 20, "c-b", { campaignId: "c1" });
    await award("u1", 40, "c-c", { campaignId: "c1" });
    const boards = ["global", "p:p1", "c:c1"].flatMap((scope) => ["all", "30d", "7d"].map((w) => `${scope}|${w}`));
    for (const board of boards) expect(await rankOf({ db: database.db, board, userId: "u1" })).toEqual({ rank: 2, score: 40 });

    expect(await revoke("u0", "c-a")).toBe(50);
    for (const board of boards) {
      expect(await score(board, "u0"), board).toBe(20);
      expect(await rankOf({ db: database.db, board, userId: "u1" })).toEqual({ rank: 1, score: 40 });
      expect(await rankOf({ db: database.db, board, userId: "u0" })).toEqual({ rank: 2, score: 20 });
    }
    expect(await revoke("u0", "c-a")).toBe(0);
    expect(await score("c:c1|all", "u0")).toBe(20);

    const events = await database.db
      .select({ type: xpEvent.sourceType, amount: xpEvent.amount, at: xpEvent.createdAt })
      .from(xpEvent)
      .where(and(eq(xpEvent.sourceId, "c-a"), eq(xpEvent.userId, "u0")));
    expect(events.sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: "completion", amount: 50, at: now },
      { type: "completion_void", amount: -50, at: now },
    ]);
    const daily = await database.db.select({ scope: xpDaily.scope, amount: xpDaily.amount }).from(xpDaily).where(eq(xpDaily.userId, "u0"));
    expect(daily.sort((a, b) => a.scope.localeCompare(b.scope))).toEqual([
      { scope: "c:c1", amount: 20 },
      { scope: "global", amount: 20 },
      { scope: "p:p1", amount: 20 },
    ]);
    expect(await histogramDrift(database.db)).toEqual([]);
  });

  it("takes a member off a board when their score there falls to zero, and changes nothing for a source that paid nothing", async () => {
    await award("u2", 30, "z-a", { projectId: "p2" });
    expect(await revoke("u2", "z-a")).toBe(30);
    for (const w of ["all", "30d", "7d"] as const)
      expect(await rankOf({ db: database.db, board: boardKey({ kind: "project", projectId: "p2" }, w), userId: "u2" })).toBeNull();
    expect(await revoke("u2", "never-paid")).toBe(0);
    expect(await revoke("u3", "z-a")).toBe(0);
    // Back on the board with a later award, counted once in the histogram.
    await award("u2", 10, "z-b", { projectId: "p2" });
    expect(await rankOf({ db: database.db, board: "p:p2|all", userId: "u2" })).toEqual({ rank: 1, score: 10 });
    expect(await histogramDrift(database.db)).toEqual([]);
  });

  it("keeps the histograms exact for members hidden from public boards, and ranks equal to the naive count", async () => {
    await award("u4", 25, "h-a", { projectId: "p3" });
    await award("u4", 25, "h-b", { projectId: "p3" });
    await award("u5", 30, "h-c", { projectId: "p3" });
    await award("u6", 25, "h-d", { projectId: "p3" });
    await setLeaderboardVisibility({ db: database.db, userId: "u5", visible: false });
    await revoke("u4", "h-a");
    await revoke("u5", "h-c");
    await setLeaderboardVisibility({ db: database.db, userId: "u5", visible: true });
    expect(await rankOf({ db: database.db, board: "p:p3|all", userId: "u5" })).toBeNull();
    for (const userId of ["u4", "u6"]) {
      expect((await rankOf({ db: database.db, board: "p:p3|all", userId }))?.rank).toBe(await naiveRankOf({ db: database.db, board: "p:p3|all", userId }));
    }
    expect(await histogramDrift(database.db)).toEqual([]);
  });

  it("from the windowed boards only while the award's day is in them, and the expiry then takes out only what is left", async () => {
    // Day −3: in the 7- and 30-day windows, until the expiry runs past day +4.
    await award("u7", 40, "w-old", { projectId: "p4", at: day(-3) });
    await award("u7", 5, "w-older", { projectId: "p4", at: day(-12) });
    await expireWindows({ db: database.db, today: day(5) });
    expect(await score("p:p4|7d", "u7")).toBeNull();
    expect(await score("p:p4|30d", "u7")).toBe(45);
    await award("u7", 10, "w-new", { projectId: "p4" });

    expect(await revoke("u7", "w-old")).toBe(40);
    expect(await score("p:p4|all", "u7")).toBe(15);
    expect(await score("p:p4|30d", "u7")).toBe(15);
    expect(await score("p:p4|7d", "u7")).toBe(10);

    // Today leaves the 7-day window; day −12, then day −3 (nothing left of it) and today leave the 30-day one.
    await expireWindows({ db: database.db, today: day(8) });
    expect(await score("p:p4|7d", "u7")).toBeNull();
    expect(await score("p:p4|30d", "u7")).toBe(15);
    await expireWindows({ db: database.db, today: day(19) });
    expect(await score("p:p4|30d", "u7")).toBe(10);
    await expireWindows({ db: database.db, today: day(31) });
    expect(await score("p:p4|30d", "u7")).toBeNull();
    expect(await score("p:p4|all", "u7")).toBe(15);

    // An award whose day has left every window comes off the all-time board only.
    expect(await revoke("u7", "w-older")).toBe(5);
    expect(await score("p:p4|all", "u7")).toBe(10);
    expect(await histogramDrift(database.db)).toEqual([]);
  });

  it("never deadlocks with awards and other revokes of the same members, and leaves the boards exact (several connections on PostgreSQL)", async () => {
    const members = ["u8", "u9", "u10", "u11"];
    const db = database.db;
    // Awards made beforehand in the windows' days to come: the windows moved on in the test above.
    const at = day(40);
    for (const [i, userId] of members.entries()) {
      for (let k = 0; k < 6; k++) {
        await awardXp({ db, award: { userId, projectId: "p5", campaignId: "c5", sourceType: "completion", sourceId: `r-${i}-${k}`, amount: 5 + k, at } });
      }
    }
    await Promise.all(
      members.flatMap((userId, i) => [
        // Each member loses their even awards and gains new ones, in transactions racing the other members'.
        (async () => {
          for (let k = 0; k < 6; k += 2) await db.transaction((tx) => revoke(userId, `r-${i}-${k}`, tx));
        })(),
        (async () => {
          for (let k = 0; k < 3; k++) {
            await awardXp({ db, award: { userId, projectId: "p5", campaignId: "c5", sourceType: "completion", sourceId: `n-${i}-${k}`, amount: 7, at } });
          }
        })(),
      ]),
    );
    for (const userId of members) {
      // 5 + … + 10 = 45, less 5 + 7 + 9 = 21, plus 3 × 7.
      expect(await score("c:c5|all", userId)).toBe(45);
      expect(await score("p:p5|all", userId)).toBe(45);
      expect((await rankOf({ db, board: "c:c5|all", userId }))?.rank).toBe(await naiveRankOf({ db, board: "c:c5|all", userId }));
    }
    expect(await histogramDrift(db)).toEqual([]);
  });
});
