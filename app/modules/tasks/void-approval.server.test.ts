import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, crusade, reviewDecision, task } from "#db/schema/quests";
import { xpEvent } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { boardKey, rankOf } from "~/modules/leaderboards/leaderboards.server";
import { histogramDrift } from "#tests/setup/board-checks";
import { createTestDatabase } from "#tests/setup/test-db";
import { attemptTask } from "./completions.server";
import { voidApproval, voidByTeam } from "./void-approval.server";

/** Voiding an approved completion: what it takes back (its place, its XP, an open airdrop's points) and what stands (a crusade's bonus). */

const HOUR = 3_600_000;
const NOW = new Date();
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);
const REASON = "You unfollowed @lumenswap before the rewards were paid, so this task no longer counts.";
let database: Database;
const db = () => database.db;

const drop = {
  projectId: "p",
  asset: "QUEST:31337",
  rule: "pro_rata" as const,
  total: 100n,
  startsAt: at(-48),
  endsAt: at(48),
  claimDeadline: at(500),
  publishedAt: at(-50),
};
const visit = { projectId: "p", type: "visit_link" as const, verification: "none" as const, config: { url: "https://example.com" }, publishedAt: at(-50) };

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["m1", "m2", "m3", "m4"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db()
    .insert(airdrop)
    .values([
      { ...drop, id: "open", slug: "open", name: "Open drop" },
      { ...drop, id: "later", slug: "later", name: "Drop frozen later" },
    ]);
  await db()
    .insert(crusade)
    .values({ id: "k", projectId: "p", slug: "k", name: "Crusade", bonusXp: 50, publishedAt: at(-50) });
  await db()
    .insert(task)
    .values([
      { ...visit, id: "capped", title: "Capped", xp: 10, cap: 2 },
      { ...visit, id: "in-open", title: "Open drop's task", xp: 15, airdropId: "open" },
      { ...visit, id: "in-later", title: "Later drop's task", xp: 15, airdropId: "later" },
      { ...visit, id: "step1", title: "Step 1", xp: 5, crusadeId: "k", crusadePosition: 1 },
      { ...visit, id: "step2", title: "Step 2", xp: 7, crusadeId: "k", crusadePosition: 2 },
    ]);
});
afterAll(() => database.close());

async function approve(taskId: string, userId: string, hours = -10) {
  const done = await attemptTask({ db: db(), taskId, userId, input: { kind: "visit" }, now: at(hours) });
  if (!done.ok) throw new Error(failureMessage(done));
  return done.completionId;
}
const score = async (board: string, userId: string) => (await rankOf({ db: db(), board, userId }))?.score ?? null;
const slots = async (taskId: string) => (await db().select({ n: task.slotsTaken }).from(task).where(eq(task.id, taskId)))[0]!.n;

describe("voiding an approval", () => {
  it("rejects it with the reason, frees its place, takes its XP back once, and leaves a completion no longer approved alone", async () => {
    const id = await approve("capped", "m1");
    await approve("capped", "m2");
    expect(await slots("capped")).toBe(2);
    expect(await voidApproval({ db: db(), completionId: id, reason: REASON, onlyIf: () => false, now: NOW })).toEqual({ voided: false });
    expect(await voidApproval({ db: db(), completionId: id, reason: REASON, evidence: { voidedAt: NOW.toISOString() }, now: NOW })).toEqual({
      voided: true,
      userId: "m1",
      taskId: "capped",
      xpRevoked: 10,
    });
    const [row] = await db().select().from(completion).where(eq(completion.id, id));
    expect(row).toMatchObject({ status: "rejected", reason: REASON, evidence: { voidedAt: NOW.toISOString() }, updatedAt: NOW });
    expect(await slots("capped")).toBe(1);
    expect(await score("p:p|all", "m1")).toBeNull();
    expect(await voidApproval({ db: db(), completionId: id, reason: REASON, now: NOW })).toEqual({ voided: false });
    expect(await slots("capped")).toBe(1);
    // The place is there to take again.
    expect(await approve("capped", "m3")).toBeTruthy();
  });

  it("takes an airdrop task's points off the airdrop's board while it is open; once frozen, the allocation keeps them", async () => {
    const open = await approve("in-open", "m4");
    const later = await approve("in-later", "m4");
    expect(await score(boardKey({ kind: "airdrop", airdropId: "open" }, "all"), "m4")).toBe(15);
    await voidApproval({ db: db(), completionId: open, reason: REASON, now: NOW });
    expect(await score(boardKey({ kind: "airdrop", airdropId: "open" }, "all"), "m4")).toBeNull();

    await db().update(airdrop).set({ status: "frozen", frozenAt: NOW }).where(eq(airdrop.id, "later"));
    await voidApproval({ db: db(), completionId: later, reason: REASON, now: NOW });
    expect(await score(boardKey({ kind: "airdrop", airdropId: "later" }, "all"), "m4")).toBe(15);
    expect(await score("global|all", "m4")).toBeNull();
    expect(await histogramDrift(db())).toEqual([]);
  });

  it("leaves a crusade's bonus standing when it voids a step that finished the crusade", async () => {
    await approve("step1", "m2", -5);
    const last = await approve("step2", "m2", -4);
    const bonus = await db()
      .select({ amount: xpEvent.amount })
      .from(xpEvent)
      .where(and(eq(xpEvent.sourceType, "crusade"), eq(xpEvent.userId, "m2")));
    expect(bonus).toEqual([{ amount: 50 }]);
    const before = await score("global|all", "m2");
    expect(await voidApproval({ db: db(), completionId: last, reason: REASON, now: NOW })).toMatchObject({ voided: true, xpRevoked: 7 });
    expect(await score("global|all", "m2")).toBe(before! - 7);
    expect(await histogramDrift(db())).toEqual([]);
  });

  it("lets a team member void another member's approval with their name on it, never their own, and only an approval", async () => {
    const theirs = await approve("step1", "m3");
    const own = await approve("step1", "m4");
    expect(await voidByTeam({ db: db(), completionId: own, reviewerId: "m4", reason: "Not earned" })).toMatchObject({ ok: false, code: "forbidden" });
    expect(await voidByTeam({ db: db(), completionId: theirs, reviewerId: "m4", reason: "Bought followers", now: NOW })).toEqual({ ok: true });
    const [voided] = await db().select().from(completion).where(eq(completion.id, theirs));
    expect(voided).toMatchObject({ status: "rejected", reason: "Bought followers" });
    expect(await db().select({ reviewerId: reviewDecision.reviewerId }).from(reviewDecision).where(eq(reviewDecision.completionId, theirs))).toContainEqual({
      reviewerId: "m4",
    });
    expect(await voidByTeam({ db: db(), completionId: theirs, reviewerId: "m4", reason: "Again" })).toMatchObject({ ok: false, code: "conflict" });
    expect((await db().select().from(completion).where(eq(completion.id, own)))[0]!.status).toBe("approved");
  });
});
