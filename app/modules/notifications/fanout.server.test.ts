import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { airdrop, airdropAllocation, airdropClaim } from "#db/schema/airdrops";
import { deposit, withdrawal } from "#db/schema/ledger";
import { project, projectInvite, projectMember } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { appEvent, notification, projectFollow } from "#db/schema/reach";
import { raffleEntrant, rewardGrant, rewardPool } from "#db/schema/rewards";
import { rowsOf, type Database, type Db } from "~/lib/db.server";
import { emitEvent } from "~/modules/events/emit.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { notifyFromEvents, notifyPendingEvents } from "./fanout.server";
import { saveNotificationSettings, notificationSettings } from "./preferences.server";

let database: Database;
let db: Db;
const now = new Date("2026-11-29T10:00:00Z");
const MEMBERS = ["ann", "bob", "cy", "dee", "own", "adm", "rev"];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await db.insert(user).values(MEMBERS.map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db.insert(user).values({ id: "wal", email: "0xabc@wallet.questline.invalid" });
  await db.insert(project).values({ id: "p", slug: "pixel", name: "Pixel" });
  await db.insert(projectMember).values([
    { projectId: "p", userId: "own", role: "owner" },
    { projectId: "p", userId: "adm", role: "admin" },
    { projectId: "p", userId: "rev", role: "reviewer" },
  ]);
  await db
    .insert(task)
    .values({ id: "t", projectId: "p", title: "Post a photo", type: "visit_link", verification: "none", xp: 10, config: { url: "https://example.com" } });
  await db.insert(completion).values([
    { id: "c-ann", taskId: "t", userId: "ann", period: "once", status: "rejected", reason: "Blurry" },
    { id: "c-bob", taskId: "t", userId: "bob", period: "once", status: "approved" },
    { id: "c-wal", taskId: "t", userId: "wal", period: "once", status: "approved" },
  ]);
  await db.insert(campaign).values({ id: "camp", projectId: "p", slug: "season-1", name: "Season 1", startsAt: now, endsAt: now });
  await db.insert(rewardPool).values({ id: "pool", campaignId: "camp", distribution: "raffle", winners: 1, amount: 50n, status: "paid" });
  await db.insert(raffleEntrant).values(["ann", "bob", "cy"].map((userId, i) => ({ poolId: "pool", position: i, userId })));
  await db.insert(rewardGrant).values({ poolId: "pool", userId: "bob", position: 1, amount: 50n });
  const day = { startsAt: now, endsAt: now, claimDeadline: now };
  await db.insert(airdrop).values({ id: "ad", projectId: "p", slug: "drop", name: "Drop", asset: "QUEST:31337", rule: "pro_rata", total: 100n, ...day });
  await db.insert(airdropAllocation).values([
    { airdropId: "ad", userId: "ann", rank: 1, points: 5, amount: 60n, leaf: 0, account: "0xa" },
    { airdropId: "ad", userId: "bob", rank: 2, points: 3, amount: 40n, leaf: 1, account: "0xb" },
    { airdropId: "ad", userId: "cy", rank: 3, points: 1, amount: 0n, leaf: null },
  ]);
  await db.insert(airdropClaim).values({ chainId: 31337, txHash: "0x1", logIndex: 0, airdropId: "ad", leaf: 1, account: "0xb", amount: 40n, blockNumber: 1 });
  const chainRow = { chainId: 31337, asset: "QUEST:31337", amount: 2_500_000_000_000_000_000n };
  await db
    .insert(deposit)
    .values({ id: "d1", ...chainRow, txHash: "0x2", logIndex: 0, blockNumber: 1, blockHash: "0x3", fromAddress: "0xa", ref: "r", userId: "ann", required: 1 });
  await db.insert(withdrawal).values([
    { id: "w1", userId: "ann", ...chainRow, toAddress: "0xa", requestKey: "k1", status: "confirmed" },
    { id: "w2", userId: "ann", ...chainRow, toAddress: "0xa", requestKey: "k2", status: "failed", failure: "The vault is empty." },
  ]);
  await db.insert(projectInvite).values({ id: "inv", projectId: "p", email: "dee@example.com", role: "admin", tokenHash: "h", expiresAt: now });
  await db.insert(projectFollow).values([
    { userId: "cy", projectId: "p" },
    { userId: "dee", projectId: "p" },
  ]);
});
afterAll(() => database?.close());

const completionData = (id: string, userId: string, reviewed: boolean, reason: string | null = null) => ({
  completionId: id,
  taskId: "t",
  taskTitle: "Post a photo",
  userId,
  campaignId: null,
  crusadeId: null,
  airdropId: null,
  reviewed,
  reason,
});
const mine = (userId: string, dedupe: string) =>
  db
    .select()
    .from(notification)
    .where(and(eq(notification.userId, userId), eq(notification.dedupe, dedupe)));
const byDedupe = (dedupe: string) => db.select().from(notification).where(eq(notification.dedupe, dedupe));
const run = () => notifyFromEvents({ db, now });

describe("notifyFromEvents", () => {
  it("tells the completion's member of a review, with the reason, and says nothing of a check's own answer", async () => {
    await emitEvent(db, { type: "completion.rejected", key: "rej", projectId: "p", data: completionData("c-ann", "ann", true, "Blurry") });
    await emitEvent(db, { type: "completion.approved", key: "auto", projectId: "p", data: completionData("c-bob", "bob", false) });
    // An event naming a member the completion is not theirs: nobody is told.
    await emitEvent(db, { type: "completion.approved", key: "forged", projectId: "p", data: completionData("c-bob", "ann", true) });
    expect(await run()).toEqual({ events: 3, notifications: 1 });
    const rows = await byDedupe("rej");
    expect(rows).toMatchObject([{ userId: "ann", kind: "review", title: "Not approved: Post a photo", link: "/tasks/t", inInbox: true, mail: "pending" }]);
    expect(rows[0]!.body).toContain("Blurry");
    expect(await byDedupe("auto")).toEqual([]);
    expect(await byDedupe("forged")).toEqual([]);
  });

  it("tells the winner of a raffle's payment with the proof page, and every entrant of the draw", async () => {
    const poolData = { poolId: "pool", campaignId: "camp", campaignTitle: "Season 1" };
    await emitEvent(db, {
      type: "reward.paid",
      key: "paid",
      projectId: "p",
      data: { ...poolData, userId: "bob", kind: "token", amount: "2500000000000000000", asset: "QUEST:31337", distribution: "raffle", rank: null },
    });
    // cy entered but was not paid: an event saying so tells nobody.
    await emitEvent(db, {
      type: "reward.paid",
      key: "paid-cy",
      projectId: "p",
      data: { ...poolData, userId: "cy", kind: "xp", amount: "50", asset: null, distribution: "raffle", rank: null },
    });
    await emitEvent(db, { type: "raffle.drawn", key: "drawn", projectId: "p", data: { ...poolData, winners: 1, entrants: 3 } });
    await run();
    expect(await byDedupe("paid")).toMatchObject([{ userId: "bob", kind: "reward", title: "You won 2.5 QUEST", link: "/rewards/raffles/pool" }]);
    expect(await byDedupe("paid-cy")).toEqual([]);
    const drawn = (await byDedupe("drawn")).sort((a, b) => a.userId.localeCompare(b.userId));
    expect(drawn.map((n) => [n.userId, n.title])).toEqual([
      ["ann", "The Season 1 raffle was drawn"],
      ["bob", "You won the Season 1 raffle"],
      ["cy", "The Season 1 raffle was drawn"],
    ]);
    expect(drawn.every((n) => n.link === "/rewards/raffles/pool" && n.kind === "raffle" && n.mail === "none")).toBe(true);

    // A raffle drawn before entrants were frozen lists none: its winners are still told.
    await db.insert(rewardPool).values({ id: "old", campaignId: "camp", distribution: "raffle", winners: 1, amount: 5n, status: "paid" });
    await db.insert(rewardGrant).values({ poolId: "old", userId: "ann", position: 1, amount: 5n });
    await emitEvent(db, { type: "raffle.drawn", key: "drawn-old", projectId: "p", data: { ...poolData, poolId: "old", winners: 1, entrants: 9 } });
    await run();
    expect((await byDedupe("drawn-old")).map((n) => [n.userId, n.title])).toEqual([["ann", "You won the Season 1 raffle"]]);
  });

  it("tells members with a share that an airdrop is claimable, and only those who have not claimed that it closes", async () => {
    const deadline = "2026-11-30T09:00:00.000Z";
    await emitEvent(db, { type: "airdrop.claimable", key: "claimable", projectId: "p", data: { airdropId: "ad", title: "Drop", claimDeadline: deadline } });
    await emitEvent(db, { type: "airdrop.closing", key: "closing", projectId: "p", data: { airdropId: "ad", title: "Drop", claimDeadline: deadline } });
    await run();
    expect((await byDedupe("claimable")).map((n) => n.userId).sort()).toEqual(["ann", "bob"]);
    const closing = await byDedupe("closing");
    expect(closing).toMatchObject([{ userId: "ann", link: "/projects/pixel/airdrops/drop" }]);
    expect(closing[0]!.body).toContain("November 30, 2026");
  });

  it("tells the owner of a deposit or withdrawal, and a failed withdrawal leads to the Balance page where Retry is", async () => {
    const money = { asset: "QUEST:31337", amount: "2500000000000000000", chainId: 31337 };
    await emitEvent(db, { type: "deposit.credited", key: "dep", projectId: null, data: { depositId: "d1", userId: "ann", txHash: "0x2", ...money } });
    await emitEvent(db, { type: "withdrawal.confirmed", key: "wok", projectId: null, data: { withdrawalId: "w1", userId: "ann", txHash: "0x9", ...money } });
    await emitEvent(db, {
      type: "withdrawal.failed",
      key: "wfail",
      projectId: null,
      data: { withdrawalId: "w2", userId: "ann", reason: "The vault is empty.", ...money },
    });
    // Someone else's withdrawal named with bob's id: nobody is told.
    await emitEvent(db, { type: "withdrawal.failed", key: "wbob", projectId: null, data: { withdrawalId: "w2", userId: "bob", reason: "x", ...money } });
    await run();
    expect(await mine("ann", "dep")).toMatchObject([{ kind: "deposit", title: "Deposit credited: 2.5 QUEST", mail: "none" }]);
    expect(await mine("ann", "wok")).toMatchObject([{ kind: "withdrawal", title: "Withdrawal confirmed: 2.5 QUEST", mail: "pending" }]);
    const [failed] = await mine("ann", "wfail");
    expect(failed).toMatchObject({ title: "Withdrawal failed: 2.5 QUEST", link: "/balance?chain=31337" });
    expect(failed!.body).toMatch(/The vault is empty\. Retry it or cancel it on your Balance page/);
    expect(await byDedupe("wbob")).toEqual([]);
  });

  it("tells the invited member only, followers of a new campaign, and owners and admins of a disabled webhook", async () => {
    const invite = { inviteId: "inv", projectName: "Pixel", role: "admin" as const, invitedBy: "own" };
    await emitEvent(db, { type: "invitation.received", key: "inv-dee", projectId: "p", data: { ...invite, userId: "dee" } });
    await emitEvent(db, { type: "invitation.received", key: "inv-ann", projectId: "p", data: { ...invite, userId: "ann" } });
    await emitEvent(db, { type: "campaign.published", key: "pub", projectId: "p", data: { campaignId: "camp", title: "Season 1", startsAt: null } });
    await emitEvent(db, {
      type: "webhook.disabled",
      key: "hook",
      projectId: "p",
      data: { endpointId: "e", url: "https://hooks.example/x", reason: "500 for a day." },
    });
    await run();
    expect((await byDedupe("inv-dee")).map((n) => n.userId)).toEqual(["dee"]);
    expect(await byDedupe("inv-ann")).toEqual([]);
    const published = await byDedupe("pub");
    expect(published.map((n) => n.userId).sort()).toEqual(["cy", "dee"]);
    expect(published[0]).toMatchObject({ title: "New campaign from Pixel: Season 1", link: "/projects/pixel/campaigns/season-1" });
    expect((await byDedupe("hook")).map((n) => n.userId).sort()).toEqual(["adm", "own"]);
  });

  it("follows the member's preferences and digest switch at the time", async () => {
    const settings = await notificationSettings({ db, userId: "bob" });
    await saveNotificationSettings({
      db,
      userId: "bob",
      kinds: settings.kinds.map((k) => (k.kind === "review" ? { ...k, inbox: false } : k.kind === "withdrawal" ? { ...k, inbox: false, email: false } : k)),
      digest: true,
    });
    await emitEvent(db, { type: "completion.approved", key: "bob-ok", projectId: "p", data: completionData("c-bob", "bob", true) });
    const money = { asset: "QUEST:31337", amount: "1", chainId: 31337 };
    await db.insert(withdrawal).values({ id: "w3", userId: "bob", ...money, amount: 1n, toAddress: "0xb", requestKey: "k3" });
    await emitEvent(db, { type: "withdrawal.confirmed", key: "bob-w", projectId: null, data: { withdrawalId: "w3", userId: "bob", txHash: null, ...money } });
    await run();
    expect(await mine("bob", "bob-ok")).toMatchObject([{ inInbox: false, mail: "digest" }]);
    // Signed in by wallet only: no address to mail, the inbox only.
    await emitEvent(db, { type: "completion.approved", key: "wal-ok", projectId: "p", data: completionData("c-wal", "wal", true) });
    await run();
    expect(await mine("wal", "wal-ok")).toMatchObject([{ inInbox: true, mail: "none" }]);
    // Both channels off: no row at all.
    expect(await mine("bob", "bob-w")).toEqual([]);
  });

  it("makes each notification once, run twice or by two runs at once, and marks every event", async () => {
    for (let i = 0; i < 30; i++)
      await emitEvent(db, {
        type: "raffle.drawn",
        key: `again-${i}`,
        projectId: "p",
        data: { poolId: "pool", campaignId: "camp", campaignTitle: "S", winners: 1, entrants: 3 },
      });
    const runs = await Promise.all([notifyFromEvents({ db, now, limit: 7 }), notifyFromEvents({ db, now, limit: 7 }), notifyFromEvents({ db, now })]);
    expect(runs.reduce((sum, r) => sum + r.events, 0)).toBe(30);
    expect(runs.reduce((sum, r) => sum + r.notifications, 0)).toBe(90);
    expect(await run()).toEqual({ events: 0, notifications: 0 });
    // An event taken again (its run died after inserting, before marking) adds nothing.
    await db.execute(sql`update app_event set notified_at = null where key like 'again-%'`);
    expect(await notifyPendingEvents({ db, now, limit: 8 })).toEqual({ events: 30, notifications: 0 });
    const [counted] = rowsOf(await db.execute(sql`select count(*)::int as n from notification where dedupe like 'again-%'`));
    expect(counted).toEqual({ n: 90 });
    expect(
      await db
        .select()
        .from(appEvent)
        .where(sql`notified_at is null`),
    ).toEqual([]);
  });
});
