import { eq, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { completion } from "#db/schema/quests";
import { exclusionAppeal, memberExclusion, trustScore, walletProfile } from "#db/schema/trust";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { saveTask, type TaskInput } from "~/modules/tasks/tasks.server";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { seedSybilFarm, type SeasonTask } from "./seed-sybil.server";

// The demo's farm on a real local chain and database: one funder and one sweep target for the
// twelve farm wallets (not a dev account, which is a shared funder), a funder of their own for
// each honest member, and the farm's completions of each task within seconds of each other.

const DAY = 86_400_000;
const now = new Date("2026-11-20T12:00:00Z");
let database: Database;
let node: LocalChain;
let farm: Awaited<ReturnType<typeof seedSybilFarm>>;
let tasks: SeasonTask[];

beforeAll(async () => {
  [database, node] = await Promise.all([createTestDatabase(), startLocalChain()]);
  const db = database.db;
  await db.insert(project).values({ id: "p", slug: "lumen-swap", name: "Lumen Swap" });
  await db.insert(user).values({ id: "own", name: "Owner", email: "own@example.com" });
  await db.insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  const season = await saveCampaign({
    db,
    projectId: "p",
    input: {
      name: "Season 2",
      slug: "season-2",
      description: "",
      startsAt: new Date(now.getTime() - 20 * DAY),
      endsAt: new Date(now.getTime() + 10 * DAY),
      published: true,
    },
    now: new Date(now.getTime() - 21 * DAY),
  });
  if (!season.ok) throw new Error("season");
  const specs: (Pick<TaskInput, "title" | "type" | "verification" | "config"> & { answer?: SeasonTask["spec"]["answer"] })[] = [
    { title: "Visit the docs", type: "visit_link", verification: "none", config: { url: "https://lumenswap.example/docs" }, answer: { kind: "visit" } },
    {
      title: "Why you joined",
      type: "submit_text",
      verification: "review",
      config: { prompt: "A few sentences.", minLength: 20 },
      answer: { kind: "text", text: "x" },
    },
    { title: "Connect a wallet", type: "wallet_connected", verification: "auto", config: {} },
    { title: "Bring 3 friends", type: "referral", verification: "auto", config: { count: 3 } },
  ];
  tasks = [];
  for (const { answer, ...spec } of specs) {
    const saved = await saveTask({
      db,
      projectId: "p",
      input: { ...spec, description: "", xp: 10, recurrence: "once", startsAt: null, endsAt: null, cap: null, campaignId: season.value.id, published: true },
      now: new Date(now.getTime() - 20 * DAY),
    });
    if (!saved.ok) throw new Error(`task ${spec.title}`);
    tasks.push({ id: saved.task.id, spec: { type: spec.type, answer } });
  }
  farm = await seedSybilFarm({
    db,
    chains: localRegistry({ url: node.url, webSocket: null }),
    seasonTasks: tasks,
    firstMemberNumber: 37,
    project: { id: "p", ownerId: "own" },
    now,
  });
}, 60_000);
afterAll(async () => {
  await database.close();
  await node.stop();
});

describe("the demo's farm", () => {
  it("funds twelve wallets from one farm address and sweeps them to one collector; the honest two have funders of their own", async () => {
    expect(farm).toMatchObject({ members: 14, profiled: { profiled: 14, unknown: 0 } });
    const profiles = await database.db.select().from(walletProfile);
    const byFunder = Map.groupBy(profiles, (p) => p.funder);
    expect(byFunder.get(farm.farm.toLowerCase())).toHaveLength(12);
    expect(byFunder.get(farm.farm.toLowerCase())!.every((p) => p.sweptTo === farm.collector.toLowerCase() && p.txCount === 1)).toBe(true);
    const others = profiles.filter((p) => p.funder !== farm.farm.toLowerCase());
    expect(others).toHaveLength(2);
    expect(new Set(others.map((p) => p.funder)).size).toBe(2);
    const dev = new Set(DEV_ADDRESSES.map((a) => a.toLowerCase()));
    expect(profiles.every((p) => p.status === "known" && p.funder && !dev.has(p.funder))).toBe(true);
  });

  it("has the farm do each task within seconds of each other, with one answer; the honest members days apart with their own", async () => {
    const farmIds = (await database.db.select().from(walletAddress)).map((w) => w.userId).filter((id) => id !== "demo-member-37" && id !== "demo-member-50");
    expect(farmIds).toHaveLength(12);
    for (const { id } of tasks.filter((t) => t.spec.type !== "referral")) {
      const done = await database.db.select().from(completion).where(eq(completion.taskId, id));
      const farmDone = done.filter((c) => farmIds.includes(c.userId));
      expect(farmDone).toHaveLength(12);
      const times = farmDone.map((c) => c.createdAt.getTime());
      expect(Math.max(...times) - Math.min(...times)).toBeLessThan(30_000);
      const honest = done.filter((c) => !farmIds.includes(c.userId)).map((c) => c.createdAt.getTime());
      expect(Math.abs(honest[0]! - honest[1]!)).toBeGreaterThan(DAY);
    }
    const written = await database.db
      .select()
      .from(completion)
      .where(inArray(completion.taskId, [tasks[1]!.id]));
    expect(new Set(written.filter((c) => farmIds.includes(c.userId)).map((c) => JSON.stringify(c.submission))).size).toBe(1);
    expect(new Set(written.map((c) => JSON.stringify(c.submission))).size).toBe(3);
  });

  it("is scored as the jobs would: the farm flagged in its clusters, the honest two not; the farm kept out of the project, one appeal waiting", async () => {
    const scores = await database.db.select().from(trustScore);
    const honest = scores.filter((row) => row.userId === "demo-member-37" || row.userId === "demo-member-50");
    const farmed = scores.filter((row) => row.userId !== "demo-member-37" && row.userId !== "demo-member-50" && row.userId !== "own");
    expect(farmed).toHaveLength(12);
    expect(farmed.every((row) => row.flagged && row.reasons.some((reason) => reason.code.startsWith("funder")))).toBe(true);
    expect(honest.every((row) => !row.flagged)).toBe(true);
    const excluded = await database.db.select().from(memberExclusion).where(isNull(memberExclusion.liftedAt));
    expect(excluded.map((row) => row.userId).sort()).toEqual(farmed.map((row) => row.userId).sort());
    expect(await database.db.select({ status: exclusionAppeal.status }).from(exclusionAppeal)).toEqual([{ status: "pending" }]);
  });
});
