import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, task } from "#db/schema/quests";
import { xpEvent } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { socialConfigFromEnv } from "~/modules/social/social-config.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptFromForm } from "./attempt-form.server";
import { attemptTask, OWN_SUBMISSION, reviewCompletion, type AttemptInput } from "./completions.server";
import { taskFormOptions } from "./task-form.server";

/** Reviewed proof (TikTok and Instagram follows), how every completion records its check, and social tasks without a provider. */

let database: Database;
let dataDir: string;
const published = new Date("2026-01-01T00:00:00Z");
const now = new Date("2026-02-01T12:00:00Z");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
/** Nothing configured: every provider "not set up". */
const noProviders = { social: socialConfigFromEnv({ SOCIAL_TOKEN_KEY: "11".repeat(32) }, { isPublic: false, dataDir: "/nonexistent" }) };

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "questline-social-completions-"));
  await database.db.insert(user).values(["ann", "bob", "owner"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(() => database.close());

async function makeTask(fields: Partial<typeof task.$inferInsert> & Pick<typeof task.$inferInsert, "type" | "verification">) {
  const id = randomUUID();
  await database.db.insert(task).values({ id, projectId: "p", title: `Task ${id.slice(0, 4)}`, xp: 10, config: {}, publishedAt: published, ...fields });
  return id;
}
const attempt = (taskId: string, userId: string, input: AttemptInput) => attemptTask({ db: database.db, taskId, userId, input, now });
const completionOf = async (taskId: string, userId: string) =>
  (await database.db.select().from(completion).where(eq(completion.taskId, taskId))).find((c) => c.userId === userId);
const xpOf = async (userId: string) => (await database.db.select().from(xpEvent).where(eq(xpEvent.userId, userId))).reduce((sum, e) => sum + e.amount, 0);

describe("how each completion was checked", () => {
  it("records none for a visit, auto for Questline's own checks, review for the team's", async () => {
    const visit = await makeTask({ type: "visit_link", verification: "none", config: { url: "https://example.com" } });
    const quiz = await makeTask({ type: "quiz", verification: "auto", config: { question: "2+2?", answers: ["4"] } });
    const text = await makeTask({ type: "submit_text", verification: "review", config: { prompt: "", minLength: 1 } });
    const unchecked = await makeTask({ type: "submit_text", verification: "none", config: { prompt: "", minLength: 1 } });
    expect(await attempt(visit, "ann", { kind: "visit" })).toMatchObject({ ok: true, status: "approved" });
    expect(await attempt(quiz, "ann", { kind: "answer", answer: "4" })).toMatchObject({ ok: true, status: "approved" });
    expect(await attempt(text, "ann", { kind: "text", text: "hello" })).toMatchObject({ ok: true, status: "pending" });
    expect(await attempt(unchecked, "ann", { kind: "text", text: "hello" })).toMatchObject({ ok: true, status: "approved" });
    expect((await completionOf(visit, "ann"))?.verifiedBy).toBe("none");
    expect((await completionOf(quiz, "ann"))?.verifiedBy).toBe("auto");
    expect((await completionOf(text, "ann"))?.verifiedBy).toBe("review");
    expect((await completionOf(unchecked, "ann"))?.verifiedBy).toBe("none");
    expect((await completionOf(quiz, "ann"))?.evidence).toBeNull();
  });

  it("asks for a written answer in words that fit its least length", async () => {
    const any = await makeTask({ type: "submit_text", verification: "review", config: { prompt: "", minLength: 1 } });
    const longer = await makeTask({ type: "submit_text", verification: "review", config: { prompt: "", minLength: 20 } });
    expect(await attempt(any, "bea", { kind: "text", text: "   " })).toMatchObject({ ok: false, code: "invalid", errors: { text: "Write your answer." } });
    expect(await attempt(longer, "bea", { kind: "text", text: "too short" })).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { text: "Write at least 20 characters." },
    });
    expect(await completionOf(any, "bea")).toBeUndefined();
  });
});

describe("reviewed proof of a TikTok or Instagram follow", () => {
  it("waits for the team, is never approved by itself, and is not decided by the member", async () => {
    const id = await makeTask({ type: "tiktok_follow", verification: "review", config: { handle: "questline" }, xp: 30 });
    const before = await xpOf("ann");
    expect(await attempt(id, "ann", { kind: "check" })).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { proof: expect.stringMatching(/screenshot or a link/) },
    });
    expect(await attempt(id, "ann", { kind: "proof", url: null, imageUrl: null })).toMatchObject({ ok: false, code: "invalid" });
    expect(await attempt(id, "ann", { kind: "proof", url: "ftp://example.com/x", imageUrl: null })).toMatchObject({
      ok: false,
      errors: { proof: "Enter a full link starting with https://" },
    });

    const sent = await attempt(id, "ann", { kind: "proof", url: "https://www.tiktok.com/@ann/following", imageUrl: null });
    expect(sent).toMatchObject({ ok: true, status: "pending", xpAwarded: 0 });
    const row = await completionOf(id, "ann");
    expect(row).toMatchObject({ status: "pending", verifiedBy: "review", submission: { url: "https://www.tiktok.com/@ann/following" } });
    expect(await xpOf("ann")).toBe(before);

    // The member cannot approve it, whatever their role; another member of the team can.
    expect(await reviewCompletion({ db: database.db, completionId: row!.id, reviewerId: "ann", decision: "approved", now })).toEqual({
      ok: false,
      code: "forbidden",
      message: OWN_SUBMISSION,
    });
    expect(await reviewCompletion({ db: database.db, completionId: row!.id, reviewerId: "owner", decision: "approved", now })).toEqual({
      ok: true,
      xpAwarded: 30,
    });
    expect(await completionOf(id, "ann")).toMatchObject({ status: "approved", verifiedBy: "review", reviewedBy: "owner" });
    expect(await xpOf("ann")).toBe(before + 30);
  });

  it("stays pending even on a task saved as checked automatically", async () => {
    const id = await makeTask({ type: "instagram_follow", verification: "auto", config: { handle: "questline" } });
    expect(await attempt(id, "bob", { kind: "proof", url: "https://www.instagram.com/bob/", imageUrl: null })).toMatchObject({ ok: true, status: "pending" });
  });

  it("takes a screenshot from the task page's form, or says what is missing on the proof field", async () => {
    const id = await makeTask({ type: "instagram_follow", verification: "review", config: { handle: "questline" } });
    const [t] = await database.db.select().from(task).where(eq(task.id, id));
    const submit = (fields: Record<string, string | File>) => {
      const formData = new FormData();
      for (const [k, v] of Object.entries(fields)) formData.set(k, v);
      return attemptFromForm({ db: database.db, task: t!, userId: "ann", formData, dataDir, now });
    };
    expect(await submit({ intent: "check" })).toMatchObject({ ok: false, errors: { form: expect.stringMatching(/out of date/) } });
    expect(await submit({ intent: "proof", proofUrl: "", image: new File([], "") })).toMatchObject({
      ok: false,
      errors: { proof: expect.stringMatching(/screenshot/) },
    });
    expect(await submit({ intent: "proof", proofUrl: "", image: new File([PNG], "follow.png", { type: "image/png" }) })).toMatchObject({
      ok: true,
      status: "pending",
    });
    expect((await completionOf(id, "ann"))?.submission).toMatchObject({ imageUrl: expect.stringMatching(/^\/uploads\//) });
  });
});

describe("a social task whose provider is not set up on this server", () => {
  it("changes nothing: no completion, no place taken", async () => {
    const id = await makeTask({ type: "x_follow", verification: "auto", config: { handle: "questline" }, cap: 5 });
    for (const social of [undefined, noProviders]) {
      const result = await attemptTask({ db: database.db, taskId: id, userId: "ann", input: { kind: "check" }, social, now });
      expect(result).toEqual({ ok: false, code: "unavailable", message: "X is not set up on this server." });
    }
    expect(await completionOf(id, "ann")).toBeUndefined();
    const [row] = await database.db.select().from(task).where(eq(task.id, id));
    expect(row?.slotsTaken).toBe(0);
  });

  it("is listed in the task form, marked not set up", async () => {
    const { types } = await taskFormOptions({ db: database.db, projectId: "p", chainIds: [], socialProviders: { tiktok: true } });
    expect(types.find((t) => t.value === "x_follow")?.notSetUp).toBe("x");
    expect(types.find((t) => t.value === "tiktok_post")?.notSetUp).toBeNull();
    // Proof needs no provider: never marked.
    expect(types.find((t) => t.value === "instagram_follow")?.notSetUp).toBeNull();
    expect(types.find((t) => t.value === "quiz")?.notSetUp).toBeNull();
  });
});
