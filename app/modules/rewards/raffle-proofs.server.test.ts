import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { createPublicClient, createTestClient, http, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, task } from "#db/schema/quests";
import { raffleEntrant, rewardGrant, rewardPool } from "#db/schema/rewards";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { setLeaderboardDisplayName } from "~/modules/leaderboards/member-stats.server";
import { setLeaderboardVisibility } from "~/modules/leaderboards/leaderboards.server";
import { attemptTask } from "~/modules/tasks/completions.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { createTestDatabase } from "#tests/setup/test-db";
import { distributeEndedCampaigns } from "./distribute.server";
import { drawChainOf, type DrawChains } from "./draw-chains.server";
import { entrantListHash, verifyRaffle } from "./raffle-proof";
import { entrantIdOf } from "./entrant-ids.server";
import { entrantLabel, raffleProofOf } from "./raffle-proofs.server";
import { createRewardPool } from "./reward-pools.server";
import type { RewardPoolInput } from "./reward.schema";
import { failureMessage } from "~/lib/result";

let database: Database;
let localChain: LocalChain;
let client: PublicClient;
let chains: DrawChains;
const DAY = 86_400_000;
const T = new Date("2026-11-20T12:00:00Z");
const at = (days: number) => new Date(T.getTime() + days * DAY);
const MEMBERS = ["alice", "bob", "carol", "dave", "erin"];

beforeAll(async () => {
  localChain = await startLocalChain();
  client = createPublicClient({ transport: http(localChain.url) }) as PublicClient;
  chains = new Map([[LOCAL_CHAIN_ID, drawChainOf(client, { chainId: LOCAL_CHAIN_ID, confirmations: 1 })]]);
  database = await createTestDatabase();
  const db = database.db;
  await db.insert(user).values([
    { id: "own", email: "own@example.com", name: "Owner" },
    { id: "alice", email: "alice@example.com", name: "Alice" },
    { id: "bob", email: "bob@example.com", name: "Bob" },
    // Hidden from public boards: listed by a short id, never by name or e-mail.
    { id: "c4r0l-0000", email: "carol@example.com", name: "Carol" },
    { id: "dave", email: "dave@example.com", name: "", username: "dave_d" },
    { id: "erin", email: "erin@example.com", name: "erin@example.com" },
  ]);
  await db.insert(project).values({ id: "p", slug: "proj", name: "Project" });
  await db.insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await setLeaderboardVisibility({ db, userId: "c4r0l-0000", visible: false });
  await setLeaderboardDisplayName({ db, userId: "bob", displayName: "Bobby" });
});
afterAll(async () => {
  await database?.close();
  await localChain?.stop();
});

const members = () => MEMBERS.map((m) => (m === "carol" ? "c4r0l-0000" : m));

/** A campaign from day −10 to −1 with one link to visit, which `entrants` visit in order; published unless `draft`. */
async function campaignWith(entrants: string[], { draft = false } = {}) {
  const id = randomUUID();
  await database.db
    .insert(campaign)
    .values({ id, projectId: "p", slug: `c-${id.slice(0, 8)}`, name: "Autumn season", startsAt: at(-10), endsAt: at(-1), publishedAt: draft ? null : at(-11) });
  const taskId = randomUUID();
  await database.db.insert(task).values({
    id: taskId,
    projectId: "p",
    campaignId: id,
    publishedAt: at(-11),
    title: "Visit",
    type: "visit_link",
    verification: "none",
    xp: 10,
    config: { url: "https://example.com" },
  });
  const pool = async (input: Partial<RewardPoolInput>) => {
    const created = await createRewardPool({
      db: database.db,
      campaignId: id,
      actorId: "own",
      input: { kind: "xp", asset: null, distribution: "raffle", winners: 2, amount: 50n, rankAmounts: null, ...input },
      raffleChainId: LOCAL_CHAIN_ID,
      now: at(-10),
    });
    if (!created.ok) throw new Error(failureMessage(created));
    return created.value;
  };
  for (const [i, userId] of entrants.entries()) {
    const result = await attemptTask({ db: database.db, taskId, userId, input: { kind: "visit" }, now: at(-9 + i * 0.1) });
    expect(result.ok).toBe(true);
  }
  return { id, pool };
}

const ENTRANT_KEY = "k".repeat(40);
const distribute = (now: Date) => distributeEndedCampaigns({ db: database.db, chains, entrantKey: ENTRANT_KEY, now });
/** A member's entrant id in a pool, as the proof lists it. */
const idIn = (poolId: string) => (userId: string) => entrantIdOf({ key: ENTRANT_KEY, poolId, userId });

describe("raffleProofOf", () => {
  it("publishes an honest paid raffle's proof, which passes every check against the chain's block hash", async () => {
    const c = await campaignWith(members());
    const raffle = await c.pool({ winners: 2 });

    const open = await raffleProofOf({ db: database.db, poolId: raffle.id });
    expect(open).toMatchObject({
      status: "open",
      proof: null,
      pool: { id: raffle.id, commitment: raffle.commitment, chainId: LOCAL_CHAIN_ID, winnersWanted: 2, kind: "xp", amount: "50" },
      project: { slug: "proj", name: "Project" },
      campaign: { name: "Autumn season" },
    });
    expect(JSON.stringify(open)).not.toContain(raffle.secret!.slice(2));

    await distribute(T);
    const frozen = (await raffleProofOf({ db: database.db, poolId: raffle.id }))!;
    expect(frozen.status).toBe("frozen");
    const ids = members().map(idIn(raffle.id));
    expect(frozen.proof).toMatchObject({ secret: null, blockHash: null, seed: null, winners: [], entrantsHash: entrantListHash(ids) });
    // Before payment the secret appears nowhere, and the checks say the raffle is not drawn yet.
    expect(JSON.stringify(frozen)).not.toContain(raffle.secret!.slice(2));
    const undrawn = verifyRaffle(frozen.proof!, null);
    expect(undrawn.ok).toBe(false);
    expect(undrawn.checks.find((check) => check.name === "entrants")!.ok).toBe(true);

    await distribute(new Date(T.getTime() + 3_600_000));
    const paid = (await raffleProofOf({ db: database.db, poolId: raffle.id }))!;
    expect(paid.status).toBe("paid");
    const proof = paid.proof!;
    expect(proof.secret).toBe(raffle.secret);
    // Listed by their id in this pool: 16 hex digits, none of them the member's id.
    expect(proof.entrants).toEqual([
      { id: ids[0], label: "Alice" },
      { id: ids[1], label: "Bobby" },
      { id: ids[2], label: `Member ${ids[2]!.slice(0, 4)}…` },
      { id: ids[3], label: "dave_d" },
      { id: ids[4], label: `Member ${ids[4]!.slice(0, 4)}…` },
    ]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    for (const id of [...proof.entrants.map((e) => e.id), ...proof.winners]) expect(members()).not.toContain(id);
    expect(proof.winners).toHaveLength(2);

    const block = await client.getBlock({ blockNumber: BigInt(proof.blockNumber) });
    const verification = verifyRaffle(proof, block.hash);
    expect(verification.checks.filter((check) => !check.ok)).toEqual([]);
    expect(verification.ok).toBe(true);
    // The proof survives the trip through JSON that /proof.json makes.
    expect(verifyRaffle(JSON.parse(JSON.stringify(proof)), block.hash).ok).toBe(true);
    // Another block's hash does not pass.
    const other = await client.getBlock({ blockNumber: BigInt(proof.blockNumber) - 1n });
    expect(verifyRaffle(proof, other.hash).ok).toBe(false);
  });

  it("tells a signed-in entrant their id, which differs from pool to pool; others are told none", async () => {
    const c = await campaignWith(members());
    const first = await c.pool({ winners: 1 });
    const second = await c.pool({ winners: 1 });
    await distribute(T);
    await distribute(new Date(T.getTime() + 3_600_000));
    const view = (poolId: string, viewerId: string | null) => raffleProofOf({ db: database.db, poolId, viewerId });
    const inFirst = (await view(first.id, "bob"))!;
    const inSecond = (await view(second.id, "bob"))!;
    expect(inFirst.yours).toBe(idIn(first.id)("bob"));
    expect(inSecond.yours).toBe(idIn(second.id)("bob"));
    expect(inFirst.yours).not.toBe(inSecond.yours);
    expect(inFirst.proof!.entrants.map((e) => e.id)).toContain(inFirst.yours);
    // No id is shared between the two pools' proofs.
    const firstIds = new Set(inFirst.proof!.entrants.map((e) => e.id));
    expect(inSecond.proof!.entrants.filter((e) => firstIds.has(e.id))).toEqual([]);
    expect((await view(first.id, "own"))!.yours).toBeNull();
    expect((await view(first.id, null))!.yours).toBeNull();
    for (const pool of [inFirst, inSecond]) {
      const block = await client.getBlock({ blockNumber: BigInt(pool.proof!.blockNumber) });
      expect(verifyRaffle(pool.proof!, block.hash).ok).toBe(true);
    }
  });

  it("keeps a drawn raffle's proof public after its campaign is unpublished, and hides an undrawn one's", async () => {
    const drawnCampaign = await campaignWith(members());
    const drawn = await drawnCampaign.pool({ winners: 2 });
    await distribute(T);
    await distribute(new Date(T.getTime() + 3_600_000));
    const waitingCampaign = await campaignWith(members());
    const waiting = await waitingCampaign.pool({ winners: 2 });
    await distribute(new Date(T.getTime() + 7_200_000));
    expect((await raffleProofOf({ db: database.db, poolId: waiting.id }))!.status).toBe("frozen");

    const before = (await raffleProofOf({ db: database.db, poolId: drawn.id }))!;
    expect(before.status).toBe("paid");
    for (const id of [drawnCampaign.id, waitingCampaign.id]) await database.db.update(campaign).set({ publishedAt: null }).where(eq(campaign.id, id));

    const after = await raffleProofOf({ db: database.db, poolId: drawn.id });
    expect(after).toEqual(before);
    const block = await client.getBlock({ blockNumber: BigInt(after!.proof!.blockNumber) });
    expect(verifyRaffle(after!.proof!, block.hash).ok).toBe(true);
    expect(await raffleProofOf({ db: database.db, poolId: waiting.id })).toBeNull();
  });

  it("still lists member ids, as drawn, for a raffle frozen before entrants had ids of their own", async () => {
    const c = await campaignWith(members());
    const legacy = await c.pool({ winners: 2 });
    await distribute(T);
    // Frozen the old way: no entrant ids, the list's hash over the member ids.
    await database.db.update(raffleEntrant).set({ entrantId: null }).where(eq(raffleEntrant.poolId, legacy.id));
    await database.db
      .update(rewardPool)
      .set({ entrantsHash: entrantListHash(members()) })
      .where(eq(rewardPool.id, legacy.id));
    await distribute(new Date(T.getTime() + 3_600_000));
    const proof = (await raffleProofOf({ db: database.db, poolId: legacy.id, viewerId: "bob" }))!;
    expect(proof.proof!.entrants.map((e) => e.id)).toEqual(members());
    expect(proof.yours).toBe("bob");
    const block = await client.getBlock({ blockNumber: BigInt(proof.proof!.blockNumber) });
    expect(verifyRaffle(proof.proof!, block.hash).ok).toBe(true);
    const grants = await database.db.select().from(rewardGrant).where(eq(rewardGrant.poolId, legacy.id));
    expect(grants.map((g) => g.userId).sort()).toEqual([...proof.proof!.winners].sort());
  });

  it("gives null for an unknown pool, a pool that is not a raffle and a draft campaign's raffle", async () => {
    const c = await campaignWith(["alice"]);
    const fcfs = await c.pool({ distribution: "fcfs", winners: 1 });
    const draft = await (await campaignWith([], { draft: true })).pool({});
    expect(await raffleProofOf({ db: database.db, poolId: "no-such-pool" })).toBeNull();
    expect(await raffleProofOf({ db: database.db, poolId: fcfs.id })).toBeNull();
    expect(await raffleProofOf({ db: database.db, poolId: draft.id })).toBeNull();
  });
});

describe("a raffle's draw block", () => {
  it("is used only once it has its confirmations: a reorg before then moves the draw to the new block, drawn once", async () => {
    // A chain that mines on its own (as a public chain does), needing three blocks on the draw block.
    const remote = drawChainOf(client, { chainId: LOCAL_CHAIN_ID, confirmations: 3 });
    const threeConfirmations: DrawChains = new Map([[LOCAL_CHAIN_ID, { ...remote, mine: undefined }]]);
    const run = (now: Date) => distributeEndedCampaigns({ db: database.db, chains: threeConfirmations, entrantKey: ENTRANT_KEY, now });
    const poolNow = async () => (await database.db.select().from(rewardPool).where(eq(rewardPool.id, raffle.id)))[0]!;
    const anvil = createTestClient({ mode: "anvil", transport: http(localChain.url) });
    const c = await campaignWith(members());
    const raffle = await c.pool({ winners: 2 });

    // Earlier tests' ended campaigns are paid by the first run too: each step checks this raffle.
    await run(T);
    const frozen = await poolNow();
    expect(frozen.status).toBe("frozen");
    const drawBlock = BigInt(frozen.drawBlock!);
    expect(drawBlock).toBe((await client.getBlockNumber({ cacheTime: 0 })) + 1n);
    const beforeDrawBlock = await anvil.snapshot();

    // The draw block and one more: not yet three confirmations, so nothing is drawn.
    await anvil.mine({ blocks: 2 });
    const orphaned = (await client.getBlock({ blockNumber: drawBlock })).hash;
    expect(await run(at(0.1))).toMatchObject({ pools: 0, frozen: 0 });
    expect((await poolNow()).status).toBe("frozen");

    // A reorg replaces both blocks; the new draw block (another timestamp) has another hash.
    await anvil.revert({ id: beforeDrawBlock });
    const parent = await client.getBlock({ blockNumber: drawBlock - 1n });
    await anvil.setNextBlockTimestamp({ timestamp: parent.timestamp + 1000n });
    await anvil.mine({ blocks: 3 });
    const canonical = (await client.getBlock({ blockNumber: drawBlock })).hash;
    expect(canonical).not.toBe(orphaned);

    expect(await run(at(0.2))).toMatchObject({ pools: 1, grants: 2 });
    expect(await poolNow()).toMatchObject({ status: "paid", drawBlock: Number(drawBlock), drawBlockHash: canonical });
    const proof = (await raffleProofOf({ db: database.db, poolId: raffle.id }))!.proof!;
    expect(proof.blockHash).toBe(canonical);
    expect(verifyRaffle(proof, canonical).ok).toBe(true);
    expect(verifyRaffle(proof, orphaned).ok).toBe(false);
    // Drawn once: later runs find nothing to pay.
    await anvil.mine({ blocks: 3 });
    expect(await run(at(0.3))).toMatchObject({ pools: 0, frozen: 0 });
    const grants = await database.db.select().from(rewardGrant).where(eq(rewardGrant.poolId, raffle.id));
    expect(grants.map((g) => idIn(raffle.id)(g.userId)).sort()).toEqual([...proof.winners].sort());
  });
});

describe("entrantLabel", () => {
  it("uses the public name when visible, else a short id, and never an e-mail", () => {
    expect(entrantLabel({ id: "u1234567", visible: true, names: ["Shown", "Real name", "user"] })).toBe("Shown");
    expect(entrantLabel({ id: "u1234567", visible: true, names: [null, "  ", "user"] })).toBe("user");
    expect(entrantLabel({ id: "u1234567", visible: false, names: ["Shown", "Real name", "user"] })).toBe("Member u123…");
    expect(entrantLabel({ id: "u1234567", visible: true, names: [null, "me@example.com", null] })).toBe("Member u123…");
  });
});
