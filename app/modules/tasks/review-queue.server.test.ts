import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "../../../tests/setup/test-db";
import { listCampaigns, saveCampaign } from "./campaigns.server";
import { attemptTask, reviewCompletion } from "./completions.server";
import { campaignSchema } from "./quests.schema";
import { latestDecisions, submissionsOfCampaign } from "./review-queue.server";
import { saveTask, type TaskInput } from "./tasks.server";

let database: Database;
const noChain = async () => 0n;
const day = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values([
    { id: "ann", email: "ann@example.com", name: "Ann" },
    { id: "rev", email: "rev@example.com", name: "" },
  ]);
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(() => database.close());

const campaignInput = (slug: string) =>
  campaignSchema.parse({ name: `Campaign ${slug}`, slug, startsAt: new Date(Date.now() - day).toISOString(), endsAt: new Date(Date.now() + day).toISOString(), published: "on" });
const taskInput = (campaignId: string, fields: Partial<TaskInput> = {}): TaskInput => ({
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
    const inA = await attemptTask({ db, taskId: ta.task.id, userId: "ann", input: { kind: "url", url: "https://example.com/a" }, readBalance: noChain });
    const inB = await attemptTask({ db, taskId: tb.task.id, userId: "ann", input: { kind: "url", url: "https://example.com/b" }, readBalance: noChain });
    if (!inA.ok || !inB.ok) throw new Error("attempts");

    expect(await submissionsOfCampaign({ db, campaignId: a.value.id, completionIds: [inB.completionId, inA.completionId, "nope"] })).toEqual([inA.completionId]);

    await reviewCompletion({ db, completionId: inA.completionId, reviewerId: "rev", decision: "rejected", reason: "Broken link" });
    await reviewCompletion({ db, completionId: inA.completionId, reviewerId: "ann", decision: "approved", now: new Date(Date.now() + 1000) });
    const decisions = await latestDecisions({ db, completionIds: [inA.completionId, inB.completionId] });
    expect(decisions.get(inA.completionId)).toMatchObject({ decision: "approved", reviewer: "Ann", reason: null });
    expect(decisions.has(inB.completionId)).toBe(false);
    await reviewCompletion({ db, completionId: inB.completionId, reviewerId: "rev", decision: "rejected", reason: "Private" });
    expect((await latestDecisions({ db, completionIds: [inB.completionId] })).get(inB.completionId)).toMatchObject({ reviewer: "rev@example.com", reason: "Private" });

    // Cards count the tasks members see (published ones), as the progress does.
    const cards = await listCampaigns({ db, projectId: "p" });
    expect(cards.find((c) => c.slug === "camp-a")?.tasks).toBe(1);
  });
});
