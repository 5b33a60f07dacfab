import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import type { Database } from "~/lib/db.server";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, checkLedger, credit, poolEscrow, projectTreasury } from "~/modules/ledger/ledger.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { CAMPAIGN_ENTERED, LIVE_POOL } from "./promise-words";
import { createRewardPool, deleteRewardPool, updateRewardPool } from "./reward-pools.server";
import type { RewardPoolInput } from "./reward.schema";
import { fundProject } from "./treasury.server";

const Q = questAsset(31337);
const E = 10n ** 18n;
const FUNDS = 10_000n * E;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * 86_400_000);
let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["own", "adm", "m"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db()
    .insert(projectMember)
    .values([
      { projectId: "p", userId: "own", role: "owner" },
      { projectId: "p", userId: "adm", role: "admin" },
    ]);
  await credit({ db: db(), key: "gift", kind: "credit", userId: "own", asset: Q, amount: FUNDS });
  const funded = await fundProject({ db: db(), projectId: "p", actorId: "own", input: { asset: Q, amount: FUNDS, requestKey: "fund" } });
  if (!funded.ok) throw new Error("the treasury was not funded");
});
afterAll(() => database.close());

const fcfs = (amount: number): RewardPoolInput => ({
  kind: "token",
  asset: Q,
  distribution: "fcfs",
  winners: 2,
  amount: BigInt(amount) * E,
  rankAmounts: null,
});

/** What the owner or a member does: the campaign's status and dates, the pool's amount, deleting it, or someone's entry. */
const stepArb = fc.oneof(
  fc.record({
    op: fc.constant("status" as const),
    published: fc.boolean(),
    startDay: fc.integer({ min: -3, max: 3 }),
    through: fc.constantFrom("form", "row"),
  }),
  fc.record({ op: fc.constant("edit" as const), amount: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ op: fc.constant("delete" as const) }),
  fc.record({ op: fc.constant("create" as const), amount: fc.integer({ min: 1, max: 50 }) }),
  fc.record({
    op: fc.constant("enter" as const),
    who: fc.constantFrom("m", "adm"),
    status: fc.constantFrom("pending" as const, "approved" as const, "rejected" as const),
  }),
);

describe("a token pool's escrow over any sequence of status changes, edits, deletes and entries", () => {
  it("never goes down, nor away, once a member has entered; while nobody has, it follows the rules of a live campaign", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 50 }), fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (first, steps) => {
        run += 1;
        const campaignId = randomUUID();
        const taskId = randomUUID();
        const dates = { startsAt: at(-1), endsAt: at(10) };
        await db()
          .insert(campaign)
          .values({ id: campaignId, projectId: "p", slug: `season-${run}`, name: "Season", ...dates, publishedAt: at(-2) });
        await db()
          .insert(task)
          .values({
            id: taskId,
            projectId: "p",
            campaignId,
            publishedAt: at(-2),
            title: "Visit",
            type: "visit_link",
            verification: "none",
            xp: 10,
            config: { url: "https://example.com" },
          });
        const created = await createRewardPool({ db: db(), campaignId, actorId: "own", input: fcfs(first), now: T });
        if (!created.ok) throw new Error("the pool was not created");
        let poolId: string | null = created.value.id;
        let entered = false;

        for (const step of steps) {
          const [c] = await db().select().from(campaign).where(eq(campaign.id, campaignId));
          const live = campaignStatus(c!, T) === "live";
          const before = poolId ? (await db().select().from(rewardPool).where(eq(rewardPool.id, poolId)))[0]! : null;

          if (step.op === "status" && step.through === "row") {
            // A status changed by another path than the campaign form (or before a member entered): the pools' rule holds anyway.
            await db()
              .update(campaign)
              .set({ publishedAt: step.published ? at(-2) : null, startsAt: at(step.startDay) })
              .where(eq(campaign.id, campaignId));
          } else if (step.op === "status") {
            const startsAt = at(step.startDay);
            const input = { name: "Season", slug: `season-${run}`, description: "", startsAt, endsAt: at(10), published: step.published };
            const saved = await saveCampaign({ db: db(), projectId: "p", campaignId, input, now: T });
            const unpublishes = c!.publishedAt !== null && !step.published;
            const reschedules = c!.startsAt <= T && startsAt > T;
            expect(saved.ok).toBe(!(entered && (unpublishes || reschedules)));
            if (!saved.ok) {
              expect(saved.errors).toEqual(unpublishes ? { published: CAMPAIGN_ENTERED.unpublish } : { startsAt: CAMPAIGN_ENTERED.reschedule });
            }
          } else if (step.op === "edit" && before) {
            const saved = await updateRewardPool({ db: db(), campaignId, poolId: before.id, actorId: "adm", input: fcfs(step.amount), now: T });
            const lowers = BigInt(step.amount) * 2n * E < before.escrowed;
            expect(saved.ok).toBe(!(lowers && (live || entered)));
            if (!saved.ok) expect(saved.errors).toEqual({ amount: live ? LIVE_POOL.lower : CAMPAIGN_ENTERED.lower });
          } else if (step.op === "delete" && before) {
            const deleted = await deleteRewardPool({ db: db(), campaignId, poolId: before.id, actorId: "own", now: T });
            expect(deleted.ok).toBe(!(live || entered));
            if (deleted.ok) poolId = null;
            else expect(deleted.errors).toEqual({ form: live ? LIVE_POOL.delete : CAMPAIGN_ENTERED.delete });
          } else if (step.op === "create" && !before) {
            const saved = await createRewardPool({ db: db(), campaignId, actorId: "own", input: fcfs(step.amount), now: T });
            expect(saved.ok).toBe(true);
            if (saved.ok) poolId = saved.value.id;
          } else if (step.op === "enter" && live) {
            // Members attempt tasks only while the campaign is live; the team's and rejected attempts enter nobody.
            await db().insert(completion).values({ id: randomUUID(), taskId, userId: step.who, period: randomUUID(), status: step.status });
            if (step.who === "m" && step.status !== "rejected") entered = true;
          }

          const after = poolId ? (await db().select().from(rewardPool).where(eq(rewardPool.id, poolId)))[0]! : null;
          if (entered && before) {
            // Entered: the pool is still there, its escrow no lower, and the campaign still live.
            expect(after?.id).toBe(before.id);
            expect(after!.escrowed).toBeGreaterThanOrEqual(before.escrowed);
          }
          if (entered && live && !(step.op === "status" && step.through === "row")) {
            // ...and through the form, a live campaign someone entered stays live.
            const [now] = await db().select().from(campaign).where(eq(campaign.id, campaignId));
            expect(campaignStatus(now!, T)).toBe("live");
          }
          if (after) expect(await accountBalance({ db: db(), account: poolEscrow(after.id), asset: Q })).toBe(after.escrowed);
        }
        const escrows = await db().select({ escrowed: rewardPool.escrowed }).from(rewardPool);
        const held = escrows.reduce((sum, p) => sum + p.escrowed, 0n);
        expect(held + (await accountBalance({ db: db(), account: projectTreasury("p"), asset: Q }))).toBe(FUNDS);
      }),
      { numRuns: 30 },
    );
    expect(await checkLedger({ db: db() })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
  });
});
