import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { project } from "#db/schema/projects";
import { campaign, crusade, task } from "#db/schema/quests";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { saveCrusade } from "./campaigns.server";
import { readTaskForm, taskFormOptions } from "./task-form.server";
import { saveTask, type TaskInput } from "./tasks.server";

const DAY = 86_400_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);
let database: Database;
const db = () => database.db;

const drop = { asset: "QUEST:31337", rule: "pro_rata" as const, total: 100n, startsAt: at(-1), endsAt: at(10), claimDeadline: at(40) };

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(project)
    .values([
      { id: "p", slug: "p", name: "P" },
      { id: "q", slug: "q", name: "Q" },
    ]);
  await db()
    .insert(airdrop)
    .values([
      { ...drop, id: "live", projectId: "p", slug: "live", name: "Live drop", publishedAt: at(-2) },
      { ...drop, id: "draft", projectId: "p", slug: "draft", name: "Draft drop" },
      { ...drop, id: "ended", projectId: "p", slug: "ended", name: "Ended drop", publishedAt: at(-20), startsAt: at(-20), endsAt: at(-1) },
      { ...drop, id: "frozen", projectId: "p", slug: "frozen", name: "Frozen drop", publishedAt: at(-20), startsAt: at(-20), endsAt: at(-1), status: "frozen" },
      { ...drop, id: "other", projectId: "q", slug: "other", name: "Other project's drop", publishedAt: at(-2) },
    ]);
  await db()
    .insert(campaign)
    .values({ id: "c", projectId: "p", slug: "c", name: "Campaign", startsAt: at(-1), endsAt: at(5), publishedAt: at(-2) });
  await db()
    .insert(crusade)
    .values({ id: "k", projectId: "p", slug: "k", name: "Crusade", publishedAt: at(-2) });
  const base = {
    projectId: "p",
    type: "visit_link" as const,
    verification: "none" as const,
    config: { url: "https://example.com" },
    xp: 10,
    publishedAt: at(-2),
  };
  await db()
    .insert(task)
    .values([
      { ...base, id: "step", title: "Crusade step", crusadeId: "k", crusadePosition: 1 },
      { ...base, id: "kept", title: "Ended drop's task", airdropId: "ended" },
      { ...base, id: "dropped", title: "Live drop's task", airdropId: "live" },
    ]);
});
afterAll(() => database.close());

const input = (fields: Partial<TaskInput>): TaskInput => ({
  title: "Visit the docs",
  description: "",
  type: "visit_link",
  config: { url: "https://example.com/docs" },
  xp: 20,
  verification: "none",
  recurrence: "once",
  startsAt: null,
  endsAt: null,
  cap: null,
  campaignId: null,
  airdropId: null,
  published: true,
  ...fields,
});
const save = (fields: Partial<TaskInput>, taskId?: string) => saveTask({ db: db(), projectId: "p", taskId, input: input(fields), now: T });
const count = async () => (await db().select({ id: task.id }).from(task)).length;

describe("putting a task in an airdrop", () => {
  it("refuses, on the airdrop field and saving nothing, an airdrop of another project, one that ended or was frozen, and a task also in a campaign", async () => {
    const before = await count();
    expect(await save({ airdropId: "other" })).toMatchObject({ ok: false, errors: { airdropId: "Choose one of this project's airdrops" } });
    expect(await save({ airdropId: "nope" })).toMatchObject({ ok: false, errors: { airdropId: "Choose one of this project's airdrops" } });
    expect(await save({ airdropId: "ended" })).toMatchObject({ ok: false, errors: { airdropId: "This airdrop has ended: it takes no new tasks" } });
    expect(await save({ airdropId: "frozen" })).toMatchObject({ ok: false, errors: { airdropId: "This airdrop has ended: it takes no new tasks" } });
    expect(await save({ airdropId: "live", campaignId: "c" })).toMatchObject({
      ok: false,
      errors: { airdropId: expect.stringContaining("one campaign or one airdrop") },
    });
    expect(await count()).toBe(before);
  });

  it("refuses a crusade's step, and a crusade refuses an airdrop's task: a task belongs to one container", async () => {
    expect(await save({ airdropId: "live", title: "Crusade step" }, "step")).toMatchObject({
      ok: false,
      errors: { airdropId: expect.stringContaining("step of a crusade") },
    });
    const [step] = await db().select().from(task).where(eq(task.id, "step"));
    expect(step!.airdropId).toBeNull();
    const crusadeInput = { name: "Crusade", slug: "k", description: "", bonusXp: 0, published: true, taskIds: ["step", "dropped"] };
    expect(await saveCrusade({ db: db(), projectId: "p", crusadeId: "k", input: crusadeInput })).toMatchObject({
      ok: false,
      errors: { taskIds: expect.stringContaining("Live drop's task") },
    });
  });

  it("puts a task in a live or a draft airdrop, and keeps a task in its airdrop once that has ended", async () => {
    const live = await save({ airdropId: "live" });
    expect(live.ok && live.task.airdropId).toBe("live");
    const draft = await save({ airdropId: "draft" });
    expect(draft.ok && draft.task.airdropId).toBe("draft");
    const kept = await save({ airdropId: "ended", title: "Renamed, still the ended drop's" }, "kept");
    expect(kept.ok && [kept.task.title, kept.task.airdropId]).toEqual(["Renamed, still the ended drop's", "ended"]);
    const out = await save({ airdropId: null, title: "Out of the drop" }, "kept");
    expect(out.ok && out.task.airdropId).toBeNull();
  });

  it("reads the form's airdrop, refusing it beside a campaign, and offers the airdrops that still take tasks (and the task's own)", async () => {
    const form = new FormData();
    const fields = { title: "Visit", type: "visit_link", xp: "5", verification: "none", startsAt: "", endsAt: "", cap: "", campaignId: "c", airdropId: "live" };
    for (const [k, v] of Object.entries({ ...fields, "config.url": "https://example.com" })) {
      form.set(k, v);
    }
    expect(readTaskForm(form, { chainIds: [] })).toMatchObject({ ok: false, errors: { airdropId: expect.stringContaining("one campaign or one airdrop") } });
    form.set("campaignId", "");
    const read = readTaskForm(form, { chainIds: [] });
    expect(read.ok && read.input.airdropId).toBe("live");

    const offered = await taskFormOptions({ db: db(), projectId: "p", chainIds: [], now: T });
    expect(offered.airdrops.map((a) => [a.name, a.status]).sort()).toEqual([
      ["Draft drop", "draft"],
      ["Live drop", "live"],
    ]);
    const kept = await taskFormOptions({ db: db(), projectId: "p", chainIds: [], keepAirdropId: "frozen", now: T });
    expect(kept.airdrops.map((a) => [a.name, a.status])).toContainEqual(["Frozen drop", "frozen"]);
  });
});
