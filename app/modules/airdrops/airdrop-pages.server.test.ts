import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { airdrop, airdropAllocation, airdropClaim, airdropRound } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { task } from "#db/schema/quests";
import { memberExclusion } from "#db/schema/trust";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { addBoardPoints } from "~/modules/leaderboards/leaderboards.server";
import { answer } from "#tests/setup/route-call";
import { createTestDatabase } from "#tests/setup/test-db";
import { airdropPage, airdropShow, airdropStanding, airdropTokenOptions, listAirdrops } from "./airdrop-pages.server";
import { airdropBoard } from "./freeze.server";
import { groupOf, memberAirdrops } from "./member-airdrops.server";

const DAY = 86_400_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const A1 = "0x1111111111111111111111111111111111111111";
let database: Database;
const db = () => database.db;

/**
 * Project p (owner `own`) runs a live airdrop, an upcoming one and a draft, and has frozen four:
 * `held` (no round yet), `open` (its round open), `late` (the round's deadline passed) and `swept`.
 * m1 has a wallet and a leaf everywhere; m2 has no wallet in `held` and claimed in `open`; m3 was
 * below the minimum; `own`, on the team, earned points but no share. Project q runs a live one.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["m1", "m2", "m3", "own"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db()
    .insert(project)
    .values([
      { id: "p", slug: "p", name: "P" },
      { id: "q", slug: "q", name: "Q" },
    ]);
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await db().insert(walletAddress).values({ id: "w1", userId: "m1", address: A1, chainId: 31337, isPrimary: true });
  const base = { asset: "QUEST:31337", rule: "pro_rata" as const, total: 1000n, claimDeadline: at(40), minPoints: 20 };
  const past = {
    ...base,
    startsAt: at(-30),
    endsAt: at(-10),
    publishedAt: at(-31),
    status: "frozen" as const,
    frozenAt: at(-10),
    root: `0x${"ab".repeat(32)}`,
    leaves: 1,
  };
  await db()
    .insert(airdrop)
    .values([
      { ...base, id: "live", projectId: "p", slug: "live", name: "Live drop", startsAt: at(-1), endsAt: at(10), publishedAt: at(-2) },
      { ...base, id: "soon", projectId: "p", slug: "soon", name: "Soon drop", startsAt: at(2), endsAt: at(10), publishedAt: at(-2) },
      { ...base, id: "draft", projectId: "p", slug: "draft", name: "Draft drop", startsAt: at(-1), endsAt: at(10) },
      { ...base, id: "elsewhere", projectId: "q", slug: "elsewhere", name: "Q's drop", startsAt: at(-1), endsAt: at(3), publishedAt: at(-2) },
      { ...past, id: "held", projectId: "p", slug: "held", name: "Held drop" },
      { ...past, id: "open", projectId: "p", slug: "open", name: "Open drop" },
      { ...past, id: "late", projectId: "p", slug: "late", name: "Late drop" },
      { ...past, id: "swept", projectId: "p", slug: "swept", name: "Swept drop" },
    ]);
  const round = { chainId: 31337, distributor: A1, fundingId: `0x${"00".repeat(32)}`, total: 1000n, roundId: 1 };
  await db()
    .insert(airdropRound)
    .values([
      { ...round, airdropId: "open", step: "open", deadline: seconds(at(20)) },
      { ...round, airdropId: "late", step: "open", deadline: seconds(at(-1)), roundId: 2 },
      { ...round, airdropId: "swept", step: "swept", deadline: seconds(at(-1)), roundId: 3 },
    ]);
  for (const id of ["live", "held"]) {
    for (const [userId, points] of [
      ["own", 100],
      ["m1", 50],
      ["m2", 30],
      ["m3", 10],
    ] as const) {
      await addBoardPoints({ db: db(), board: airdropBoard(id), userId, points, at: at(-5) });
    }
  }
  const share = (airdropId: string, userId: string, rank: number, leaf: number | null) => ({
    airdropId,
    userId,
    rank,
    points: 50,
    amount: 600n,
    account: leaf === null ? null : A1,
    leaf,
  });
  await db()
    .insert(airdropAllocation)
    .values([
      share("held", "m1", 1, 0),
      share("held", "m2", 2, null),
      share("open", "m1", 1, 0),
      share("open", "m2", 2, 1),
      share("late", "m1", 1, 0),
      share("swept", "m1", 1, 0),
    ]);
  await db()
    .insert(airdropClaim)
    .values({
      chainId: 31337,
      txHash: `0x${"cd".repeat(32)}`,
      logIndex: 0,
      airdropId: "open",
      leaf: 1,
      account: A1,
      amount: 600n,
      blockNumber: 7,
      claimedAt: at(-2),
    });
  const visit = { projectId: "p", type: "visit_link" as const, verification: "none" as const, config: { url: "https://example.com" }, xp: 10 };
  await db()
    .insert(task)
    .values([
      { ...visit, id: "t1", title: "Visit", airdropId: "live", publishedAt: at(-2) },
      { ...visit, id: "t2", title: "Draft visit", airdropId: "live" },
      { ...visit, id: "t3", title: "Later visit", airdropId: "soon", publishedAt: at(-2) },
    ]);
});
afterAll(() => database.close());

describe("an airdrop's page", () => {
  it("finds a published airdrop with its phase and round deadline; a draft only for the team", async () => {
    const page = await airdropPage({ db: db(), projectSlug: "p", airdropSlug: "open", userId: null, now: T });
    expect(page).toMatchObject({ phase: "claimable", claimDeadline: at(20), round: { step: "open" } });
    const draft = await answer(() => airdropPage({ db: db(), projectSlug: "p", airdropSlug: "draft", userId: "m1", now: T }));
    expect(draft).toMatchObject({ init: { status: 404 } });
    expect(await airdropPage({ db: db(), projectSlug: "p", airdropSlug: "draft", userId: "own", now: T })).toMatchObject({ phase: "draft" });
    expect((await airdropPage({ db: db(), projectSlug: "p", airdropSlug: "late", userId: null, now: T })).phase).toBe("closed");
    expect((await airdropPage({ db: db(), projectSlug: "p", airdropSlug: "held", userId: null, now: T })).phase).toBe("frozen");
  });

  it("shows the tasks (drafts to the team), each with what stops a member now, and the member's points, rank and share", async () => {
    const { airdrop: live, role } = await airdropPage({ db: db(), projectSlug: "p", airdropSlug: "live", userId: "m1", now: T });
    const shown = await airdropShow({ db: db(), airdrop: live, role, userId: "m1", now: T });
    expect(shown.tasks.map((t) => [t.title, t.block])).toEqual([["Visit", null]]);
    expect(shown.standing).toEqual({ board: { rank: 2, points: 50 }, share: null, hasWallet: true, excluded: null });
    expect(shown.frozen).toBeNull();
    const team = await airdropShow({ db: db(), airdrop: live, role: "owner", userId: "own", now: T });
    expect(team.tasks.map((t) => t.title)).toEqual(["Visit", "Draft visit"]);

    const { airdrop: soon } = await airdropPage({ db: db(), projectSlug: "p", airdropSlug: "soon", userId: null, now: T });
    const later = await airdropShow({ db: db(), airdrop: soon, role: null, userId: null, now: T });
    expect(later.tasks[0]!.block).toEqual({ kind: "airdrop", status: "scheduled" });
    expect(later.standing).toBeNull();

    const { airdrop: open } = await airdropPage({ db: db(), projectSlug: "p", airdropSlug: "open", userId: null, now: T });
    expect((await airdropShow({ db: db(), airdrop: open, role: null, userId: null, now: T })).frozen).toMatchObject({ root: open.root, leaves: 1 });
  });

  it("reads the member's frozen share and its claim by their keys", async () => {
    expect(await airdropStanding({ db: db(), airdropId: "open", userId: "m2" })).toEqual({
      board: null,
      share: { rank: 2, points: 50, amount: 600n, account: A1, leaf: 1, claim: { txHash: `0x${"cd".repeat(32)}`, chainId: 31337, claimedAt: at(-2) } },
      hasWallet: false,
      excluded: null,
    });
    expect((await airdropStanding({ db: db(), airdropId: "held", userId: "m2" })).share).toMatchObject({ leaf: null, account: null, claim: null });
    // The team's exclusion from the whole project reaches every airdrop's standing, until it is lifted.
    await db().insert(memberExclusion).values({ id: "x1", projectId: "p", scope: "project", scopeId: "p", userId: "m2", reason: "Funded by the farm" });
    expect((await airdropStanding({ db: db(), airdropId: "open", userId: "m2" })).excluded).toBe("Funded by the farm");
    await db()
      .update(memberExclusion)
      .set({ liftedAt: at(0) })
      .where(eq(memberExclusion.id, "x1"));
    expect((await airdropStanding({ db: db(), airdropId: "open", userId: "m2" })).excluded).toBeNull();
  });
});

describe("airdrop indexes", () => {
  it("list a project's airdrops, running ones first, drafts only for the team", async () => {
    const cards = await listAirdrops({ db: db(), projectId: "p", now: T });
    expect(cards.map((c) => [c.slug, c.phase])).toEqual([
      ["live", "live"],
      ["open", "claimable"],
      ["soon", "upcoming"],
      ["held", "frozen"],
      ["late", "closed"],
      ["swept", "swept"],
    ]);
    expect(cards[0]).toMatchObject({ tasks: 1, total: 1000n, project: { slug: "p" }, claimDeadline: at(40) });
    expect((await listAirdrops({ db: db(), projectId: "p", withDrafts: true, now: T })).map((c) => c.slug)).toContain("draft");
  });

  it("list every project's live airdrops, ending soonest first, without those the member has points in", async () => {
    expect((await listAirdrops({ db: db(), live: true, now: T })).map((c) => c.slug)).toEqual(["elsewhere", "live"]);
    expect((await listAirdrops({ db: db(), live: true, notJoinedBy: "m1", now: T })).map((c) => c.slug)).toEqual(["elsewhere"]);
  });

  it("offer Questline's token on each chain with a distributor, with what the treasury holds", async () => {
    expect(await airdropTokenOptions({ db: db(), projectId: "p", chainIds: new Set([31337]) })).toEqual([
      { asset: "QUEST:31337", label: "QUEST on Questline Local", treasury: 0n },
    ]);
  });
});

describe("the member's Airdrop page", () => {
  const groups = async (userId: string) =>
    Object.fromEntries((await memberAirdrops({ db: db(), userId, now: T })).map((a) => [a.slug, [a.group, a.missed, a.points, a.rank]]));

  it("groups every airdrop the member took part in: claimable, waiting, claimed, eligible and missed, with why", async () => {
    expect(await groups("m1")).toEqual({
      live: ["eligible", null, 50, 2],
      held: ["waiting", null, 50, 1],
      open: ["claimable", null, 50, 1],
      late: ["missed", "deadline", 50, 1],
      swept: ["missed", "deadline", 50, 1],
    });
    expect(await groups("m2")).toEqual({
      live: ["eligible", null, 30, 3],
      held: ["missed", "no_wallet", 50, 2],
      open: ["claimed", null, 50, 2],
    });
    expect(await groups("m3")).toEqual({ live: ["eligible", null, 10, 4], held: ["missed", "below_minimum", 10, 4] });
    expect(await groups("own")).toEqual({ live: ["eligible", null, 100, 1], held: ["missed", "team", 100, 1] });
    const [claimed] = (await memberAirdrops({ db: db(), userId: "m2", now: T })).filter((a) => a.group === "claimed");
    expect(claimed!.share!.claim).toEqual({ txHash: `0x${"cd".repeat(32)}`, chainId: 31337, claimedAt: at(-2) });
  });

  it("counts a share whose round could not be opened in time as missed", () => {
    const share = { rank: 1, points: 50, amount: 600n, account: A1, leaf: 0, claim: null };
    expect(groupOf({ phase: "failed", share, boardPoints: 50, minPoints: 0, onTeam: false })).toEqual({ group: "missed", missed: "not_opened" });
    expect(groupOf({ phase: "failed", share: { ...share, leaf: null }, boardPoints: 50, minPoints: 0, onTeam: false })).toEqual({
      group: "missed",
      missed: "no_wallet",
    });
  });
});
