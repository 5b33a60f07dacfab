import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { campaignStatus } from "./campaign-status";
import { campaignProgress, crusadeSteps, listCampaigns, listCrusades, saveCampaign, saveCrusade } from "./campaigns.server";
import { attemptTask, reviewCompletion } from "./completions.server";
import { campaignSchema, crusadeSchema } from "./quests.schema";
import { parseTaskConfig, taskFormSchema } from "./task.schema";
import { listSubmissions, listTasks, saveTask, submissionCounts, submissionsCsv, type TaskInput } from "./tasks.server";
import { trendingTasks } from "./trending.server";

let database: Database;
const day = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values([
    { id: "ann", email: "ann@example.com", name: "Ann" },
    { id: "bob", email: "bob@example.com", name: '=HYPERLINK("x")' },
  ]);
  await database.db.insert(project).values([
    { id: "p", slug: "p", name: "P" },
    { id: "q", slug: "q", name: "Q" },
  ]);
});
afterAll(() => database.close());

const taskInput = (fields: Partial<TaskInput> = {}): TaskInput => ({
  title: "Share your best thread",
  description: "",
  type: "submit_url",
  config: { prompt: "" },
  xp: 30,
  verification: "review",
  recurrence: "once",
  startsAt: null,
  endsAt: null,
  cap: null,
  campaignId: null,
  published: true,
  ...fields,
});

describe("campaigns", () => {
  it("move from draft to scheduled, live and ended by time; drafts are for the team", async () => {
    const now = Date.now();
    const input = campaignSchema.parse({
      name: "Summer quest",
      slug: "summer",
      startsAt: new Date(now - day).toISOString(),
      endsAt: new Date(now + day).toISOString(),
    });
    const draft = await saveCampaign({ db: database.db, projectId: "p", input });
    expect(draft.ok && campaignStatus(draft.value)).toBe("draft");
    expect(await listCampaigns({ db: database.db, projectId: "p" })).toHaveLength(0);
    expect(await listCampaigns({ db: database.db, projectId: "p", withDrafts: true })).toHaveLength(1);
    const id = draft.ok ? draft.value.id : "";
    const live = await saveCampaign({ db: database.db, projectId: "p", campaignId: id, input: { ...input, published: true } });
    expect(live.ok && campaignStatus(live.value)).toBe("live");
    expect(campaignStatus(live.ok ? live.value : draft.ok ? draft.value : (null as never), new Date(now + 2 * day))).toBe("ended");
    expect(await saveCampaign({ db: database.db, projectId: "p", input })).toEqual({
      ok: false,
      code: "invalid",
      errors: { slug: "This project already uses that address" },
    });
    expect((await saveCampaign({ db: database.db, projectId: "q", input })).ok).toBe(true);
  });

  it("validate their dates", () => {
    const bad = campaignSchema.safeParse({ name: "x", slug: "ok-slug", startsAt: "2026-12-02T10:00", endsAt: "2026-12-01T10:00" });
    const messages = Object.fromEntries(bad.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toMatchObject({ name: "A name has at least 3 characters" });
    const order = campaignSchema.safeParse({ name: "Fine", slug: "ok-slug", startsAt: "2026-12-02T10:00", endsAt: "2026-12-01T10:00" });
    expect(order.error?.issues[0]).toMatchObject({ path: ["endsAt"], message: "The end comes after the start" });
  });
});

describe("tasks", () => {
  it("parse their form and their type's settings", () => {
    const form = new FormData();
    form.set("config.question", "Best chain?");
    form.set("config.answers", "BNB\n  bnb chain \n");
    const config = parseTaskConfig("quiz", form);
    expect(config.data).toEqual({ question: "Best chain?", answers: ["BNB", "bnb chain"], retryDelaySeconds: 0 });
    const bad = taskFormSchema.safeParse({
      title: "Hi",
      type: "submit_image",
      xp: "0",
      verification: "none",
      startsAt: "",
      endsAt: "",
      cap: "0",
      campaignId: "",
    });
    const messages = Object.fromEntries(bad.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toMatchObject({ title: "A title has at least 3 characters", xp: "At least 1 XP", cap: "The cap is a whole number of at least 1" });
  });

  it("keep their cap above the places already taken, and a campaign of their own project", async () => {
    const saved = await saveTask({
      db: database.db,
      projectId: "p",
      input: taskInput({ type: "visit_link", verification: "none", config: { url: "https://x.y" } }),
    });
    const taskId = saved.ok ? saved.task.id : "";
    await attemptTask({ db: database.db, taskId, userId: "ann", input: { kind: "visit" } });
    await attemptTask({ db: database.db, taskId, userId: "bob", input: { kind: "visit" } });
    expect(
      await saveTask({
        db: database.db,
        projectId: "p",
        taskId,
        input: taskInput({ type: "visit_link", verification: "none", config: { url: "https://x.y" }, cap: 1 }),
      }),
    ).toEqual({
      ok: false,
      code: "invalid",
      errors: { cap: "2 members already hold a place: the cap cannot be lower" },
    });
    const others = await listCampaigns({ db: database.db, projectId: "q", withDrafts: true });
    expect(await saveTask({ db: database.db, projectId: "p", input: taskInput({ campaignId: others[0]!.id }) })).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { campaignId: expect.any(String) },
    });
    expect((await trendingTasks({ db: database.db }))[0]?.task.id).toBe(taskId);
    // A search matches titles and project names, case aside; its wildcards are plain characters.
    expect((await trendingTasks({ db: database.db, search: "BEST THREAD" })).map((row) => row.task.id)).toContain(taskId);
    expect((await trendingTasks({ db: database.db, search: "p" })).map((row) => row.project.name)).toContain("P");
    expect(await trendingTasks({ db: database.db, search: "%" })).toEqual([]);
    expect(await trendingTasks({ db: database.db, limit: 1 })).toHaveLength(1);
  });

  it("are listed by project or by campaign, oldest first, drafts only for the team", async () => {
    const db = database.db;
    await db.insert(project).values({ id: "r", slug: "r", name: "R" });
    const input = campaignSchema.parse({
      name: "Listing",
      slug: "listing",
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + day).toISOString(),
    });
    const saved = await saveCampaign({ db, projectId: "r", input: { ...input, published: true } });
    const campaignId = saved.ok ? saved.value.id : "";
    const idOf = async (fields: Partial<TaskInput>) => {
      const result = await saveTask({ db, projectId: "r", input: taskInput(fields) });
      return result.ok ? result.task.id : "";
    };
    const inCampaign = await idOf({ campaignId, title: "In the campaign" });
    const draftInCampaign = await idOf({ campaignId, title: "A draft in the campaign", published: false });
    const standalone = await idOf({ title: "On its own" });
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

    expect(ids(await listTasks({ db, campaignId }))).toEqual([inCampaign].sort());
    expect(ids(await listTasks({ db, campaignId, withDrafts: true }))).toEqual([inCampaign, draftInCampaign].sort());
    expect(ids(await listTasks({ db, projectId: "r" }))).toEqual([inCampaign, standalone].sort());
    const all = await listTasks({ db, projectId: "r", withDrafts: true });
    expect(ids(all)).toEqual([inCampaign, draftInCampaign, standalone].sort());
    const times = all.map((row) => row.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await listTasks({ db, campaignId: "no-such-campaign", withDrafts: true })).toEqual([]);
  });
});

describe("submissions", () => {
  it("are listed by status, searched, paginated, counted and exported", async () => {
    const [c] = await listCampaigns({ db: database.db, projectId: "p" });
    const saved = await saveTask({ db: database.db, projectId: "p", input: taskInput({ campaignId: c!.id }) });
    const taskId = saved.ok ? saved.task.id : "";
    const ann = await attemptTask({ db: database.db, taskId, userId: "ann", input: { kind: "url", url: "https://example.com/ann" } });
    await attemptTask({ db: database.db, taskId, userId: "bob", input: { kind: "url", url: "https://example.com/bob" } });
    expect(await submissionCounts({ db: database.db, projectId: "p", scope: { campaignId: c!.id } })).toEqual({ pending: 2, approved: 0, rejected: 0 });
    const pending = await listSubmissions({ db: database.db, projectId: "p", scope: { campaignId: c!.id }, status: "pending", pageSize: 1 });
    expect(pending).toMatchObject({ total: 2, pageCount: 2 });
    expect(pending.rows).toHaveLength(1);
    expect((await listSubmissions({ db: database.db, projectId: "p", status: "pending", search: "Ann" })).rows.map((r) => r.member.id)).toEqual(["ann"]);
    expect((await listSubmissions({ db: database.db, projectId: "q", status: "pending" })).total).toBe(0);

    await reviewCompletion({
      db: database.db,
      completionId: ann.ok ? ann.completionId : "",
      reviewerId: "bob",
      decision: "rejected",
      reason: "Private, sorry",
    });
    const csv = await submissionsCsv({ db: database.db, projectId: "p", scope: { campaignId: c!.id }, status: "rejected" });
    expect(csv.split("\r\n")[0]).toBe("submitted_at,status,task,member,email,wallets,social_accounts,submission,reason,reviewed_at");
    expect(csv).toContain('"{""url"":""https://example.com/ann""}"');
    expect(csv).toContain("Private, sorry");
    const bobCsv = await submissionsCsv({ db: database.db, projectId: "p", status: "pending" });
    expect(bobCsv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(await campaignProgress({ db: database.db, campaignId: c!.id, userId: "ann" })).toEqual({ done: 0, total: 1 });
  });
});

describe("crusades", () => {
  it("order their tasks and show each member's next step", async () => {
    const ids: string[] = [];
    for (const title of ["One", "Two", "Three"]) {
      const saved = await saveTask({
        db: database.db,
        projectId: "p",
        input: taskInput({ title, type: "visit_link", verification: "none", config: { url: "https://x.y" } }),
      });
      ids.push(saved.ok ? saved.task.id : "");
    }
    const input = crusadeSchema.parse({ name: "Path", slug: "path", bonusXp: "50", published: "on", taskIds: ids.join("\n") });
    const saved = await saveCrusade({ db: database.db, projectId: "p", input });
    const crusadeId = saved.ok ? saved.value.id : "";
    expect((await crusadeSteps({ db: database.db, crusadeId, userId: "ann" })).map((s) => s.state)).toEqual(["available", "locked", "locked"]);
    await attemptTask({ db: database.db, taskId: ids[0]!, userId: "ann", input: { kind: "visit" } });
    expect((await crusadeSteps({ db: database.db, crusadeId, userId: "ann" })).map((s) => s.state)).toEqual(["done", "available", "locked"]);
    // The index's progress (one query for every crusade listed) agrees with the steps.
    const listed = (await listCrusades({ db: database.db, projectId: "p", userId: "ann" })).find((c) => c.id === crusadeId);
    expect(listed).toMatchObject({ done: 1, total: 3 });
    const signedOut = (await listCrusades({ db: database.db, projectId: "p", userId: null })).find((c) => c.id === crusadeId);
    expect(signedOut).toMatchObject({ done: 0, total: 3 });
    expect(await saveCrusade({ db: database.db, projectId: "q", input })).toEqual({
      ok: false,
      code: "invalid",
      errors: { taskIds: "Choose tasks of this project, each once." },
    });
  });
});
