import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop, airdropAllocation } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectEmailShare, projectMember } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { rewardPool } from "#db/schema/rewards";
import { memberExclusion, trustAudit, trustCluster, trustClusterMember, trustScore } from "#db/schema/trust";
import type { Database } from "~/lib/db.server";
import { addBoardPoints } from "~/modules/leaderboards/leaderboards.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { clusterView, projectClusters, projectParticipants, projectTrustAudit } from "./team-trust.server";

const now = new Date("2026-11-20T12:00:00Z");
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  await db.insert(user).values(["a", "b", "c", "d", "e", "t"].map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() })));
  await db.insert(project).values([
    { id: "p", slug: "p", name: "P" },
    { id: "q", slug: "q", name: "Q" },
  ]);
  await db.insert(projectMember).values({ projectId: "p", userId: "t", role: "owner" });
  await db.insert(projectEmailShare).values({ projectId: "p", userId: "a" });
  await db
    .insert(campaign)
    .values({ id: "cp", projectId: "p", slug: "cp", name: "Launch", startsAt: ago(600), endsAt: new Date(now.getTime() + 3_600_000), publishedAt: ago(600) });
  const published = { verification: "none" as const, type: "visit_link" as const, xp: 10, publishedAt: ago(600) };
  await db.insert(task).values([
    { id: "tp1", projectId: "p", campaignId: "cp", title: "Follow", ...published },
    { id: "tp2", projectId: "p", campaignId: "cp", title: "Visit", ...published },
    { id: "tq", projectId: "q", title: "Other project's task", ...published },
  ]);
  const done = (id: string, taskId: string, userId: string, minutes: number) => ({
    id,
    taskId,
    userId,
    period: "once",
    status: "approved" as const,
    createdAt: ago(minutes),
  });
  await db
    .insert(completion)
    .values([
      done("1", "tp1", "a", 50),
      done("2", "tp2", "a", 40),
      done("3", "tp1", "b", 30),
      done("4", "tq", "c", 20),
      done("5", "tp1", "d", 10),
      done("6", "tp2", "e", 5),
    ]);
  await db.insert(rewardPool).values({ id: "pool", campaignId: "cp", kind: "xp", distribution: "everyone", amount: 1000n });
  await db.insert(airdrop).values({
    id: "drop",
    projectId: "p",
    slug: "drop",
    name: "Genesis",
    asset: "QUEST:31337",
    rule: "pro_rata",
    total: 10n ** 21n,
    startsAt: ago(600),
    endsAt: new Date(now.getTime() + 3_600_000),
    claimDeadline: new Date(now.getTime() + 7_200_000),
    publishedAt: ago(600),
  });
  await addBoardPoints({ db, board: "a:drop|all", userId: "a", points: 40, at: ago(40) });
  // A leaderboard pool paying its top 1, and an airdrop frozen with b's share unclaimed.
  await db.insert(rewardPool).values({ id: "top", campaignId: "cp", kind: "xp", distribution: "ranking", winners: 1, rankAmounts: ["500"] });
  await addBoardPoints({ db, board: "c:cp|all", userId: "a", points: 20, at: ago(40) });
  await addBoardPoints({ db, board: "c:cp|all", userId: "b", points: 30, at: ago(30) });
  await addBoardPoints({ db, board: "c:cp|all", userId: "t", points: 99, at: ago(30) });
  await db.insert(airdrop).values({
    id: "old",
    projectId: "p",
    slug: "old",
    name: "Season 0",
    asset: "QUEST:31337",
    rule: "pro_rata",
    total: 10n ** 19n,
    startsAt: ago(6000),
    endsAt: ago(3000),
    claimDeadline: new Date(now.getTime() + 7_200_000),
    publishedAt: ago(6000),
    status: "frozen",
    frozenAt: ago(3000),
  });
  await db.insert(airdropAllocation).values({ airdropId: "old", userId: "b", rank: 1, points: 12, amount: 5n * 10n ** 18n, leaf: 0 });
  await db.insert(trustCluster).values([
    {
      id: "K",
      kind: "funder",
      key: "0xfunder",
      size: 3,
      summary: "Funded by the same address as 2 other members",
      evidence: {
        funder: "0xfunder",
        wallets: [
          { userId: "a", address: "0xaaa" },
          { userId: "c", address: "0xccc" },
        ],
        userIds: ["a", "b", "c"],
      },
    },
    { id: "L", kind: "network", key: "net", size: 1, summary: "One network", evidence: {} },
  ]);
  await db.insert(trustClusterMember).values([
    { clusterId: "K", userId: "a" },
    { clusterId: "K", userId: "b" },
    { clusterId: "K", userId: "c" },
    { clusterId: "L", userId: "c" },
  ]);
  await db.insert(trustScore).values([
    {
      userId: "a",
      score: 10,
      flagged: true,
      reasons: [
        { code: "funder_cluster", points: -50, words: "Funded by the same address as 2 other members", clusterId: "K" },
        { code: "fresh_account", points: -40, words: "Account created yesterday" },
      ],
    },
    {
      userId: "b",
      score: 30,
      flagged: true,
      reasons: [{ code: "funder_cluster", points: -50, words: "Funded by the same address as 2 other members", clusterId: "K" }],
    },
    { userId: "c", score: 5, flagged: true, reasons: [] },
    { userId: "d", score: 80, flagged: false, reasons: [{ code: "old_wallet", points: 10, words: "A wallet active for 3 years" }] },
  ]);
  await db.insert(memberExclusion).values([
    { id: "x1", projectId: "p", scope: "project", scopeId: "p", userId: "b", reason: "Farm wallet", clusterId: "K", createdBy: "t", createdAt: ago(3) },
    {
      id: "x2",
      projectId: "p",
      scope: "pool",
      scopeId: "pool",
      userId: "d",
      reason: "Mistake",
      createdBy: "t",
      createdAt: ago(4),
      liftedAt: ago(2),
      liftedBy: "t",
    },
  ]);
  await db.insert(trustAudit).values([
    { id: "au1", projectId: "p", actorId: "t", action: "exclude", subjectId: "d", scope: "pool", scopeId: "pool", reason: "Mistake", createdAt: ago(4) },
    {
      id: "au2",
      projectId: "p",
      actorId: "t",
      action: "exclude",
      subjectId: "b",
      clusterId: "K",
      scope: "project",
      scopeId: "p",
      reason: "Farm wallet",
      createdAt: ago(3),
    },
    { id: "au3", projectId: "p", actorId: "t", action: "lift", subjectId: "d", scope: "pool", scopeId: "pool", reason: "Honest member", createdAt: ago(2) },
    { id: "au4", projectId: "q", actorId: "t", action: "exclude", subjectId: "c", scope: "project", scopeId: "q", reason: "Elsewhere", createdAt: ago(1) },
  ]);
});
afterAll(() => database.close());

describe("a project team's participants", () => {
  it("lists only this project's participants, flagged first then the lowest score, with the e-mail only where shared", async () => {
    const db = database.db;
    const all = await projectParticipants({ db, projectId: "p", filter: "all", page: 1 });
    expect(all.rows.map((r) => r.userId)).toEqual(["a", "b", "d", "e"]);
    expect(all.total).toBe(4);
    const [a, b, , e] = all.rows;
    expect(a!.email).toBe("a@example.com");
    expect(b!.email).toBeNull();
    expect(a!.reasons.map((r) => r.clusterId ?? null)).toEqual(["K", null]);
    expect(e!.score).toBeNull();
    expect(b!.exclusions).toMatchObject([{ id: "x1", scope: "project", target: "The whole project", reason: "Farm wallet" }]);
    expect(all.rows[2]!.exclusions).toEqual([]);

    expect((await projectParticipants({ db, projectId: "p", filter: "flagged", page: 1 })).rows.map((r) => r.userId)).toEqual(["a", "b"]);
    expect((await projectParticipants({ db, projectId: "p", filter: "excluded", page: 1 })).rows.map((r) => r.userId)).toEqual(["b"]);
    expect((await projectParticipants({ db, projectId: "p", filter: "all", page: 2 })).rows).toEqual([]);
  });

  it("shows the clusters holding its participants, counting them and those excluded, never the clusters of other projects' members only", async () => {
    expect(await projectClusters({ db: database.db, projectId: "p" })).toMatchObject([{ id: "K", kind: "funder", size: 3, participants: 2, excluded: 1 }]);
    expect((await projectClusters({ db: database.db, projectId: "q" })).map((c) => c.id).sort()).toEqual(["K", "L"]);
  });
});

describe("a cluster as a project team sees it", () => {
  it("names only this project's participants, counts the others, and leaves their evidence out", async () => {
    const view = (await clusterView({ db: database.db, projectId: "p", clusterId: "K", now }))!;
    expect(view.members.map((m) => m.userId)).toEqual(["a", "b"]);
    expect([view.here, view.outside]).toEqual([2, 1]);
    expect(view.cluster.evidence).toEqual({ funder: "0xfunder", wallets: [{ userId: "a", address: "0xaaa" }] });
    expect(JSON.stringify(view)).not.toContain("0xccc");
    // Open pools and airdrops not frozen: Season 0 is frozen.
    expect(view.targets.map((t) => t.label)).toEqual(["The whole project", "Launch: Everyone pool", "Launch: Leaderboard pool", "Airdrop Genesis"]);
  });

  it("says each member's completions here and what they are about to be paid", async () => {
    const [a, b] = (await clusterView({ db: database.db, projectId: "p", clusterId: "K", now }))!.members;
    expect(a!.completions).toMatchObject({ count: 2, approved: 2, first: ago(50), last: ago(40) });
    expect(a!.completions.tasks.map((t) => t.title)).toEqual(["Follow", "Visit"]);
    // Ranks on the campaign's board leave the team out (t has 99 points).
    expect(a!.stake).toEqual([
      "Launch's Everyone pool: the only completer so far, 1,000 XP to them alone",
      "Launch's Leaderboard pool: rank 2 of the campaign's board, outside the paid top 1",
      "Airdrop Genesis (live): 40 points, rank 1",
    ]);
    // One of the campaign's two tasks: not a completer, but first on the board and a share to claim.
    expect(b!.stake).toEqual([
      "Launch's Leaderboard pool: rank 1 of the campaign's board, in the paid top 1 (500 XP)",
      "Airdrop Season 0 (frozen, not claimed yet): rank 1, 5 QUEST to claim",
    ]);
  });

  it("is not found for a cluster with none of this project's participants, or no cluster at all", async () => {
    expect(await clusterView({ db: database.db, projectId: "p", clusterId: "L", now })).toBeNull();
    expect(await clusterView({ db: database.db, projectId: "p", clusterId: "nope", now })).toBeNull();
  });
});

describe("a project's trust audit log", () => {
  it("lists this project's actions newest first, with the actor, the subject and the target by name", async () => {
    const log = await projectTrustAudit({ db: database.db, projectId: "p", page: 1 });
    expect(log.rows.map((r) => [r.id, r.actor, r.subject, r.target])).toEqual([
      ["au3", "T", "D", "Launch: Everyone pool"],
      ["au2", "T", "B", "The whole project"],
      ["au1", "T", "D", "Launch: Everyone pool"],
    ]);
  });
});
