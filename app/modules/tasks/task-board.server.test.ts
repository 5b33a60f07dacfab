import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { setLeaderboardVisibility } from "../leaderboards/leaderboards.server";
import { setLeaderboardDisplayName } from "../leaderboards/member-stats.server";
import { campaignsInProgress } from "./member-campaigns.server";
import { taskBoard } from "./task-board.server";

let database: Database;
const t0 = Date.now() - 10 * 86_400_000;
const at = (minutes: number) => new Date(t0 + minutes * 60_000);

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  await db.insert(user).values(["ann", "bob", "cat", "dan", "eve", "fay"].map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() })));
  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  await db.insert(campaign).values([
    {
      id: "live",
      projectId: "p",
      slug: "live",
      name: "Live",
      startsAt: new Date(Date.now() - 86_400_000),
      endsAt: new Date(Date.now() + 86_400_000),
      publishedAt: new Date(),
    },
    {
      id: "other",
      projectId: "p",
      slug: "other",
      name: "Other",
      startsAt: new Date(Date.now() - 86_400_000),
      endsAt: new Date(Date.now() + 86_400_000),
      publishedAt: new Date(),
    },
  ]);
  const base = { projectId: "p", type: "visit_link", xp: 10, verification: "none", publishedAt: new Date() } as const;
  await db.insert(task).values([
    { ...base, id: "t1", title: "One", campaignId: "live", recurrence: "daily" },
    { ...base, id: "t2", title: "Two", campaignId: "live" },
    { ...base, id: "t3", title: "Three", campaignId: "other" },
  ]);
  const done = (id: string, taskId: string, userId: string, minutes: number, status: "approved" | "pending" | "rejected" = "approved") => ({
    id,
    taskId,
    userId,
    period: `d${minutes}`,
    status,
    createdAt: at(minutes),
  });
  await db.insert(completion).values([
    done("c1", "t1", "bob", 1),
    done("c2", "t1", "ann", 2),
    done("c3", "t1", "bob", 3), // bob again, on another day: counted once, at his first time
    done("c4", "t1", "cat", 4),
    done("c5", "t1", "dan", 5),
    done("c6", "t1", "eve", 6, "pending"),
    done("c7", "t1", "fay", 7),
    done("c8", "t2", "ann", 1),
    done("c9", "t3", "ann", 1),
  ]);
});
afterAll(() => database.close());

describe("a task's leaderboard", () => {
  it("lists each member once, by when they first completed it, with board names", async () => {
    await setLeaderboardDisplayName({ db: database.db, userId: "cat", displayName: "Cat the Great" });
    const board = await taskBoard({ db: database.db, taskId: "t1", userId: null });
    expect(board.rows.map((r) => [r.rank, r.userId, r.name])).toEqual([
      [1, "bob", "BOB"],
      [2, "ann", "ANN"],
      [3, "cat", "Cat the Great"],
      [4, "dan", "DAN"],
      [5, "fay", "FAY"],
    ]);
    expect(board.rows[0]!.completedAt.getTime()).toBe(at(1).getTime());
    expect(board.mine).toBeNull();
  });

  it("pages, and shows the viewer's place with neighbours when it is not on the page", async () => {
    const first = await taskBoard({ db: database.db, taskId: "t1", userId: "fay", pageSize: 2 });
    expect(first.rows.map((r) => r.userId)).toEqual(["bob", "ann"]);
    expect(first.hasMore).toBe(true);
    expect(first.mine).toMatchObject({ rank: 5, userId: "fay" });
    expect(first.around.map((r) => r.rank)).toEqual([3, 4, 5]);
    const last = await taskBoard({ db: database.db, taskId: "t1", userId: "fay", page: 3, pageSize: 2 });
    expect(last.rows.map((r) => r.userId)).toEqual(["fay"]);
    expect(last.hasMore).toBe(false);
    expect(last.around).toEqual([]);
  });

  it("hides opted-out members from others, but not from themselves", async () => {
    await setLeaderboardVisibility({ db: database.db, userId: "ann", visible: false });
    const publicBoard = await taskBoard({ db: database.db, taskId: "t1", userId: "bob" });
    expect(publicBoard.rows.map((r) => r.userId)).toEqual(["bob", "cat", "dan", "fay"]);
    const own = await taskBoard({ db: database.db, taskId: "t1", userId: "ann" });
    expect(own.mine).toMatchObject({ rank: 2, userId: "ann" });
    await setLeaderboardVisibility({ db: database.db, userId: "ann", visible: true });
  });
});

describe("campaigns in progress", () => {
  it("are the live campaigns where the member has done some but not all tasks", async () => {
    expect((await campaignsInProgress({ db: database.db, userId: "bob" })).map((c) => [c.slug, c.done, c.total])).toEqual([["live", 1, 2]]);
    expect(await campaignsInProgress({ db: database.db, userId: "ann" })).toEqual([]); // finished both
    expect(await campaignsInProgress({ db: database.db, userId: "eve" })).toEqual([]); // only pending
  });

  it("count published tasks only, list a campaign only while it is live, and say where it belongs", async () => {
    await database.db
      .insert(task)
      .values({ id: "t-draft", projectId: "p", campaignId: "live", type: "visit_link", title: "Draft", xp: 5, verification: "none" });
    const [bob] = await campaignsInProgress({ db: database.db, userId: "bob" });
    expect(bob).toMatchObject({ id: "live", slug: "live", name: "Live", project: { slug: "p", name: "P" }, done: 1, total: 2 });
    expect(await campaignsInProgress({ db: database.db, userId: "bob", now: new Date(Date.now() + 2 * 86_400_000) })).toEqual([]); // ended
    expect(await campaignsInProgress({ db: database.db, userId: "bob", now: new Date(Date.now() - 2 * 86_400_000) })).toEqual([]); // not started
  });
});
