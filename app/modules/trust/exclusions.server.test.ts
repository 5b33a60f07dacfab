import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { createPublicClient, http, type Hex, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop, airdropAllocation } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import { memberExclusion, trustAudit, trustCluster, trustClusterMember } from "#db/schema/trust";
import { leaderboardEntry } from "#db/schema/xp";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { failureMessage, type Result } from "~/lib/result";
import { airdropBoard, freezeAirdrop } from "~/modules/airdrops/freeze.server";
import { boardKey } from "~/modules/leaderboards/leaderboards.server";
import { distributeEndedCampaigns } from "~/modules/rewards/distribute.server";
import { drawChainOf, type DrawChains } from "~/modules/rewards/draw-chains.server";
import { commitmentOf } from "~/modules/rewards/raffle-proof";
import type { Distribution } from "~/modules/rewards/pool-types";
import { createTestDatabase } from "#tests/setup/test-db";
import { appealExclusion, decideAppeal, exclusionsOfMember, pendingAppealsOf } from "./appeals.server";
import { EXCLUDED_BY_TEAM, excludeMembers, gateShortfall, keptOutOf, liftExclusion, type ExclusionTarget } from "./exclusions.server";
import { gateRuleSchema, type GateState } from "./trust-types";

const T = new Date("2026-11-20T12:00:00Z");
const HOUR = 3_600_000;
const at = (hours: number) => new Date(T.getTime() + hours * HOUR);
const NO_CHAINS = { get: () => undefined };
let database: Database;
let localChain: LocalChain;
let chains: DrawChains;
const db = () => database.db;

/** m1…m4 take part in every world's campaign (finishing in that order, board 100, 90, 80, 70); `own` and `rev` are its team; `out` takes part elsewhere. */
beforeAll(async () => {
  localChain = await startLocalChain();
  chains = new Map([
    [LOCAL_CHAIN_ID, drawChainOf(createPublicClient({ transport: http(localChain.url) }) as PublicClient, { chainId: LOCAL_CHAIN_ID, confirmations: 1 })],
  ]);
  database = await createTestDatabase();
  await db()
    .insert(user)
    .values(["own", "rev", "out", "m1", "m2", "m3", "m4"].map((id) => ({ id, email: `${id}@example.com`, name: `Member ${id}` })));
});
afterAll(async () => {
  await database.close();
  await localChain.stop();
});

const MEMBERS = ["m1", "m2", "m3", "m4"];

/** A project with an ended campaign m1…m4 completed (and an airdrop they earned points in), its team own (owner) and rev (reviewer). */
async function world() {
  const p = randomUUID();
  await db()
    .insert(project)
    .values({ id: p, slug: p.slice(0, 8), name: `Project ${p.slice(0, 4)}` });
  await db()
    .insert(projectMember)
    .values([
      { projectId: p, userId: "own", role: "owner" },
      { projectId: p, userId: "rev", role: "reviewer" },
    ]);
  const c = randomUUID();
  await db()
    .insert(campaign)
    .values({ id: c, projectId: p, slug: c.slice(0, 8), name: "Season", startsAt: at(-48), endsAt: at(-1), publishedAt: at(-49) });
  const t = randomUUID();
  await db()
    .insert(task)
    .values({
      id: t,
      projectId: p,
      campaignId: c,
      title: "Visit",
      type: "visit_link",
      verification: "none",
      xp: 10,
      config: { url: "https://example.com" },
      publishedAt: at(-49),
    });
  await db()
    .insert(completion)
    .values(MEMBERS.map((userId, i) => ({ id: randomUUID(), taskId: t, userId, period: "once", status: "approved" as const, createdAt: at(-40 + i) })));
  await db()
    .insert(leaderboardEntry)
    .values(
      [...MEMBERS.map((userId, i) => ({ userId, score: 100 - i * 10 })), { userId: "own", score: 1000 }].map((e, i) => ({
        board: boardKey({ kind: "campaign", campaignId: c }, "all"),
        ...e,
        reachedAt: at(-30 + i),
      })),
    );
  const a = randomUUID();
  await db()
    .insert(airdrop)
    .values({
      id: a,
      projectId: p,
      slug: a.slice(0, 8),
      name: "Drop",
      asset: "QUEST:31337",
      rule: "top",
      total: 600n,
      rankAmounts: ["300", "200", "100"],
      startsAt: at(-48),
      endsAt: at(-1),
      claimDeadline: at(24 * 30),
    });
  await db()
    .insert(leaderboardEntry)
    .values(MEMBERS.map((userId, i) => ({ board: airdropBoard(a), userId, score: 100 - i * 10, reachedAt: at(-30 + i) })));
  return { projectId: p, campaignId: c, airdropId: a };
}

async function poolOf(campaignId: string, distribution: Distribution) {
  const id = randomUUID();
  const secret: Hex = `0x${"ab".repeat(32)}`;
  await db()
    .insert(rewardPool)
    .values({
      id,
      campaignId,
      kind: "xp",
      distribution,
      winners: distribution === "everyone" ? null : 3,
      amount: distribution === "ranking" ? null : 90n,
      rankAmounts: distribution === "ranking" ? ["30", "20", "10"] : null,
      ...(distribution === "raffle" ? { secret, commitment: commitmentOf(secret), drawChainId: LOCAL_CHAIN_ID } : {}),
    });
  return id;
}

const refusal = (result: Result) => (result.ok ? "accepted" : failureMessage(result));

function must<T extends object>(result: Result<T>): T {
  if (!result.ok) throw new Error(failureMessage(result));
  return result;
}

/**
 * At hour `h`, m2 excluded from the target, m3 from the whole project; m3 appeals and `rev` upholds
 * it before the payout (each test a day apart: m3 may appeal 3 times a day).
 */
async function excludeAndRestore(projectId: string, target: ExclusionTarget, h: number) {
  must(
    await excludeMembers({ db: db(), projectId, actorId: "own", target, userIds: ["m2"], reason: "Funded by the same address as 40 farm wallets", now: at(h) }),
  );
  must(
    await excludeMembers({
      db: db(),
      projectId,
      actorId: "own",
      target: { scope: "project", scopeId: projectId },
      userIds: ["m3"],
      reason: "Same answers as m2",
      now: at(h),
    }),
  );
  const [exclusion] = await db()
    .select()
    .from(memberExclusion)
    .where(and(eq(memberExclusion.projectId, projectId), eq(memberExclusion.userId, "m3")));
  const { appealId } = must(
    await appealExclusion({ db: db(), userId: "m3", exclusionId: exclusion!.id, message: "I wrote my own answer, see my posts", now: at(h + 0.5) }),
  );
  must(await decideAppeal({ db: db(), projectId, actorId: "rev", appealId, decision: "uphold", answer: "Checked: your answer is yours", now: at(h + 0.6) }));
}

const distribute = (now: Date) => distributeEndedCampaigns({ db: db(), chains, entrantKey: "e".repeat(40), now });
const grantsOf = async (poolId: string) =>
  (await db().select().from(rewardGrant).where(eq(rewardGrant.poolId, poolId)).orderBy(asc(rewardGrant.position))).map((g) => g.userId);
const poolRow = async (poolId: string) => (await db().select().from(rewardPool).where(eq(rewardPool.id, poolId)))[0]!;

describe("at payout, an excluded member is not paid and an upheld appeal restores them", () => {
  it("first completers: the next completer takes the excluded one's place", async () => {
    const { projectId, campaignId } = await world();
    const pool = await poolOf(campaignId, "fcfs");
    await excludeAndRestore(projectId, { scope: "pool", scopeId: pool }, 0);
    await distribute(at(1));
    expect(await grantsOf(pool)).toEqual(["m1", "m3", "m4"]);
    expect(await poolRow(pool)).toMatchObject({ status: "paid", excludedCounts: { [EXCLUDED_BY_TEAM]: 1 } });
  });

  it("a raffle: the excluded member is not among its frozen entrants", async () => {
    const { projectId, campaignId } = await world();
    const pool = await poolOf(campaignId, "raffle");
    await excludeAndRestore(projectId, { scope: "pool", scopeId: pool }, 25);
    await distribute(at(26));
    expect(await poolRow(pool)).toMatchObject({ status: "frozen", entrantsCount: 3, excludedCounts: { [EXCLUDED_BY_TEAM]: 1 } });
    // Too late now: the entrants are frozen and the draw committed.
    const late = await excludeMembers({
      db: db(),
      projectId,
      actorId: "own",
      target: { scope: "pool", scopeId: pool },
      userIds: ["m1"],
      reason: "Late",
      now: at(26),
    });
    expect(late).toMatchObject({ ok: false, code: "conflict" });
    await distribute(at(27));
    expect((await grantsOf(pool)).sort()).toEqual(["m1", "m3", "m4"]);
  });

  it("a ranking: the members after the excluded one fill its places", async () => {
    const { projectId, campaignId } = await world();
    const pool = await poolOf(campaignId, "ranking");
    await excludeAndRestore(projectId, { scope: "pool", scopeId: pool }, 50);
    await distribute(at(51));
    const grants = await db().select().from(rewardGrant).where(eq(rewardGrant.poolId, pool)).orderBy(asc(rewardGrant.position));
    expect(grants.map((g) => [g.userId, g.amount])).toEqual([
      ["m1", 30n],
      ["m3", 20n],
      ["m4", 10n],
    ]);
    expect((await poolRow(pool)).excludedCounts).toEqual({ [EXCLUDED_BY_TEAM]: 1 });
  });

  it("everyone: the total is split among those left", async () => {
    const { projectId, campaignId } = await world();
    const pool = await poolOf(campaignId, "everyone");
    await excludeAndRestore(projectId, { scope: "project", scopeId: projectId }, 75);
    await distribute(at(76));
    const grants = await db().select().from(rewardGrant).where(eq(rewardGrant.poolId, pool)).orderBy(asc(rewardGrant.position));
    expect(grants.map((g) => [g.userId, g.amount])).toEqual([
      ["m1", 30n],
      ["m3", 30n],
      ["m4", 30n],
    ]);
  });

  it("an airdrop: the excluded member gets no share and the ranks below move up", async () => {
    const { projectId, airdropId } = await world();
    await excludeAndRestore(projectId, { scope: "airdrop", scopeId: airdropId }, 100);
    const frozen = await freezeAirdrop({ db: db(), airdropId, now: at(101) });
    expect(frozen).toMatchObject({ allocations: 3 });
    const rows = await db().select().from(airdropAllocation).where(eq(airdropAllocation.airdropId, airdropId)).orderBy(asc(airdropAllocation.rank));
    expect(rows.map((r) => [r.userId, r.amount])).toEqual([
      ["m1", 300n],
      ["m3", 200n],
      ["m4", 100n],
    ]);
    expect((await db().select().from(airdrop).where(eq(airdrop.id, airdropId)))[0]!.excludedCounts).toEqual({ [EXCLUDED_BY_TEAM]: 1 });
    const late = await excludeMembers({
      db: db(),
      projectId,
      actorId: "own",
      target: { scope: "airdrop", scopeId: airdropId },
      userIds: ["m1"],
      reason: "Late",
    });
    expect(late).toMatchObject({ ok: false, code: "conflict" });
  });
});

describe("excludeMembers", () => {
  it("refuses in words, changing nothing: another project's target, a non-participant, the team, a missing cluster, a bad reason", async () => {
    const mine = await world();
    const theirs = await world();
    const theirPool = await poolOf(theirs.campaignId, "fcfs");
    const exclude = (over: Partial<Parameters<typeof excludeMembers>[0]>) =>
      excludeMembers({
        db: db(),
        projectId: mine.projectId,
        actorId: "own",
        target: { scope: "project", scopeId: mine.projectId },
        userIds: ["m1"],
        reason: "Farm wallet",
        now: at(0),
        ...over,
      });
    expect(await exclude({ target: { scope: "pool", scopeId: theirPool } })).toMatchObject({ ok: false, code: "not_found" });
    expect(await exclude({ target: { scope: "airdrop", scopeId: theirs.airdropId } })).toMatchObject({ ok: false, code: "not_found" });
    expect(await exclude({ target: { scope: "project", scopeId: theirs.projectId } })).toMatchObject({ ok: false, code: "not_found" });
    expect(refusal(await exclude({ userIds: ["out"] }))).toBe("Member out does not take part in this project: nothing was changed.");
    expect(refusal(await exclude({ userIds: ["m1", "own"] }))).toMatch(/on the project's team, which is never paid/);
    expect(await exclude({ userIds: undefined, clusterId: "nope" })).toMatchObject({ ok: false, code: "not_found" });
    expect(await exclude({ reason: " x " })).toMatchObject({ ok: false, code: "invalid", errors: { reason: expect.any(String) } });
    expect(await exclude({ reason: "x".repeat(501) })).toMatchObject({ ok: false, code: "invalid" });
    expect(await db().select().from(memberExclusion).where(eq(memberExclusion.projectId, mine.projectId))).toEqual([]);
    expect(await db().select().from(trustAudit).where(eq(trustAudit.projectId, mine.projectId))).toEqual([]);
  });

  it("excludes a cluster's participants of this project (not the team, not outsiders) once, each with an audit row", async () => {
    const { projectId, airdropId } = await world();
    const clusterId = randomUUID();
    await db().insert(trustCluster).values({ id: clusterId, kind: "funder", key: clusterId, size: 4, summary: "Funded by 0xabc" });
    await db()
      .insert(trustClusterMember)
      .values(["m1", "m2", "own", "out"].map((userId) => ({ clusterId, userId })));
    const target = { scope: "airdrop" as const, scopeId: airdropId };
    const first = await excludeMembers({ db: db(), projectId, actorId: "own", target, clusterId, reason: "One funder for the lot", now: at(0) });
    expect(first).toEqual({ ok: true, excluded: 2, skipped: 0 });
    const again = await excludeMembers({ db: db(), projectId, actorId: "own", target, clusterId, reason: "One funder for the lot", now: at(0) });
    expect(again).toEqual({ ok: true, excluded: 0, skipped: 2 });
    const audits = await db().select().from(trustAudit).where(eq(trustAudit.projectId, projectId));
    expect(audits.map((a) => [a.action, a.subjectId, a.actorId, a.clusterId, a.reason]).sort()).toEqual([
      ["exclude", "m1", "own", clusterId, "One funder for the lot"],
      ["exclude", "m2", "own", clusterId, "One funder for the lot"],
    ]);
    const kept = await keptOutOf({ db: db(), chains: NO_CHAINS, target: { kind: "airdrop", airdropId }, userIds: ["m1", "m2", "m3"], now: at(1) });
    expect([...kept]).toEqual([
      ["m1", EXCLUDED_BY_TEAM],
      ["m2", EXCLUDED_BY_TEAM],
    ]);
    const [row] = await db()
      .select()
      .from(memberExclusion)
      .where(and(eq(memberExclusion.projectId, projectId), eq(memberExclusion.userId, "m1")));
    must(await liftExclusion({ db: db(), projectId, actorId: "own", exclusionId: row!.id, reason: "Known member, vouched for", now: at(0.5) }));
    expect(await liftExclusion({ db: db(), projectId, actorId: "own", exclusionId: row!.id, reason: "Again", now: at(0.5) })).toMatchObject({
      code: "conflict",
    });
    expect((await keptOutOf({ db: db(), chains: NO_CHAINS, target: { kind: "airdrop", airdropId }, userIds: ["m1"], now: at(1) })).size).toBe(0);
  });
});

describe("appeals", () => {
  it("only the excluded member, one pending at a time, a day after a denial, 3 a day; nobody decides their own", async () => {
    const { projectId, campaignId } = await world();
    const pools = await Promise.all([poolOf(campaignId, "fcfs"), poolOf(campaignId, "everyone"), poolOf(campaignId, "ranking"), poolOf(campaignId, "fcfs")]);
    for (const pool of pools)
      must(
        await excludeMembers({ db: db(), projectId, actorId: "own", target: { scope: "pool", scopeId: pool }, userIds: ["m1"], reason: "Farm", now: at(0) }),
      );
    const ids = (await db().select().from(memberExclusion).where(eq(memberExclusion.projectId, projectId)).orderBy(asc(memberExclusion.scopeId))).map(
      (e) => e.id,
    );
    const appeal = (exclusionId: string, now: Date, userId = "m1") =>
      appealExclusion({ db: db(), userId, exclusionId, message: "These are my own wallets", now });

    expect(await appeal(ids[0]!, at(0), "m2")).toMatchObject({ code: "not_found" });
    expect(await appealExclusion({ db: db(), userId: "m1", exclusionId: ids[0]!, message: "short", now: at(0) })).toMatchObject({ code: "invalid" });
    const { appealId } = must(await appeal(ids[0]!, at(0)));
    expect(await appeal(ids[0]!, at(0.1))).toMatchObject({ code: "conflict" });
    expect(await decideAppeal({ db: db(), projectId, actorId: "m1", appealId, decision: "uphold", answer: "Fine by me" })).toMatchObject({ code: "forbidden" });
    must(await decideAppeal({ db: db(), projectId, actorId: "rev", appealId, decision: "deny", answer: "The funder is a farm's", now: at(1) }));
    expect(await appeal(ids[0]!, at(2))).toMatchObject({ code: "limited", retryAfterSeconds: 23 * 3600 });
    must(await appeal(ids[1]!, at(2)));
    must(await appeal(ids[2]!, at(3)));
    expect(await appeal(ids[3]!, at(4))).toMatchObject({ code: "limited", retryAfterSeconds: 20 * 3600 });
    expect((await pendingAppealsOf({ db: db(), projectId })).map((a) => [a.name, a.exclusion.reason])).toEqual([
      ["Member m1", "Farm"],
      ["Member m1", "Farm"],
    ]);
    const mine = await exclusionsOfMember({ db: db(), userId: "m1", now: at(4) });
    const denied = mine.find((e) => e.id === ids[0]);
    expect(denied).toMatchObject({ appeal: { status: "denied", answer: "The funder is a farm's" }, appealBlocked: expect.stringMatching(/Denied/) });
    expect((await exclusionsOfMember({ db: db(), userId: "m2", now: at(4) })).filter((e) => ids.includes(e.id))).toEqual([]);
    const actions = (await db().select({ action: trustAudit.action }).from(trustAudit).where(eq(trustAudit.projectId, projectId))).map((a) => a.action);
    expect(actions.filter((a) => a === "appeal")).toHaveLength(3);
    expect(actions).toContain("appeal_denied");
  });
});

describe("gateShortfall", () => {
  it("names what kept a member out, in the counts' words", () => {
    const rule = (input: object) => gateRuleSchema.parse(input);
    const state = (combine: GateState["combine"], rules: GateState["rules"]): GateState => ({ combine, passes: false, rules });
    const score = rule({ kind: "trust_score", min: 50 });
    const wallet = rule({ kind: "linked_account", account: "wallet" });
    expect(
      gateShortfall(
        state("all", [
          { rule: wallet, words: "", state: "met" },
          { rule: score, words: "", state: "unmet" },
        ]),
      ),
    ).toBe("below the minimum trust score");
    expect(gateShortfall(state("all", [{ rule: rule({ kind: "level", max: 3 }), words: "", state: "unmet" }]))).toBe("above the maximum level");
    expect(gateShortfall(state("all", [{ rule: rule({ kind: "linked_account", account: "x" }), words: "", state: "unmet" }]))).toBe(
      "without a linked X account",
    );
    expect(gateShortfall(state("any", [{ rule: score, words: "", state: "unmet" }]))).toBe("meeting none of the eligibility rules");
  });
});
