import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import type { Database } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptFromForm } from "./attempt-form.server";
import { saveTask, type TaskInput } from "./tasks.server";

let database: Database;
let dataDir: string;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "questline-attempt-"));
  await database.db.insert(user).values([{ id: "ann", email: "ann@example.com", name: "Ann" }]);
  await database.db.insert(project).values([{ id: "p", slug: "p", name: "P" }]);
});
afterAll(() => database.close());

const createTask = async (fields: Partial<TaskInput>) => {
  const input: TaskInput = {
    title: "A task",
    description: "",
    type: "visit_link",
    config: { url: "https://example.com" },
    xp: 10,
    verification: "none",
    recurrence: "once",
    startsAt: null,
    endsAt: null,
    cap: null,
    campaignId: null,
    published: true,
    ...fields,
  };
  const saved = await saveTask({ db: database.db, projectId: "p", input });
  if (!saved.ok) throw new Error(failureMessage(saved));
  return saved.task;
};
const form = (fields: Record<string, string | File>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  return fd;
};
const attempt = (task: Awaited<ReturnType<typeof createTask>>, fields: Record<string, string | File>) =>
  attemptFromForm({ db: database.db, task, userId: "ann", formData: form(fields), dataDir });

describe("attempting a task from its page", () => {
  it("refuses an intent of another type", async () => {
    const task = await createTask({});
    expect(await attempt(task, { intent: "check" })).toMatchObject({ ok: false, code: "invalid", errors: { form: expect.any(String) } });
    expect(await attempt(task, { intent: "visit" })).toEqual({ ok: true, status: "approved", xpAwarded: 10 });
  });

  it("keeps a wrong quiz answer in the field with the retry wait", async () => {
    const task = await createTask({ type: "quiz", verification: "auto", config: { question: "2 + 2?", answers: ["4"], retryDelaySeconds: 30 } });
    expect(await attempt(task, { intent: "answer", answer: "" })).toMatchObject({ ok: false, code: "invalid", errors: { answer: "Enter your answer" } });
    // A wrong answer with a retry delay is a limit (429 with Retry-After), shown on the answer's field.
    expect(await attempt(task, { intent: "answer", answer: "five" })).toMatchObject({
      ok: false,
      code: "limited",
      errors: { answer: "That is not the answer." },
      retryAfterSeconds: 30,
      value: "five",
    });
  });

  it("stores a submitted image for review, and removes it when the attempt fails", async () => {
    const task = await createTask({ type: "submit_image", verification: "review", config: { prompt: "" } });
    const image = () => new File([PNG], "shot.png", { type: "image/png" });
    expect(await attempt(task, { intent: "image", image: new File(["hello"], "a.png") })).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { image: expect.any(String) },
    });
    expect(await attempt(task, { intent: "image", image: image() })).toEqual({ ok: true, status: "pending", xpAwarded: 0 });
    expect(await readdir(path.join(dataDir, "uploads"))).toHaveLength(1);
    // Already waiting for review (the rule's answer, not a wrong input): the second image is not kept.
    expect(await attempt(task, { intent: "image", image: image() })).toMatchObject({ ok: false, code: "not_met", errors: { image: expect.any(String) } });
    expect(await readdir(path.join(dataDir, "uploads"))).toHaveLength(1);
  });
});
