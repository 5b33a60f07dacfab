import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airdrop, airdropAllocation } from "#db/schema/airdrops";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { campaign, completion, task } from "#db/schema/quests";
import { rewardGrant } from "#db/schema/rewards";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { failureMessage } from "~/lib/result";
import { airdropBoard, freezeEndedAirdrops } from "~/modules/airdrops/freeze.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { boardKey, rankOf } from "~/modules/leaderboards/leaderboards.server";
import { distributeEndedCampaigns } from "~/modules/rewards/distribute.server";
import { createRewardPool } from "~/modules/rewards/reward-pools.server";
import { deployOnchainFixtures, type OnchainFixtures } from "#tests/setup/onchain-fixtures";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { reviewCompletion, type Task } from "./completions.server";
import { recheckHoldingsBeforeRewards } from "./recheck-holdings.server";

/**
 * Holdings read again on anvil before a campaign's pools pay and before an airdrop freezes: a
 * holding sold meanwhile voids its approval (the member gets nothing from the pool, no share of
 * the airdrop); one still held is paid; a node that cannot be reached holds the payout back for
 * the next run instead of paying on an unchecked holding.
 */

const HOUR = 3_600_000;
// The boards' windows read the database's clock, so the campaigns ran in the last few days.
const NOW = new Date();
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);
let localChain: LocalChain;
let fx: OnchainFixtures;
let database: Database;
let chains: ChainRegistry;
const db = () => database.db;

/** Members and the dev account each links. */
const MEMBERS = { keeper: 1, seller: 2, holder: 3 } as const;
const BUYER = 5;

beforeAll(async () => {
  localChain = await startLocalChain();
  fx = await deployOnchainFixtures(localChain.url);
  database = await createTestDatabase();
  chains = localRegistry({ url: localChain.url, confirmations: 1, webSocket: null });
  await db()
    .insert(user)
    .values(["own", ...Object.keys(MEMBERS)].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await db().insert(project).values({ id: "p", slug: "p", name: "P" });
  await db().insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await db()
    .insert(walletAddress)
    .values(Object.entries(MEMBERS).map(([userId, n]) => ({ id: randomUUID(), userId, address: fx.address(n), chainId: LOCAL_CHAIN_ID, isPrimary: true })));
  // Each member mints one NFT of the collection (token id = their account) and 100 coins.
  for (const n of Object.values(MEMBERS)) {
    await fx.send(n, { address: fx.collection, abi: fx.abis.collection, functionName: "mint", args: [BigInt(n)] });
    await fx.send(n, { address: fx.coin, abi: fx.abis.coin, functionName: "mint", args: [parseEther("100")] });
  }
});
afterAll(async () => {
  await database?.close();
  await localChain?.stop();
});

const coinTask = (extra: Record<string, unknown> = {}) => ({
  type: "hold_token" as const,
  config: {
    chainId: LOCAL_CHAIN_ID,
    tokenAddress: fx.coin,
    minBalance: parseEther("100").toString(),
    symbol: "QLC",
    decimals: 18,
    snapshotBlock: null,
    recheckBeforeRewards: true,
    ...extra,
  },
});
const nftTask = () => ({
  type: "nft_hold" as const,
  config: {
    chainId: LOCAL_CHAIN_ID,
    contract: fx.collection,
    standard: "erc721",
    tokenIds: [],
    minCount: 1,
    name: "Questline Explorer",
    recheckBeforeRewards: true,
    actionUrl: "",
  },
});

type TaskSpec = { type: Task["type"]; config: Record<string, unknown> };

/** Tasks of a new campaign (ended an hour ago) or airdrop, published. */
async function makeTasks(where: { campaignId: string } | { airdropId: string }, specs: TaskSpec[]): Promise<Task[]> {
  return db()
    .insert(task)
    .values(
      specs.map((spec, i) => ({
        id: randomUUID(),
        projectId: "p",
        ...where,
        title: `Hold ${i}`,
        type: spec.type,
        config: spec.config,
        verification: "auto" as const,
        xp: 10,
        publishedAt: at(-80),
      })),
    )
    .returning();
}
async function makeCampaign(specs: TaskSpec[]) {
  const id = randomUUID();
  await db()
    .insert(campaign)
    .values({ id, projectId: "p", slug: id.slice(0, 8), name: "Season", startsAt: at(-72), endsAt: at(-1), publishedAt: at(-80) });
  return { id, tasks: await makeTasks({ campaignId: id }, specs) };
}

/** The member's completion of the task, approved during the campaign (as the holding's check approves one), its XP paid. */
async function approve(t: Task, userId: string, hours: number) {
  const id = randomUUID();
  await db()
    .insert(completion)
    .values({ id, taskId: t.id, userId, period: "once", status: "pending", submission: {}, createdAt: at(hours), updatedAt: at(hours) });
  const reviewed = await reviewCompletion({ db: db(), completionId: id, reviewerId: "own", decision: "approved", now: at(hours) });
  if (!reviewed.ok) throw new Error(failureMessage(reviewed));
  return id;
}
const row = async (id: string) => (await db().select().from(completion).where(eq(completion.id, id)))[0]!;

async function xpPool(campaignId: string) {
  const created = await createRewardPool({
    db: db(),
    campaignId,
    actorId: "own",
    input: { kind: "xp", asset: null, distribution: "fcfs", winners: 3, amount: 100n, rankAmounts: null },
    raffleChainId: LOCAL_CHAIN_ID,
    now: at(-70),
  });
  if (!created.ok) throw new Error(failureMessage(created));
  return created.value.id;
}
const grants = async (poolId: string) =>
  (await db().select().from(rewardGrant).where(eq(rewardGrant.poolId, poolId)).orderBy(asc(rewardGrant.position))).map((g) => [g.userId, g.amount]);

describe("holdings re-checked before a campaign's pools pay", () => {
  it("voids the approval of a holding sold meanwhile (the seller gets nothing from the pool) and pays the member who still holds", async () => {
    const c = await makeCampaign([coinTask(), nftTask()]);
    const [coin, nft] = c.tasks as [Task, Task];
    const pool = await xpPool(c.id);
    const keeperNft = await approve(nft, "keeper", -60);
    await approve(coin, "keeper", -59);
    const sellerNft = await approve(nft, "seller", -58);
    const sellerCoin = await approve(coin, "seller", -57);
    // The seller's NFT goes to another wallet before the payout.
    await fx.send(MEMBERS.seller, {
      address: fx.collection,
      abi: fx.abis.collection,
      functionName: "transferFrom",
      args: [fx.address(MEMBERS.seller), fx.address(BUYER), 2n],
    });

    const run = await distributeEndedCampaigns({ db: db(), onchain: chains, now: NOW });
    expect(run).toEqual({ pools: 1, grants: 1, frozen: 0, failed: 0 });
    expect(await grants(pool)).toEqual([["keeper", 100n]]);
    expect(await row(sellerNft)).toMatchObject({
      status: "rejected",
      reason: "You no longer held 1 Questline Explorer on Questline Local when the rewards were paid, so this task no longer counts.",
      evidence: { recheckedAt: NOW.toISOString(), recheck: "not_held", recheckHeld: "0", voidedAt: NOW.toISOString() },
    });
    // The NFT's 10 XP are off the campaign's board; the coins, still held, stand.
    expect(await rankOf({ db: db(), board: boardKey({ kind: "campaign", campaignId: c.id }, "all"), userId: "seller" })).toMatchObject({ score: 10 });
    expect(await row(sellerCoin)).toMatchObject({ status: "approved", evidence: { recheck: "held", recheckHeld: parseEther("100").toString() } });
    expect(await row(keeperNft)).toMatchObject({ status: "approved", evidence: { recheckedAt: NOW.toISOString(), recheck: "held", recheckHeld: "1" } });
    // Nothing is re-checked twice.
    expect(await recheckHoldingsBeforeRewards({ db: db(), chains, scope: { campaignId: c.id }, now: NOW })).toEqual({
      checked: 0,
      kept: 0,
      voided: 0,
      skipped: 0,
    });
  });

  it("holds the campaign's pools back while the node cannot be reached, and pays once it answers", async () => {
    const c = await makeCampaign([coinTask()]);
    const [coin] = c.tasks as [Task];
    const pool = await xpPool(c.id);
    const done = await approve(coin, "holder", -30);
    const down = localRegistry({ url: "http://127.0.0.1:9", confirmations: 1, webSocket: null });
    const errors: unknown[] = [];
    const held = await distributeEndedCampaigns({ db: db(), onchain: down, now: NOW, onPoolError: (_, err) => errors.push(err) });
    expect(held).toEqual({ pools: 0, grants: 0, frozen: 0, failed: 1 });
    expect(String(errors[0])).toMatch(/The chain could not be reached/);
    expect(await grants(pool)).toEqual([]);
    expect((await row(done)).evidence).toBeNull();

    expect(await distributeEndedCampaigns({ db: db(), onchain: chains, now: NOW })).toEqual({ pools: 1, grants: 1, frozen: 0, failed: 0 });
    expect(await grants(pool)).toEqual([["holder", 100n]]);
  });

  it("leaves holdings read at a snapshot block, and tasks that turned the re-check off, alone", async () => {
    const c = await makeCampaign([coinTask({ snapshotBlock: 1 }), coinTask({ recheckBeforeRewards: false })]);
    const [snapshot, optOut] = c.tasks as [Task, Task];
    const a = await approve(snapshot, "seller", -20);
    const b = await approve(optOut, "seller", -20);
    await fx.send(MEMBERS.seller, { address: fx.coin, abi: fx.abis.coin, functionName: "transfer", args: [fx.address(BUYER), parseEther("100")] });
    expect(await recheckHoldingsBeforeRewards({ db: db(), chains, scope: { campaignId: c.id }, now: NOW })).toEqual({
      checked: 0,
      kept: 0,
      voided: 0,
      skipped: 0,
    });
    expect((await row(a)).status).toBe("approved");
    expect((await row(b)).status).toBe("approved");
  });
});

describe("holdings re-checked before an airdrop freezes", () => {
  it("voids a sold holding's approval before the board is read: its points leave the board and the seller gets no share", async () => {
    const drop = {
      projectId: "p",
      asset: "QUEST:31337",
      rule: "pro_rata" as const,
      total: 800n,
      startsAt: at(-48),
      endsAt: at(-1),
      claimDeadline: at(700),
      publishedAt: at(-50),
    };
    await db()
      .insert(airdrop)
      .values({ ...drop, id: "drop", slug: "drop", name: "Holders' drop" });
    const [coin] = await makeTasks({ airdropId: "drop" }, [coinTask()]);
    await approve(coin!, "keeper", -40);
    const holderDone = await approve(coin!, "holder", -39);
    expect(await rankOf({ db: db(), board: airdropBoard("drop"), userId: "holder" })).toMatchObject({ score: 10 });
    await fx.send(MEMBERS.holder, { address: fx.coin, abi: fx.abis.coin, functionName: "transfer", args: [fx.address(BUYER), parseEther("60")] });

    // The node down first: nothing is frozen, the airdrop waits for the next run.
    const failures: string[] = [];
    const down = localRegistry({ url: "http://127.0.0.1:9", confirmations: 1, webSocket: null });
    expect(await freezeEndedAirdrops({ db: db(), chains: down, now: NOW, onError: (id) => failures.push(id) })).toEqual([]);
    expect(failures).toEqual(["drop"]);
    expect((await db().select().from(airdrop).where(eq(airdrop.id, "drop")))[0]?.status).toBe("open");

    const frozen = await freezeEndedAirdrops({ db: db(), chains, now: NOW, onError: (id, err) => failures.push(`${id}: ${String(err)}`) });
    expect(frozen).toMatchObject([{ airdropId: "drop", allocations: 1 }]);
    expect(failures).toEqual(["drop"]);
    expect(await row(holderDone)).toMatchObject({
      status: "rejected",
      reason: "You no longer held 100 QLC on Questline Local when the airdrop was frozen, so this task no longer counts.",
    });
    expect(await rankOf({ db: db(), board: airdropBoard("drop"), userId: "holder" })).toBeNull();
    const allocations = await db()
      .select({ userId: airdropAllocation.userId, amount: airdropAllocation.amount })
      .from(airdropAllocation)
      .where(and(eq(airdropAllocation.airdropId, "drop")));
    expect(allocations).toEqual([{ userId: "keeper", amount: 800n }]);
  });
});
