import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import type { Database, Db } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { countTrendingTasks, TRENDING_KEPT, trendingTasks } from "./trending.server";

const HOUR = 3_600_000;
/** The test's clock: counts are made at T (or later, when said). */
const T = new Date("2027-05-10T12:00:00Z");
const hoursBefore = (hours: number, from = T) => new Date(from.getTime() - hours * HOUR);

let database: Database;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await db.insert(user).values(Array.from({ length: 6 }, (_, i) => ({ id: `u${i}`, email: `u${i}@example.com`, name: `U${i}` })));
  await db.insert(project).values([
    { id: "p", slug: "p", name: "Pioneers" },
    { id: "q", slug: "q", name: "Questers" },
  ]);
});
afterAll(() => database.close());
beforeEach(async () => {
  await db.delete(task); // completions and counts go with their tasks
});

type TaskSeed = { id: string; createdHoursAgo: number; published?: boolean; projectId?: string; title?: string };
async function addTasks(seeds: TaskSeed[]) {
  await db.insert(task).values(
    seeds.map(({ id, createdHoursAgo, published = true, projectId = "p", title = `Task ${id}` }) => ({
      id,
      projectId,
      title,
      type: "visit_link" as const,
      xp: 10,
      verification: "none" as const,
      publishedAt: published ? hoursBefore(createdHoursAgo) : null,
      createdAt: hoursBefore(createdHoursAgo),
    })),
  );
}

let completions = 0;
async function complete(taskId: string, hoursAgo: number, status: "approved" | "pending" | "rejected" = "approved") {
  completions++;
  await db
    .insert(completion)
    .values({ id: `c${completions}`, taskId, userId: `u${completions % 6}`, period: `p${completions}`, status, createdAt: hoursBefore(hoursAgo) });
}

const shown = async (options: { limit?: number; search?: string } = {}) =>
  (await trendingTasks({ db, ...options })).map((row) => [row.task.id, row.recent] as const);

describe("trending tasks", () => {
  it("count the last 24 hours' completions, rejected ones aside, then list the rest newest first", async () => {
    await addTasks([
      { id: "old-busy", createdHoursAgo: 100 },
      { id: "new-busy", createdHoursAgo: 50 },
      { id: "quiet", createdHoursAgo: 40 },
      { id: "newest", createdHoursAgo: 1 },
      { id: "stale", createdHoursAgo: 200 },
      { id: "draft", createdHoursAgo: 2, published: false },
    ]);
    for (const hoursAgo of [1, 5, 23.9]) await complete("old-busy", hoursAgo);
    for (const hoursAgo of [2, 3]) await complete("new-busy", hoursAgo);
    await complete("new-busy", 4, "pending");
    await complete("new-busy", 6, "rejected");
    await complete("quiet", 24.1); // a day and a bit ago: not counted
    await complete("stale", 30);
    // A completion after the count's time is not in it either.
    await complete("quiet", -1);

    expect(await countTrendingTasks({ db, now: T })).toBe(2);
    // Three each: the newer task first among equals.
    expect(await shown()).toEqual([
      ["new-busy", 3],
      ["old-busy", 3],
      ["newest", 0],
      ["quiet", 0],
      ["stale", 0],
    ]);
    expect(await shown({ limit: 3 })).toEqual([
      ["new-busy", 3],
      ["old-busy", 3],
      ["newest", 0],
    ]);
    expect(await shown({ limit: 1 })).toEqual([["new-busy", 3]]);
  });

  it("show a task's publication and title as they are now, and its count as of the last count", async () => {
    await addTasks([
      { id: "a", createdHoursAgo: 10 },
      { id: "b", createdHoursAgo: 9 },
    ]);
    await complete("a", 1);
    await countTrendingTasks({ db, now: T });

    // Published since the count: listed at once, with no completions counted yet.
    await addTasks([{ id: "c", createdHoursAgo: 0.5 }]);
    await complete("c", 0.25);
    expect(await shown()).toEqual([
      ["a", 1],
      ["c", 0],
      ["b", 0],
    ]);
    // Unpublished since the count: gone at once.
    await db.update(task).set({ publishedAt: null }).where(eq(task.id, "a"));
    await db.update(task).set({ title: "Renamed" }).where(eq(task.id, "c"));
    const rows = await trendingTasks({ db });
    expect(rows.map((row) => row.task.id)).toEqual(["c", "b"]);
    expect(rows[0]?.task.title).toBe("Renamed");
    expect(rows[0]?.project).toEqual({ slug: "p", name: "Pioneers", logoUrl: null });

    // The next count replaces the whole set: a's completion no longer counts (a is a draft), c's does.
    expect(await countTrendingTasks({ db, now: T })).toBe(1);
    expect(await shown()).toEqual([
      ["c", 1],
      ["b", 0],
    ]);
    // A day later, nothing was completed in the last 24 hours.
    expect(await countTrendingTasks({ db, now: new Date(T.getTime() + 24 * HOUR) })).toBe(0);
    expect(await shown()).toEqual([
      ["c", 0],
      ["b", 0],
    ]);
  });

  it("searched by title or project name with the same counts; wildcards are plain characters", async () => {
    await addTasks([
      { id: "thread", createdHoursAgo: 5, title: "Share your best thread" },
      { id: "follow", createdHoursAgo: 4, title: "Follow us", projectId: "q" },
      { id: "percent", createdHoursAgo: 3, title: "Win 100% of the XP" },
    ]);
    await complete("thread", 1);
    await complete("thread", 2);
    await complete("follow", 1);
    await countTrendingTasks({ db, now: T });
    expect(await shown({ search: "BEST THREAD" })).toEqual([["thread", 2]]);
    expect(await shown({ search: "quest" })).toEqual([["follow", 1]]);
    expect(await shown({ search: "%" })).toEqual([["percent", 0]]);
    expect(await shown({ search: "_" })).toEqual([]);
    expect(await shown({ search: "o", limit: 2 })).toEqual([
      ["thread", 2],
      ["follow", 1],
    ]);
  });

  it(`keep the ${TRENDING_KEPT} most completed tasks when more were completed`, async () => {
    const many = TRENDING_KEPT + 5;
    await db.execute(sql`
      insert into task (id, project_id, title, type, xp, verification, published_at, created_at)
      select 'm' || i, 'p', 'Task ' || i, 'visit_link', 10, 'none', ${hoursBefore(100)}, ${hoursBefore(100)}::timestamptz + i * interval '1 second'
      from generate_series(1, ${many}) i`);
    await db.execute(sql`
      insert into completion (id, task_id, user_id, period, status, created_at)
      select 'mc' || i, 'm' || i, 'u1', 'once', 'approved', ${hoursBefore(1)} from generate_series(1, ${many}) i`);
    await complete("m7", 2);
    expect(await countTrendingTasks({ db, now: T })).toBe(TRENDING_KEPT);
    // m7 (two completions), then the newest of those with one.
    const rows = await shown({ limit: 48 });
    expect(rows.slice(0, 3)).toEqual([
      ["m7", 2],
      [`m${many}`, 1],
      [`m${many - 1}`, 1],
    ]);
    expect(rows).toHaveLength(48);
  });

  it("list what counting every completion of the day at once would list (random tasks and completions)", async () => {
    const taskSeed = fc.record({ createdHoursAgo: fc.integer({ min: 0, max: 300 }), published: fc.integer({ min: 0, max: 4 }).map((n) => n > 0) });
    const completionSeed = fc.record({
      task: fc.nat(),
      hoursAgo: fc.constantFrom(-2, 0, 0.5, 3, 12, 23.5, 24, 24.5, 40),
      status: fc.constantFrom("approved" as const, "pending" as const, "rejected" as const),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(taskSeed, { minLength: 1, maxLength: 25 }),
        fc.array(completionSeed, { maxLength: 60 }),
        fc.integer({ min: 1, max: 30 }),
        async (tasks, done, limit) => {
          await db.delete(task);
          // Creation times are distinct, as they are in life to the microsecond.
          const seeds = tasks.map((t, i) => ({ id: `t${i}`, createdHoursAgo: t.createdHoursAgo + i / 1000, published: t.published }));
          await addTasks(seeds);
          for (const c of done) await complete(`t${c.task % tasks.length}`, c.hoursAgo, c.status);
          await countTrendingTasks({ db, now: T });

          const recent = new Map<string, number>();
          for (const c of done)
            if (c.status !== "rejected" && c.hoursAgo >= 0 && c.hoursAgo < 24) {
              const id = `t${c.task % tasks.length}`;
              recent.set(id, (recent.get(id) ?? 0) + 1);
            }
          const expected = seeds
            .filter((s) => s.published)
            .map((s) => ({ id: s.id, recent: recent.get(s.id) ?? 0, createdHoursAgo: s.createdHoursAgo }))
            .sort((a, b) => b.recent - a.recent || a.createdHoursAgo - b.createdHoursAgo)
            .slice(0, limit)
            .map((s) => [s.id, s.recent] as const);
          expect(await shown({ limit })).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});
