import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project } from "#db/schema/projects";
import { campaign, completion, crusade, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import type { Database } from "~/lib/db.server";
import { boardKey, boardPage } from "~/modules/leaderboards/leaderboards.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { TASK_TYPES } from "~/modules/tasks/task-types";
import { createTestDatabase } from "#tests/setup/test-db";
import { seedDemo } from "./seed.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("the demo", () => {
  it("seeds projects, campaigns in every state, crusades, every task type and members with XP — once", async () => {
    const now = new Date();
    expect(await seedDemo({ db: database.db, now })).toMatchObject({ seeded: true, projects: 5 });
    const db = database.db;
    expect((await db.select({ n: count() }).from(project))[0]!.n).toBe(5);
    const statuses = new Set((await db.select().from(campaign)).map((c) => campaignStatus(c, now)));
    expect(statuses).toEqual(new Set(["live", "ended", "scheduled"]));
    expect((await db.select({ n: count() }).from(crusade))[0]!.n).toBe(5);
    expect(new Set((await db.select({ type: task.type }).from(task)).map((t) => t.type))).toEqual(new Set(TASK_TYPES));
    expect((await db.select({ n: count() }).from(completion).where(eq(completion.status, "approved")))[0]!.n).toBeGreaterThan(50);
    for (const window of ["all", "30d", "7d"] as const) {
      expect((await boardPage({ db, board: boardKey({ kind: "global" }, window), limit: 5 })).length).toBeGreaterThan(0);
    }
    // Reward pools: open on live campaigns, paid (to someone) on the ended ones.
    const pools = await db.select({ status: rewardPool.status, campaign }).from(rewardPool).innerJoin(campaign, eq(campaign.id, rewardPool.campaignId));
    expect(new Set(pools.map((p) => `${campaignStatus(p.campaign, now)}:${p.status}`))).toEqual(new Set(["live:open", "ended:paid"]));
    expect(new Set((await db.select({ distribution: rewardPool.distribution }).from(rewardPool)).map((p) => p.distribution))).toEqual(
      new Set(["fcfs", "raffle", "ranking", "everyone"]),
    );
    expect((await db.select({ n: count() }).from(rewardGrant))[0]!.n).toBeGreaterThan(20);
    expect(await seedDemo({ db, now })).toEqual({ seeded: false });
  });
});
