import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { crusade, task } from "#db/schema/quests";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { listCampaigns, saveCampaign } from "./campaigns.server";
import { attemptTask, reviewCompletion } from "./completions.server";
import { campaignSchema } from "./quests.schema";
import { latestDecisions, pendingReviewCount, submissionsInScope } from "./review-queue.server";
import { listSubmissions, saveTask, submissionCounts, type ReviewScope, type TaskInput } from "./tasks.server";

let database: Database;
const day = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values([
    { id: "ann", email: "ann@example.com", name: "Ann" },
    { id: "rev", email: "rev@example.com", name: "" },
    { id: "kim", email: "kim@example.com", name: "Kim" },
  ]);
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(() => database.close());

const campaignInput = (slug: string) =>
  campaignSchema.parse({
    name: `Campaign ${slug}`,
    slug,
    startsAt: new Date(Date.now() - day).toISOString(),
    endsAt: new Date(Date.now() + day).toISOString(),
    published: "on",
  });
const taskInput = (campaignId: string | null, fields: Partial<TaskInput> = {}): TaskInput => ({
  title: "Share a link",
  description: "",
  type: "submit_url",
  config: { prompt: "" },
  xp: 10,
  verification: "review",
  recurrence: "once",
  startsAt: null,
  endsAt: null,
  cap: null,
  campaignId,
  published: true,
  ...fields,
});

describe("the review queue", () => {
  it("acts only on a campaign's own submissions and shows the latest decision with its reviewer", async () => {
    const db = database.db;
    const a = await saveCampaign({ db, projectId: "p", input: campaignInput("camp-a") });
    const b = await saveCampaign({ db, projectId: "p", input: campaignInput("camp-b") });
    if (!a.ok || !b.ok) throw new Error("campaigns");
    const ta = await saveTask({ db, projectId: "p", input: taskInput(a.value.id) });
    const tb = await saveTask({ db, projectId: "p", input: taskInput(b.value.id) });
    await saveTask({ db, projectId: "p", input: taskInput(a.value.id, { published: false }) });
    if (!ta.ok || !tb.ok) throw new Error("tasks");
    const inA = await attemptTask({ db, taskId: ta.task.id, userId: "ann", input: { kind: "url", url: "https://example.com/a" } });
    const inB = await attemptTask({ db, taskId: tb.task.id, userId: "ann", input: { kind: "url", url: "https://example.com/b" } });
    if (!inA.ok || !inB.ok) throw new Error("attempts");

    const asked = [inB.completionId, inA.completionId, "nope"];
    expect(await submissionsInScope({ db, projectId: "p", scope: { campaignId: a.value.id }, completionIds: asked })).toEqual([inA.completionId]);
    expect(await submissionsInScope({ db, projectId: "q", scope: { all: true }, completionIds: asked })).toEqual([]);

    await reviewCompletion({ db, completionId: inA.completionId, reviewerId: "rev", decision: "rejected", reason: "Broken link" });
    await reviewCompletion({ db, completionId: inA.completionId, reviewerId: "kim", decision: "approved", now: new Date(Date.now() + 1000) });
    const decisions = await latestDecisions({ db, completionIds: [inA.completionId, inB.completionId] });
    expect(decisions.get(inA.completionId)).toMatchObject({ decision: "approved", reviewer: "Kim", reason: null });
    expect(decisions.has(inB.completionId)).toBe(false);
    await reviewCompletion({ db, completionId: inB.completionId, reviewerId: "rev", decision: "rejected", reason: "Private" });
    expect((await latestDecisions({ db, completionIds: [inB.completionId] })).get(inB.completionId)).toMatchObject({
      reviewer: "rev@example.com",
      reason: "Private",
    });

    // Cards count the tasks members see (published ones), as the progress does.
    const cards = await listCampaigns({ db, projectId: "p" });
    expect(cards.find((c) => c.slug === "camp-a")?.tasks).toBe(1);
  });

  it("gives a crusade's steps and the project's standalone tasks queues of their own, and counts what waits", async () => {
    const db = database.db;
    await db.insert(project).values({ id: "p2", slug: "p2", name: "P2" });
    await db.insert(crusade).values({ id: "cr", projectId: "p2", slug: "cr", name: "Crusade", publishedAt: new Date(Date.now() - day) });
    const step = await saveTask({ db, projectId: "p2", input: taskInput("", { campaignId: null, title: "Step" }) });
    const alone = await saveTask({ db, projectId: "p2", input: taskInput("", { campaignId: null, title: "Alone" }) });
    if (!step.ok || !alone.ok) throw new Error("tasks");
    await db.update(task).set({ crusadeId: "cr", crusadePosition: 1 }).where(eq(task.id, step.task.id));
    const inStep = await attemptTask({ db, taskId: step.task.id, userId: "ann", input: { kind: "url", url: "https://example.com/s" } });
    const inAlone = await attemptTask({ db, taskId: alone.task.id, userId: "ann", input: { kind: "url", url: "https://example.com/t" } });
    if (!inStep.ok || !inAlone.ok) throw new Error("attempts");
    expect(inStep.status).toBe("pending");

    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    const pendingIn = async (scope: ReviewScope) => ids((await listSubmissions({ db, projectId: "p2", scope, status: "pending" })).rows);
    expect(await pendingIn({ crusadeId: "cr" })).toEqual([inStep.completionId]);
    expect(await pendingIn({ standalone: true })).toEqual([inAlone.completionId]);
    expect((await pendingIn({ all: true })).sort()).toEqual([inStep.completionId, inAlone.completionId].sort());
    expect(await submissionCounts({ db, projectId: "p2", scope: { crusadeId: "cr" } })).toEqual({ pending: 1, approved: 0, rejected: 0 });
    expect(await pendingReviewCount({ db, projectId: "p2" })).toBe(2);

    // Reviewed from the crusade's queue, the step is done and the member's next step opens.
    expect(await reviewCompletion({ db, completionId: inStep.completionId, reviewerId: "rev", decision: "approved" })).toEqual({ ok: true, xpAwarded: 10 });
    expect(await pendingReviewCount({ db, projectId: "p2" })).toBe(1);
  });
});
