import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES } from "#contracts/dev-accounts";
import { airdrop, airdropAllocation } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { task } from "#db/schema/quests";
import { walletAddress } from "#db/schema/wallets";
import { leaderboardEntry } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { boardPage } from "~/modules/leaderboards/leaderboards.server";
import { attemptTask, reviewCompletion } from "~/modules/tasks/completions.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { airdropBoard, freezeAirdrop } from "./freeze.server";

const DAY = 86_400_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);
let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["m1", "m2", "own"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await db().insert(walletAddress).values({ id: "w1", userId: "m1", address: DEV_ADDRESSES[1], chainId: 31337, isPrimary: true });
  const drop = { projectId: "p", asset: "QUEST:31337", rule: "pro_rata" as const, total: 800n, startsAt: at(-1), endsAt: at(10), claimDeadline: at(40) };
  await db()
    .insert(airdrop)
    .values([
      { ...drop, id: "a", slug: "a", name: "Live drop", publishedAt: at(-2) },
      { ...drop, id: "draft", slug: "draft", name: "Draft drop" },
    ]);
  const visit = { projectId: "p", publishedAt: at(-2), type: "visit_link" as const, verification: "none" as const, config: { url: "https://example.com" } };
  await db()
    .insert(task)
    .values([
      { ...visit, id: "t1", title: "Visit one", xp: 30, airdropId: "a" },
      { ...visit, id: "t2", title: "Visit two", xp: 20, airdropId: "a" },
      { ...visit, id: "t3", title: "Visit draft", xp: 10, airdropId: "draft" },
      { ...visit, id: "t4", title: "Share a link", xp: 40, airdropId: "a", type: "submit_url", verification: "review", config: { prompt: "" } },
    ]);
});
afterAll(() => database.close());

const attempt = async (userId: string, taskId: string, now: Date) => {
  const result = await attemptTask({ db: db(), taskId, userId, input: { kind: "visit" }, now });
  return result.ok ? result.xpAwarded : failureMessage(result);
};

describe("an airdrop's tasks", () => {
  it("earn their XP as points on the airdrop's board, once, only while it runs, and the freeze shares by them", async () => {
    expect(await attempt("m1", "t1", T)).toBe(30);
    expect(await attempt("m1", "t2", T)).toBe(20);
    expect(await attempt("m2", "t1", at(1))).toBe(30);
    expect(await attempt("m1", "t1", at(2))).toBe("You have completed this task.");
    expect(await attempt("m2", "t3", T)).toBe("This airdrop is not published yet.");
    expect(await attempt("m2", "t2", at(10))).toBe("This airdrop has ended.");

    const board = await boardPage({ db: db(), board: airdropBoard("a") });
    expect(board.map((row) => [row.userId, row.score])).toEqual([
      ["m1", 50],
      ["m2", 30],
    ]);
    expect(
      await db()
        .select()
        .from(leaderboardEntry)
        .where(eq(leaderboardEntry.board, airdropBoard("draft"))),
    ).toEqual([]);

    // A submission reviewed after the end earns its XP, but no points: the allocation is frozen from the board at the end.
    const submitted = await attemptTask({
      db: db(),
      taskId: "t4",
      userId: "m2",
      input: { kind: "url", url: "https://example.com/post" },
      now: at(9),
    });
    if (!submitted.ok) throw new Error(failureMessage(submitted));
    const reviewed = await reviewCompletion({ db: db(), completionId: submitted.completionId, reviewerId: "own", decision: "approved", now: at(11) });
    expect(reviewed).toMatchObject({ ok: true, xpAwarded: 40 });

    const frozen = await freezeAirdrop({ db: db(), airdropId: "a", now: at(10) });
    expect(frozen).toMatchObject({ allocations: 2, leaves: 1, claimable: 500n, unclaimable: 300n });
    const rows = await db().select().from(airdropAllocation).where(eq(airdropAllocation.airdropId, "a")).orderBy(airdropAllocation.rank);
    expect(rows.map((r) => [r.userId, r.points, r.amount, r.leaf])).toEqual([
      ["m1", 50, 500n, 0],
      ["m2", 30, 300n, null],
    ]);
  });
});
