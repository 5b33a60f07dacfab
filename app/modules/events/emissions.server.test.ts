import { randomUUID } from "node:crypto";
import { asc, eq, like } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { airdrop, airdropRound } from "#db/schema/airdrops";
import { deposit } from "#db/schema/ledger";
import { project, projectMember } from "#db/schema/projects";
import { campaign, task } from "#db/schema/quests";
import { appEvent } from "#db/schema/reach";
import { rewardPool } from "#db/schema/rewards";
import type { Database } from "~/lib/db.server";
import { failureMessage } from "~/lib/result";
import { freezeAirdrop } from "~/modules/airdrops/freeze.server";
import { creditDeposit, recordDepositLog } from "~/modules/deposits/deposit-postings.server";
import { depositRefOf } from "~/modules/deposits/deposit-refs.server";
import { createInvite } from "~/modules/projects/invites.server";
import { distributeEndedCampaigns } from "~/modules/rewards/distribute.server";
import { payGrants } from "~/modules/rewards/pay-grants.server";
import { saveCampaign } from "~/modules/tasks/campaigns.server";
import { attemptTask, reviewCompletion } from "~/modules/tasks/completions.server";
import { campaignSchema } from "~/modules/tasks/quests.schema";
import { voidApproval } from "~/modules/tasks/void-approval.server";
import { confirmPaid, failUnsigned } from "~/modules/withdrawals/withdrawal-postings.server";
import { requestWithdrawal, retryWithdrawal } from "~/modules/withdrawals/withdrawals.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { form, fundedMember, Q } from "#tests/setup/withdrawal-chain";
import { emitDueEvents } from "./due-events.server";
import { emitEvents } from "./emit.server";
import { EVENT_DATA, type EventType, type NewEvent } from "./event-types";

/**
 * The features' outbox events, recorded by the real domain functions: the type, key, project and
 * data of each, and that doing it again (a retried job, a second review) records nothing more.
 */

let database: Database;
const db = () => database.db;
const DAY = 86_400_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);

beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["own", "rev", "m1", "m2", "m3"].map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() })));
  await db().insert(project).values({ id: "p", slug: "p", name: "Project P" });
  await db()
    .insert(projectMember)
    .values([
      { projectId: "p", userId: "own", role: "owner" },
      { projectId: "p", userId: "rev", role: "reviewer" },
    ]);
});
afterAll(() => database.close());

/** The outbox's rows whose key starts with `prefix`, oldest first. */
async function events(prefix: string) {
  return db()
    .select({ type: appEvent.type, key: appEvent.key, projectId: appEvent.projectId, data: appEvent.data })
    .from(appEvent)
    .where(like(appEvent.key, `${prefix}%`))
    .orderBy(asc(appEvent.id));
}
const count = async () => (await db().select({ id: appEvent.id }).from(appEvent)).length;

/** Every row read back matches its type's schema (what the consumers parse it with). */
async function expectValidData() {
  for (const row of await db().select().from(appEvent)) expect(EVENT_DATA[row.type as EventType].safeParse(row.data).success, row.key).toBe(true);
}

async function makeTask(fields: Partial<typeof task.$inferInsert> & Pick<typeof task.$inferInsert, "type" | "verification">) {
  const id = randomUUID();
  await db()
    .insert(task)
    .values({ id, projectId: "p", title: "Say hello", xp: 10, config: { url: "https://example.com" }, publishedAt: at(-30), ...fields });
  return id;
}

describe("completions", () => {
  it("records created and approved by the check, a member's joining once, and the XP", async () => {
    const taskId = await makeTask({ type: "visit_link", verification: "none" });
    const done = await attemptTask({ db: db(), taskId, userId: "m1", input: { kind: "visit" }, now: at(0) });
    if (!done.ok) throw new Error(failureMessage(done));
    const about = { completionId: done.completionId, taskId, taskTitle: "Say hello", userId: "m1", campaignId: null, crusadeId: null, airdropId: null };
    expect(await events(`completion.`)).toEqual([
      { type: "completion.created", key: `completion.created:${done.completionId}`, projectId: "p", data: { ...about, reviewed: false, reason: null } },
      { type: "completion.approved", key: `completion.approved:${done.completionId}`, projectId: "p", data: { ...about, reviewed: false, reason: null } },
    ]);
    expect(await events("member.joined:p:m1")).toEqual([{ type: "member.joined", key: "member.joined:p:m1", projectId: "p", data: { userId: "m1" } }]);
    expect(await events("xp.changed:completion:")).toEqual([
      {
        type: "xp.changed",
        key: `xp.changed:completion:${done.completionId}:m1`,
        projectId: "p",
        data: { userId: "m1", delta: 10, source: `completion:${done.completionId}` },
      },
    ]);

    // A second task: the member joined once. A repeated attempt is refused and records nothing.
    const other = await makeTask({ type: "visit_link", verification: "none" });
    expect((await attemptTask({ db: db(), taskId: other, userId: "m1", input: { kind: "visit" }, now: at(0) })).ok).toBe(true);
    const before = await count();
    expect((await attemptTask({ db: db(), taskId: other, userId: "m1", input: { kind: "visit" }, now: at(0) })).ok).toBe(false);
    expect(await count()).toBe(before);
    expect(await events("member.joined:")).toHaveLength(1);
  });

  it("records a review's rejection with its reason, once; the retry and its approval as a new round; a void with the XP taken back", async () => {
    const taskId = await makeTask({ type: "submit_text", verification: "review", config: { prompt: "", minLength: 1 }, xp: 30 });
    const sent = await attemptTask({ db: db(), taskId, userId: "m2", input: { kind: "text", text: "hi" }, now: at(0) });
    if (!sent.ok) throw new Error(failureMessage(sent));
    const id = sent.completionId;
    expect((await events(`completion.`)).filter((e) => e.key.includes(id)).map((e) => e.key)).toEqual([`completion.created:${id}`]);
    expect(await events("member.joined:p:m2")).toHaveLength(1);

    expect(await reviewCompletion({ db: db(), completionId: id, reviewerId: "rev", decision: "rejected", reason: " Too short. ", now: at(0) })).toEqual({
      ok: true,
      xpAwarded: 0,
    });
    // A second review of the same submission is refused: nothing more.
    const before = await count();
    expect((await reviewCompletion({ db: db(), completionId: id, reviewerId: "rev", decision: "rejected", reason: "Again", now: at(0) })).ok).toBe(false);
    expect(await count()).toBe(before);
    const [rejected] = await events(`completion.rejected:${id}`);
    expect(rejected).toMatchObject({ key: `completion.rejected:${id}:1`, projectId: "p", data: { userId: "m2", reviewed: true, reason: "Too short." } });

    // Tried again (round 1) and approved by the team.
    expect((await attemptTask({ db: db(), taskId, userId: "m2", input: { kind: "text", text: "hello there" }, now: at(0) })).ok).toBe(true);
    expect((await reviewCompletion({ db: db(), completionId: id, reviewerId: "rev", decision: "approved", now: at(0) })).ok).toBe(true);
    expect((await events(`completion.`)).filter((e) => e.key.includes(id)).map((e) => e.key)).toEqual([
      `completion.created:${id}`,
      `completion.rejected:${id}:1`,
      `completion.created:${id}:1`,
      `completion.approved:${id}:2`,
    ]);
    expect((await events(`completion.approved:${id}:2`))[0]!.data).toMatchObject({ reviewed: true, reason: null });

    // A check voids it (a reorg, an unfollow): voided with the reason, the XP taken back; a retried job changes nothing.
    const reason = "You unfollowed before the rewards were paid, so this task no longer counts.";
    expect(await voidApproval({ db: db(), completionId: id, reason, now: at(1) })).toMatchObject({ voided: true, xpRevoked: 30 });
    const afterVoid = await count();
    expect(await voidApproval({ db: db(), completionId: id, reason, now: at(1) })).toEqual({ voided: false });
    expect(await count()).toBe(afterVoid);
    expect(await events(`completion.voided:${id}`)).toEqual([
      expect.objectContaining({ key: `completion.voided:${id}:3`, projectId: "p", data: expect.objectContaining({ reviewed: false, reason }) }),
    ]);
    expect((await events(`xp.changed:completion`)).filter((e) => e.key.includes(id)).map((e) => [e.key, (e.data as { delta: number }).delta])).toEqual([
      [`xp.changed:completion:${id}:m2`, 30],
      [`xp.changed:completion_void:${id}:m2`, -30],
    ]);
    await expectValidData();
  });
});

describe("rewards", () => {
  it("records reward.paid per grant with its XP change, and raffle.drawn, once however often the worker runs", async () => {
    const campaignId = randomUUID();
    await db()
      .insert(campaign)
      .values({ id: campaignId, projectId: "p", slug: "season", name: "Season", startsAt: at(-10), endsAt: at(-1), publishedAt: at(-11) });
    const taskId = await makeTask({ type: "visit_link", verification: "none", campaignId, xp: 5 });
    for (const m of ["m1", "m2", "m3"]) expect((await attemptTask({ db: db(), taskId, userId: m, input: { kind: "visit" }, now: at(-5) })).ok).toBe(true);
    const everyone = randomUUID();
    const raffle = randomUUID();
    await db()
      .insert(rewardPool)
      .values([
        { id: everyone, campaignId, kind: "xp", distribution: "everyone", amount: 30n },
        // A raffle saved before raffles had commitments: drawn at payout, without a chain.
        { id: raffle, campaignId, kind: "xp", distribution: "raffle", winners: 2, amount: 7n },
      ]);

    await distributeEndedCampaigns({ db: db(), now: at(0) });
    const paid = await events(`reward.paid:${everyone}:`);
    expect(paid.map((e) => e.key)).toEqual(["m1", "m2", "m3"].map((m) => `reward.paid:${everyone}:${m}`));
    expect(paid[0]).toMatchObject({
      type: "reward.paid",
      projectId: "p",
      data: {
        poolId: everyone,
        campaignId,
        campaignTitle: "Season",
        userId: "m1",
        kind: "xp",
        amount: "10",
        asset: null,
        distribution: "everyone",
        rank: null,
      },
    });
    expect((await events(`xp.changed:reward:${everyone}:`)).map((e) => (e.data as { delta: number }).delta)).toEqual([10, 10, 10]);
    expect(await events(`raffle.drawn:${raffle}`)).toEqual([
      {
        type: "raffle.drawn",
        key: `raffle.drawn:${raffle}`,
        projectId: "p",
        data: { poolId: raffle, campaignId, campaignTitle: "Season", winners: 2, entrants: 3 },
      },
    ]);
    expect(await events(`reward.paid:${raffle}:`)).toHaveLength(2);

    // The worker again, and a retried payout of a paid pool: nothing more.
    const before = await count();
    await distributeEndedCampaigns({ db: db(), now: at(1) });
    expect(await payGrants({ db: db(), poolId: everyone, now: at(1) })).toBeNull();
    expect(await count()).toBe(before);
    await expectValidData();
  });
});

describe("money", () => {
  it("records a member's deposit credited once, and withdrawals failed (each time, with the reason) and confirmed", async () => {
    const { userId, wallet } = await fundedMember(db(), "saver", 0n);
    const ref = await depositRefOf({ db: db(), userId });
    const txHash = `0x${"ab".repeat(32)}` as const;
    const log = { txHash, logIndex: 0, blockNumber: 10n, blockHash: `0x${"cd".repeat(32)}` as const, from: wallet, ref, amount: parseEther("20") };
    await db().transaction((tx) => recordDepositLog(tx, { chainId: 31337, asset: Q, required: 1, confirmations: 1, log }));
    const [row] = await db().select().from(deposit).where(eq(deposit.userId, userId));
    expect(await db().transaction((tx) => creditDeposit(tx, row!, 1))).toBe(true);
    expect(await db().transaction((tx) => creditDeposit(tx, row!, 2))).toBe(false);
    expect(await events("deposit.credited:")).toEqual([
      {
        type: "deposit.credited",
        key: `deposit.credited:${row!.id}`,
        projectId: null,
        data: { depositId: row!.id, userId, asset: Q, amount: parseEther("20").toString(), chainId: 31337, txHash },
      },
    ]);

    const limits = { minimum: parseEther("1"), dailyLimit: parseEther("100"), fee: 0n };
    const requested = await requestWithdrawal({ db: db(), userId, input: form(wallet, parseEther("5")), limits });
    if (!requested.ok) throw new Error("the withdrawal was refused");
    const { id } = requested;
    const reason = "The vault is paused; nothing was paid. Retry later.";
    expect(await failUnsigned(db(), id, reason)).toBe(true);
    expect(await failUnsigned(db(), id, reason)).toBe(false);
    expect((await retryWithdrawal({ db: db(), userId, id })).ok).toBe(true);
    expect(await failUnsigned(db(), id, "The node did not answer; nothing was paid.")).toBe(true);
    const failed = await events(`withdrawal.failed:${id}:`);
    expect(failed.map((e) => (e.data as { reason: string }).reason)).toEqual([reason, "The node did not answer; nothing was paid."]);
    expect(failed[0]).toMatchObject({ projectId: null, data: { withdrawalId: id, userId, asset: Q, amount: parseEther("5").toString(), chainId: 31337 } });

    expect(await confirmPaid(db(), id, at(0))).toBe(true);
    expect(await confirmPaid(db(), id, at(0))).toBe(false);
    expect(await events(`withdrawal.confirmed:`)).toEqual([
      {
        type: "withdrawal.confirmed",
        key: `withdrawal.confirmed:${id}`,
        projectId: null,
        data: { withdrawalId: id, userId, asset: Q, amount: parseEther("5").toString(), chainId: 31337, txHash: null },
      },
    ]);
    // A member's money: no webhook reads it; the notifications job does.
    const [credited] = await db()
      .select()
      .from(appEvent)
      .where(eq(appEvent.key, `withdrawal.confirmed:${id}`));
    expect(credited).toMatchObject({ notifiedAt: null, webhookedAt: expect.any(Date) });
  });
});

describe("invitations and campaigns", () => {
  it("tells an existing member of an invitation by e-mail or by wallet, and nobody who has not signed up", async () => {
    const byMail = await createInvite({ db: db(), projectId: "p", invitedBy: "own", role: "admin", email: "m3@example.com", walletAddress: null });
    const { userId, wallet } = await fundedMember(db(), "holder", 0n);
    const byWallet = await createInvite({ db: db(), projectId: "p", invitedBy: "own", role: "reviewer", email: null, walletAddress: wallet.toLowerCase() });
    await createInvite({ db: db(), projectId: "p", invitedBy: "own", role: "admin", email: "stranger@example.com", walletAddress: null });
    expect(await events("invitation.received:")).toEqual(
      expect.arrayContaining([
        {
          type: "invitation.received",
          key: `invitation.received:${byMail.invite.id}:m3`,
          projectId: "p",
          data: { inviteId: byMail.invite.id, userId: "m3", projectName: "Project P", role: "admin", invitedBy: "OWN" },
        },
        expect.objectContaining({ key: `invitation.received:${byWallet.invite.id}:${userId}`, data: expect.objectContaining({ role: "reviewer" }) }),
      ]),
    );
    expect(await events("invitation.received:")).toHaveLength(2);
  });

  it("records campaign.published the first time only", async () => {
    const input = campaignSchema.parse({ name: "Autumn quest", slug: "autumn", startsAt: at(1).toISOString(), endsAt: at(9).toISOString() });
    const draft = await saveCampaign({ db: db(), projectId: "p", input, now: at(0) });
    if (!draft.ok) throw new Error("the campaign was refused");
    expect(await events("campaign.published:")).toEqual([]);
    const save = (published: boolean) => saveCampaign({ db: db(), projectId: "p", campaignId: draft.value.id, input: { ...input, published }, now: at(0) });
    expect((await save(true)).ok).toBe(true);
    expect((await save(false)).ok).toBe(true);
    expect((await save(true)).ok).toBe(true);
    expect(await events("campaign.published:")).toEqual([
      {
        type: "campaign.published",
        key: `campaign.published:${draft.value.id}`,
        projectId: "p",
        data: { campaignId: draft.value.id, title: "Autumn quest", startsAt: at(1).toISOString() },
      },
    ]);
  });
});

describe("airdrops", () => {
  const makeAirdrop = async (slug: string, fields: Partial<typeof airdrop.$inferInsert> = {}) => {
    const id = randomUUID();
    await db()
      .insert(airdrop)
      .values({
        id,
        projectId: "p",
        slug,
        name: `Drop ${slug}`,
        asset: Q,
        rule: "pro_rata",
        total: 1000n,
        startsAt: at(-10),
        endsAt: at(-1),
        claimDeadline: at(10),
        ...fields,
      });
    return id;
  };

  it("records airdrop.frozen at the freeze, once", async () => {
    const id = await makeAirdrop("frozen");
    expect(await freezeAirdrop({ db: db(), airdropId: id, now: at(0) })).not.toBeNull();
    expect(await freezeAirdrop({ db: db(), airdropId: id, now: at(0) })).toBeNull();
    expect(await events(`airdrop.frozen:${id}`)).toEqual([
      {
        type: "airdrop.frozen",
        key: `airdrop.frozen:${id}`,
        projectId: "p",
        data: { airdropId: id, title: "Drop frozen", members: 0, total: "0", asset: Q, root: "" },
      },
    ]);
  });

  it("emitDueEvents records airdrop.closing once per open round whose claims close within 24 hours", async () => {
    const round = (airdropId: string, step: "open" | "swept") => ({
      airdropId,
      chainId: 31337,
      distributor: "0x0000000000000000000000000000000000000001",
      fundingId: `0x${airdropId.replaceAll("-", "").padEnd(64, "0")}`,
      total: 1000n,
      deadline: 0,
      step,
    });
    const now = at(20);
    const closing = await makeAirdrop("closing", { status: "frozen", claimDeadline: new Date(now.getTime() + 23 * 3_600_000) });
    const later = await makeAirdrop("later", { status: "frozen", claimDeadline: new Date(now.getTime() + 25 * 3_600_000) });
    const closed = await makeAirdrop("closed", { status: "frozen", claimDeadline: new Date(now.getTime() - 1000) });
    const swept = await makeAirdrop("swept", { status: "frozen", claimDeadline: new Date(now.getTime() + 3_600_000) });
    await db()
      .insert(airdropRound)
      .values([round(closing, "open"), round(later, "open"), round(closed, "open"), round(swept, "swept")]);

    expect(await emitDueEvents({ db: db(), now })).toBe(1);
    expect(await emitDueEvents({ db: db(), now: new Date(now.getTime() + 60_000) })).toBe(0);
    expect(await events("airdrop.closing:")).toEqual([
      {
        type: "airdrop.closing",
        key: `airdrop.closing:${closing}`,
        projectId: "p",
        data: { airdropId: closing, title: "Drop closing", claimDeadline: new Date(now.getTime() + 23 * 3_600_000).toISOString() },
      },
    ]);
    // An hour later the second one is within 24 hours.
    expect(await emitDueEvents({ db: db(), now: new Date(now.getTime() + 3_600_000) })).toBe(1);
    expect((await events("airdrop.closing:")).map((e) => e.key)).toEqual([`airdrop.closing:${closing}`, `airdrop.closing:${later}`]);
  });
});

describe("emitEvents", () => {
  it("writes many events (a payout's batch) as the one-by-one path does, once", async () => {
    const many: NewEvent[] = Array.from({ length: 60 }, (_, i) => ({
      type: i % 2 ? "deposit.credited" : "member.joined",
      key: `many:${i}`,
      projectId: i % 2 ? null : "p",
      data: i % 2 ? { depositId: `d${i}`, userId: "m1", asset: Q, amount: "1", chainId: 31337, txHash: "0x1" } : { userId: `m${i}` },
    }));
    expect(await emitEvents(db(), many)).toBe(60);
    expect(await emitEvents(db(), many)).toBe(0);
    const rows = await db().select().from(appEvent).where(like(appEvent.key, "many:%")).orderBy(asc(appEvent.id));
    expect(rows).toHaveLength(60);
    // A deposit: for the notifications job only; a member's joining: for the project's webhooks only.
    expect(rows[1]).toMatchObject({ type: "deposit.credited", projectId: null, data: many[1]!.data, notifiedAt: null, webhookedAt: expect.any(Date) });
    expect(rows[0]).toMatchObject({ type: "member.joined", projectId: "p", data: { userId: "m0" }, notifiedAt: expect.any(Date), webhookedAt: null });
  });
});
