import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { user } from "#db/schema/auth";
import { project } from "#db/schema/projects";
import { completion, referral, task } from "#db/schema/quests";
import { socialAccount } from "#db/schema/social";
import { accessContext, trustCluster, trustClusterMember, walletProfile } from "#db/schema/trust";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { scoreMembers, trustOf, type ScoringRun } from "./scoring.server";

/**
 * One small population, inserted directly, holding one cluster of each kind and the look-alikes
 * that must not be one (a shared exchange funder, unknown funding, two friends, a quiz answer, a
 * short answer, a spread-out network), scored twice.
 */
const NOW = new Date("2027-03-01T12:00:00Z");
const H = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * H);
const addr = (tag: string, i = 0) => `0x${tag.padStart(8, "0")}${String(i).padStart(32, "0")}`;
const EXCHANGE = addr("e0");

let database: Database;
let first: ScoringRun;
const clustersOf = async (userId: string) =>
  database.db
    .select({ id: trustCluster.id, kind: trustCluster.kind, key: trustCluster.key, size: trustCluster.size })
    .from(trustClusterMember)
    .innerJoin(trustCluster, sql`${trustCluster.id} = ${trustClusterMember.clusterId}`)
    .where(sql`${trustClusterMember.userId} = ${userId}`);

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  const users: (typeof user.$inferInsert)[] = [];
  const wallets: (typeof walletAddress.$inferInsert)[] = [];
  const profiles: (typeof walletProfile.$inferInsert)[] = [];
  const member = (id: string, createdAt = at(-24 * 30)) => users.push({ id, email: `${id}@example.test`, createdAt });
  const wallet = (userId: string, address: string, profile: Partial<typeof walletProfile.$inferInsert>) => {
    wallets.push({ id: `w-${userId}-${address}`, userId, address: address.toUpperCase().replace("0X", "0x"), chainId: 1 });
    profiles.push({ address, chainId: 1, status: "known", ...profile });
  };
  // One funder fanning out to five members; a chain R → c0 → c1 → … → c4; six members funded by an exchange; two friends.
  for (let i = 0; i < 5; i++) {
    member(`fan${i}`);
    wallet(`fan${i}`, addr("fa", i), { funder: addr("f0") });
  }
  for (let i = 0; i < 5; i++) {
    member(`chain${i}`);
    wallet(`chain${i}`, addr("c", i), { funder: i === 0 ? addr("r0") : addr("c", i - 1) });
  }
  for (let i = 0; i < 6; i++) {
    member(`ex${i}`);
    wallet(`ex${i}`, addr("ex", i), { funder: EXCHANGE });
  }
  for (let i = 0; i < 2; i++) {
    member(`friend${i}`);
    wallet(`friend${i}`, addr("fr", i), { funder: addr("f1") });
  }
  // Six wallets whose funding the node could not read (a funder recorded anyway must link nothing).
  for (let i = 0; i < 6; i++) {
    member(`unk${i}`);
    wallet(`unk${i}`, addr("u", i), { status: "unknown", funder: addr("f2"), unknownReason: "the node keeps no history that old" });
  }
  // Five wallets sweeping to one address.
  for (let i = 0; i < 5; i++) {
    member(`sweep${i}`);
    wallet(`sweep${i}`, addr("s", i), { sweptTo: addr("5e") });
  }
  // Eight sign-ups from one network within 90 minutes, a ninth five hours later; seven from another network.
  for (let i = 0; i < 9; i++) member(`net${i}`, i < 8 ? at(-48 + (i * 90) / 60 / 7) : at(-43));
  for (let i = 0; i < 7; i++) member(`cafe${i}`, at(-48 + i / 10));
  // A busy ISP: 392 sign-ups spread over 30 days and 8 within 2 hours, its usual flow.
  for (let i = 0; i < 400; i++) member(`isp${i}`, i < 392 ? at(-720 + i * 1.8) : at(-30 + (i - 392) / 8));
  // Five in step, a latecomer on the same tasks, three sharing an answer, five a quiz answer, five "gm", a referral ring.
  for (const id of [
    "sync0",
    "sync1",
    "sync2",
    "sync3",
    "sync4",
    "late",
    "same0",
    "same1",
    "same2",
    "quiz0",
    "quiz1",
    "quiz2",
    "quiz3",
    "quiz4",
    "gm0",
    "gm1",
    "gm2",
    "gm3",
    "gm4",
  ])
    member(id);
  member("ringleader");
  for (let i = 0; i < 10; i++) member(`ring${i}`, at(-72));
  // A member of a year with an old wallet and an X account, funded by the exchange.
  member("veteran", at(-24 * 400));
  wallet("veteran", addr("ve"), { funder: EXCHANGE, firstActivityAt: new Date("2024-03-10T00:00:00Z"), txCount: 300 });

  await db.insert(user).values(users);
  await db.insert(walletAddress).values(wallets);
  await db.insert(walletProfile).values(profiles);
  await db.insert(socialAccount).values({
    provider: "x",
    accountId: "x-veteran",
    lastUserId: "veteran",
    accountCreatedAt: new Date("2024-01-01T00:00:00Z"),
    followers: 1200,
  });
  await db.insert(accessContext).values([
    ...Array.from({ length: 9 }, (_, i) => ({
      id: `a-net${i}`,
      userId: `net${i}`,
      kind: "sign_up" as const,
      networkHash: "n1",
      agentHash: "a",
      createdAt: users.find((u) => u.id === `net${i}`)!.createdAt!,
    })),
    ...Array.from({ length: 400 }, (_, i) => ({
      id: `a-isp${i}`,
      userId: `isp${i}`,
      kind: "sign_up" as const,
      networkHash: "isp",
      agentHash: "a",
      createdAt: users.find((u) => u.id === `isp${i}`)!.createdAt!,
    })),
    ...Array.from({ length: 7 }, (_, i) => ({
      id: `a-cafe${i}`,
      userId: `cafe${i}`,
      kind: "sign_up" as const,
      networkHash: "n2",
      agentHash: "a",
      createdAt: at(-48 + i / 10),
    })),
  ]);

  await db.insert(project).values({ id: "p", slug: "p", name: "P" });
  const types = { t1: "submit_text", t2: "submit_url", t3: "visit_link", quiz: "quiz" } as const;
  await db.insert(task).values(Object.entries(types).map(([id, type]) => ({ id, projectId: "p", title: id, type, xp: 10, verification: "auto" as const })));
  const done: (typeof completion.$inferInsert)[] = [];
  const complete = (userId: string, taskId: string, when: Date, submission: Record<string, unknown> = {}) =>
    done.push({ id: `${userId}-${taskId}`, userId, taskId, period: "once", status: "approved", submission, createdAt: when });
  ["t1", "t2", "t3"].forEach((taskId, t) => {
    for (let i = 0; i < 5; i++) complete(`sync${i}`, taskId, new Date(at(-10 + t).getTime() + i * 1000), { text: `sync ${i} answer` });
    complete("late", taskId, at(-5 + t), { text: "late" });
  });
  complete("same0", "t1", at(-20), { text: "The project lets members earn tokens!" });
  complete("same1", "t1", at(-19), { text: "the project lets   members earn tokens" });
  complete("same2", "t2", at(-18), { text: "The project, lets members earn tokens." });
  for (let i = 0; i < 5; i++) complete(`quiz${i}`, "quiz", at(-30 + i), { answer: "The answer is forty-two, obviously" });
  for (let i = 0; i < 5; i++) complete(`gm${i}`, "t1", at(-40 + i), { text: "gm" });
  await db.insert(completion).values(done);
  await db.insert(referral).values(Array.from({ length: 10 }, (_, i) => ({ referredId: `ring${i}`, referrerId: "ringleader", createdAt: at(-72) })));

  first = await scoreMembers({ db, sharedFunders: new Set([EXCHANGE]), now: NOW });
});

afterAll(() => database.close());

describe("scoreMembers", () => {
  it("finds one cluster of each kind, and nothing among the look-alikes", async () => {
    const kinds = await database.db.select({ kind: trustCluster.kind, key: trustCluster.key, size: trustCluster.size }).from(trustCluster);
    expect(kinds.map((c) => `${c.kind} ${c.size}`).sort()).toEqual([
      "funder 5",
      "funder 5",
      "network 8",
      "referral 11",
      "same_answer 3",
      "sweep 5",
      "synchronized 5",
    ]);
    expect(kinds.filter((c) => c.kind === "funder").map((c) => c.key)).toEqual(expect.arrayContaining([addr("f0"), addr("r0")]));
    for (const id of ["ex0", "friend0", "unk0", "net8", "cafe0", "isp395", "late", "quiz0", "gm0", "veteran"]) expect(await clustersOf(id), id).toEqual([]);
    expect(first).toEqual({ members: expect.any(Number), clusters: 7, flagged: 5 + 5 + 5 + 8 + 5 + 3 + 11 });
  });

  it("gives each member their reasons in words, counting others but never naming them", async () => {
    expect((await trustOf({ db: database.db, userId: "fan3" }))?.reasons).toEqual([
      { code: "funder_cluster", points: -45, words: "Funded by the same address as 4 other members", clusterId: expect.any(String) },
    ]);
    expect((await trustOf({ db: database.db, userId: "chain4" }))?.reasons[0]?.words).toBe("Funded through one chain of wallets, like 4 other members");
    expect((await trustOf({ db: database.db, userId: "net2" }))?.reasons[0]?.words).toBe("Created with 7 other accounts from one network in 2 hours");
    expect((await trustOf({ db: database.db, userId: "sync1" }))?.reasons[0]?.words).toBe("Completed 3 tasks within seconds of 4 other members");
    expect((await trustOf({ db: database.db, userId: "same2" }))?.reasons[0]?.words).toBe("Gave the same answer as 2 other members");
    expect((await trustOf({ db: database.db, userId: "ring7" }))?.reasons[0]?.words).toBe(
      "One of 10 fresh accounts referred by one member that did little else",
    );
    expect((await trustOf({ db: database.db, userId: "ringleader" }))?.reasons[0]?.words).toBe("Referred 10 fresh accounts that did little else");
    expect(await trustOf({ db: database.db, userId: "sweep0" })).toMatchObject({ score: 10, flagged: true });
    expect(await trustOf({ db: database.db, userId: "veteran" })).toMatchObject({
      score: 90,
      flagged: false,
      reasons: [
        { code: "old_wallet", points: 15, words: "Wallet active on Ethereum since March 2024" },
        { code: "active_wallet", points: 5, words: "Wallet sent 300 transactions on Ethereum" },
        { code: "social_account", points: 15, words: "X account 3 years old with 1,200 followers" },
        { code: "long_member", points: 5, words: "Member since January 2026" },
      ],
    });
    expect(await trustOf({ db: database.db, userId: "nobody" })).toBeNull();
  });

  it("says unknown funding in words and moves nothing", async () => {
    expect(await trustOf({ db: database.db, userId: "unk1" })).toMatchObject({
      score: 50,
      flagged: false,
      reasons: [{ code: "funding_unknown", points: 0, words: "Funding unknown: the node keeps no history that old" }],
    });
  });

  it("takes points for a disposable e-mail address when told which ones are", async () => {
    await scoreMembers({
      db: database.db,
      sharedFunders: new Set([EXCHANGE]),
      now: NOW,
      isDisposable: (email) => (email.startsWith("gm0@") ? "example.test" : null),
    });
    expect(await trustOf({ db: database.db, userId: "gm0" })).toMatchObject({
      score: 35,
      flagged: true,
      reasons: [{ code: "disposable_email", points: -15, words: "Signed up with a disposable e-mail address (example.test)" }],
    });
  });

  it("keeps cluster ids across runs, and empties a cluster no longer found", async () => {
    const before = await clustersOf("fan0");
    const sweepBefore = await clustersOf("sweep0");
    await database.db
      .update(walletProfile)
      .set({ sweptTo: null })
      .where(sql`${walletProfile.sweptTo} = ${addr("5e")}`);
    await database.db.insert(user).values({ id: "fan5", email: "fan5@example.test", createdAt: at(-1) });
    await database.db.insert(walletAddress).values({ id: "w-fan5", userId: "fan5", address: addr("fa", 5), chainId: 1 });
    await database.db.insert(walletProfile).values({ address: addr("fa", 5), chainId: 1, status: "known", funder: addr("f0") });
    await scoreMembers({ db: database.db, sharedFunders: new Set([EXCHANGE]), now: NOW });
    expect(await clustersOf("fan0")).toEqual([{ ...before[0], size: 6 }]);
    expect(await clustersOf("fan5")).toEqual([{ ...before[0], size: 6 }]);
    expect(await clustersOf("sweep0")).toEqual([]);
    const [emptied] = await database.db
      .select({ size: trustCluster.size })
      .from(trustCluster)
      .where(sql`${trustCluster.id} = ${sweepBefore[0]!.id}`);
    expect(emptied).toEqual({ size: 0 });
    expect(await trustOf({ db: database.db, userId: "sweep0" })).toMatchObject({ score: 50, flagged: false, reasons: [] });
  });
});
