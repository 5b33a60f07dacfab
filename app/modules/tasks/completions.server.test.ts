import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { campaign, completion, crusade, quizAttempt, reviewDecision, task } from "#db/schema/quests";
import { xpEvent } from "#db/schema/xp";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { boardKey, rankOf } from "~/modules/leaderboards/leaderboards.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptTask, firstCompleters, OWN_SUBMISSION, reviewCompletion } from "./completions.server";
import { saveTask } from "./tasks.server";

let database: Database;
const published = new Date("2026-01-01T00:00:00Z");

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values(Array.from({ length: 130 }, (_, i) => ({ id: `m${i}`, email: `m${i}@example.com`, name: `M${i}` })));
  await database.db.insert(project).values({ id: "p", slug: "p", name: "P" });
});
afterAll(() => database.close());

async function makeTask(fields: Partial<typeof task.$inferInsert> & Pick<typeof task.$inferInsert, "type" | "verification">) {
  const id = randomUUID();
  await database.db.insert(task).values({ id, projectId: "p", title: `Task ${id.slice(0, 4)}`, xp: 10, config: {}, publishedAt: published, ...fields });
  return id;
}

const attempt = (taskId: string, userId: string, input: Parameters<typeof attemptTask>[0]["input"], now?: Date) =>
  attemptTask({ db: database.db, taskId, userId, input, now });

const xpOf = async (userId: string) => (await rankOf({ db: database.db, board: boardKey({ kind: "project", projectId: "p" }, "all"), userId }))?.score ?? 0;

describe("attempting tasks", () => {
  it("approves a visited link at once and pays its XP once, even when verifications race", async () => {
    const id = await makeTask({ type: "visit_link", verification: "none", config: { url: "https://example.com" }, xp: 25 });
    const results = await Promise.all(Array.from({ length: 5 }, () => attempt(id, "m1", { kind: "visit" })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => r.ok)).toMatchObject({ status: "approved", xpAwarded: 25 });
    expect(await xpOf("m1")).toBe(25);
    expect(await database.db.select().from(xpEvent).where(eq(xpEvent.userId, "m1"))).toHaveLength(1);
    expect(await attempt(id, "m1", { kind: "visit" })).toEqual({ ok: false, code: "not_met", message: "You have completed this task." });
  });

  it("admits exactly `cap` completers, however many race for the last places", async () => {
    const id = await makeTask({ type: "visit_link", verification: "none", config: { url: "https://example.com" }, cap: 100 });
    const members = Array.from({ length: 120 }, (_, i) => `m${i + 10}`);
    const results = await Promise.all(members.map((m) => attempt(id, m, { kind: "visit" })));
    expect(results.filter((r) => r.ok)).toHaveLength(100);
    expect(results.filter((r) => !r.ok && r.code === "not_met" && r.message.startsWith("This task is full"))).toHaveLength(20);
    const [row] = await database.db.select().from(task).where(eq(task.id, id));
    expect(row?.slotsTaken).toBe(100);
    expect(await database.db.select().from(completion).where(eq(completion.taskId, id))).toHaveLength(100);
    // The place is taken last: a refused attempt's completion and XP were rolled back with it.
    expect(await database.db.select().from(xpEvent).where(inArray(xpEvent.userId, members))).toHaveLength(100);
    expect((await Promise.all(members.map(xpOf))).filter((xp) => xp > 0)).toHaveLength(100);
  });

  it("checks quiz answers ignoring case and spaces, counts wrong ones and makes the member wait", async () => {
    const id = await makeTask({
      type: "quiz",
      verification: "auto",
      config: { question: "Capital of France?", answers: ["Paris"], retryDelaySeconds: 60 },
    });
    const t0 = new Date();
    expect(await attempt(id, "m2", { kind: "answer", answer: "Lyon" }, t0)).toMatchObject({ ok: false, code: "limited", message: "That is not the answer." });
    expect(await attempt(id, "m2", { kind: "answer", answer: " p a R i s " }, new Date(t0.getTime() + 10_000))).toMatchObject({
      ok: false,
      code: "limited",
      message: "Try again in 50 seconds.",
    });
    expect(await attempt(id, "m2", { kind: "answer", answer: " p a R i s " }, new Date(t0.getTime() + 61_000))).toMatchObject({
      ok: true,
      status: "approved",
    });
    const [tries] = await database.db
      .select()
      .from(quizAttempt)
      .where(and(eq(quizAttempt.taskId, id), eq(quizAttempt.userId, "m2")));
    expect(tries?.wrongAnswers).toBe(1);
  });

  it("lets a daily task be done once per UTC day", async () => {
    const id = await makeTask({ type: "visit_link", verification: "none", recurrence: "daily", config: { url: "https://example.com" } });
    const day1 = new Date("2026-11-20T23:00:00Z");
    expect((await attempt(id, "m3", { kind: "visit" }, day1)).ok).toBe(true);
    expect(await attempt(id, "m3", { kind: "visit" }, new Date("2026-11-20T23:59:00Z"))).toEqual({
      ok: false,
      code: "not_met",
      message: "Done for today. Come back tomorrow.",
    });
    expect((await attempt(id, "m3", { kind: "visit" }, new Date("2026-11-21T00:01:00Z"))).ok).toBe(true);
  });

  it("respects the task's window and its campaign's dates", async () => {
    const c = randomUUID();
    await database.db.insert(campaign).values({
      id: c,
      projectId: "p",
      slug: "later",
      name: "Later",
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 2 * 86_400_000),
      publishedAt: published,
    });
    const inCampaign = await makeTask({ type: "visit_link", verification: "none", config: { url: "https://x.y" }, campaignId: c });
    expect(await attempt(inCampaign, "m4", { kind: "visit" })).toEqual({ ok: false, code: "not_met", message: "This campaign has not started yet." });
    const ended = await makeTask({ type: "visit_link", verification: "none", config: { url: "https://x.y" }, endsAt: new Date(Date.now() - 1000) });
    expect(await attempt(ended, "m4", { kind: "visit" })).toEqual({ ok: false, code: "not_met", message: "This task has ended." });
    const draft = await makeTask({ type: "visit_link", verification: "none", config: { url: "https://x.y" }, publishedAt: null });
    expect(await attempt(draft, "m4", { kind: "visit" })).toEqual({ ok: false, code: "not_met", message: "This task is not published yet." });
  });

  it("checks that a wallet is linked", async () => {
    await database.db.insert(walletAddress).values({ id: randomUUID(), userId: "m5", address: "0x2222222222222222222222222222222222222222", chainId: 31337 });
    const walletTask = await makeTask({ type: "wallet_connected", verification: "auto" });
    expect((await attempt(walletTask, "m5", { kind: "check" })).ok).toBe(true);
    expect(await attempt(walletTask, "m6", { kind: "check" })).toMatchObject({ ok: false });
  });
});

describe("review", () => {
  it("holds submissions for review; a rejection needs a reason; approval after rejection pays once", async () => {
    const id = await makeTask({ type: "submit_url", verification: "review", config: { prompt: "" }, cap: 1, xp: 40 });
    expect(await attempt(id, "m7", { kind: "url", url: "not a url" })).toEqual({
      ok: false,
      code: "invalid",
      errors: { url: "Enter a full link starting with https://" },
    });
    const submitted = await attempt(id, "m7", { kind: "url", url: "https://example.com/post" });
    expect(submitted).toMatchObject({ ok: true, status: "pending", xpAwarded: 0 });
    const completionId = submitted.ok ? submitted.completionId : "";
    expect(await attempt(id, "m8", { kind: "url", url: "https://example.com/b" })).toMatchObject({
      ok: false,
      code: "not_met",
      message: expect.stringContaining("full"),
    });

    expect(await reviewCompletion({ db: database.db, completionId, reviewerId: "m0", decision: "rejected" })).toEqual({
      ok: false,
      code: "invalid",
      errors: { reason: "Say why, so the member can do better." },
    });
    expect(await reviewCompletion({ db: database.db, completionId, reviewerId: "m0", decision: "rejected", reason: "Link is private" })).toEqual({
      ok: true,
      xpAwarded: 0,
    });
    const [rejected] = await database.db.select().from(completion).where(eq(completion.id, completionId));
    expect(rejected).toMatchObject({ status: "rejected", reason: "Link is private", reviewedBy: "m0" });

    const approvals = await Promise.all([
      reviewCompletion({ db: database.db, completionId, reviewerId: "m0", decision: "approved" }),
      reviewCompletion({ db: database.db, completionId, reviewerId: "m9", decision: "approved" }),
    ]);
    expect(approvals.filter((a) => a.ok)).toEqual([{ ok: true, xpAwarded: 40 }]);
    expect(await xpOf("m7")).toBe(40);
    const decisions = await database.db.select().from(reviewDecision).where(eq(reviewDecision.completionId, completionId));
    expect(decisions.map((d) => d.decision).sort()).toEqual(["approved", "rejected"]);
    expect(await firstCompleters({ db: database.db, taskId: id })).toMatchObject([{ userId: "m7" }]);
  });

  it("lets nobody decide on their own submission, alone or in a batch, first time or after a rejection", async () => {
    const id = await makeTask({ type: "submit_url", verification: "review", config: { prompt: "" }, xp: 500 });
    const before = await xpOf("m20");
    const own = await attempt(id, "m20", { kind: "url", url: "https://example.com/mine" });
    if (!own.ok) throw new Error("attempt");
    const review = (reviewerId: string, decision: "approved" | "rejected") =>
      reviewCompletion({ db: database.db, completionId: own.completionId, reviewerId, decision, reason: "No" });

    expect(await review("m20", "approved")).toEqual({ ok: false, code: "forbidden", message: OWN_SUBMISSION });
    expect(await review("m20", "rejected")).toEqual({ ok: false, code: "forbidden", message: OWN_SUBMISSION });
    expect(await xpOf("m20")).toBe(before);
    // Rejected by someone else, then re-approved: still not by the member.
    expect(await review("m21", "rejected")).toEqual({ ok: true, xpAwarded: 0 });
    expect(await review("m20", "approved")).toEqual({ ok: false, code: "forbidden", message: OWN_SUBMISSION });
    const [row] = await database.db.select().from(completion).where(eq(completion.id, own.completionId));
    expect(row).toMatchObject({ status: "rejected", reviewedBy: "m21" });
    expect(
      await database.db
        .select()
        .from(reviewDecision)
        .where(and(eq(reviewDecision.completionId, own.completionId), eq(reviewDecision.reviewerId, "m20"))),
    ).toEqual([]);
    expect(await review("m21", "approved")).toEqual({ ok: true, xpAwarded: 500 });
    expect(await xpOf("m20")).toBe(before + 500);
  });

  it("keeps a task's XP once members have submitted it, so a waiting submission cannot be raised", async () => {
    const db = database.db;
    const input = {
      title: "Post a link",
      description: "",
      type: "submit_url" as const,
      config: { prompt: "" },
      xp: 10,
      verification: "review" as const,
      recurrence: "once" as const,
      startsAt: null,
      endsAt: null,
      cap: null,
      campaignId: null,
      published: true,
    };
    const saved = await saveTask({ db, projectId: "p", input, now: published });
    if (!saved.ok) throw new Error("task");
    expect(await saveTask({ db, projectId: "p", taskId: saved.task.id, input: { ...input, xp: 20 } })).toMatchObject({ ok: true, task: { xp: 20 } });
    const pending = await attempt(saved.task.id, "m22", { kind: "url", url: "https://example.com/x" });
    expect(pending).toMatchObject({ ok: true, status: "pending" });
    expect(await saveTask({ db, projectId: "p", taskId: saved.task.id, input: { ...input, xp: 100_000 } })).toEqual({
      ok: false,
      code: "invalid",
      errors: { xp: "Members have completed or submitted this task: its XP cannot change" },
    });
    // Other fields still change.
    expect(await saveTask({ db, projectId: "p", taskId: saved.task.id, input: { ...input, xp: 20, title: "Post a link here" } })).toMatchObject({ ok: true });
  });
});

describe("crusades", () => {
  it("unlock each task when the previous one is approved, and pay a bonus at the end", async () => {
    const cid = randomUUID();
    await database.db.insert(crusade).values({ id: cid, projectId: "p", slug: "c", name: "C", bonusXp: 100, publishedAt: published });
    const steps = [];
    for (const position of [1, 2, 3]) {
      steps.push(
        await makeTask({ type: "visit_link", verification: "none", config: { url: "https://x.y" }, crusadeId: cid, crusadePosition: position, xp: 5 }),
      );
    }
    const [first, second, third] = steps as [string, string, string];
    expect(await attempt(second, "m11", { kind: "visit" })).toMatchObject({ ok: false, code: "not_met", message: expect.stringContaining("first") });
    expect((await attempt(first, "m11", { kind: "visit" })).ok).toBe(true);
    expect((await attempt(second, "m11", { kind: "visit" })).ok).toBe(true);
    const before = await xpOf("m11");
    expect(await attempt(third, "m11", { kind: "visit" })).toMatchObject({ ok: true, xpAwarded: 105 });
    expect((await xpOf("m11")) - before).toBe(105);
  });
});
