import { randomBytes } from "node:crypto";
import { and, count, eq, isNotNull } from "drizzle-orm";
import { createWalletClient, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { exclusionAppeal, memberExclusion, trustScore } from "#db/schema/trust";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { airdrop } from "#db/schema/airdrops";
import { deposit } from "#db/schema/ledger";
import { project } from "#db/schema/projects";
import { notification, projectFollow, webhookEndpoint } from "#db/schema/reach";
import { campaign, completion, crusade, task } from "#db/schema/quests";
import { rewardGrant, rewardPool } from "#db/schema/rewards";
import type { Database } from "~/lib/db.server";
import { createLogger } from "~/lib/logger.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { airdropBoard } from "~/modules/airdrops/freeze.server";
import { processAirdropRounds, roundChainsOf } from "~/modules/airdrops/round.server";
import { claimableShareOf, roundView } from "~/modules/airdrops/round-view.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { chainEvidenceOf } from "~/modules/chain/chain-evidence";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import { ONCHAIN_TASK_TYPES } from "~/modules/tasks/task-checks";
import { boardKey, boardPage } from "~/modules/leaderboards/leaderboards.server";
import { assetOf, questAsset } from "~/modules/ledger/assets";
import { balanceOf } from "~/modules/ledger/ledger.server";
import { chainTransport } from "~/wallet/chain-config";
import { verifyFromSources } from "~/modules/rewards/raffle-proof";
import { raffleProofOf } from "~/modules/rewards/raffle-proofs.server";
import { projectRewards } from "~/modules/rewards/treasury.server";
import { socialConfigFromEnv } from "~/modules/social/social-config.server";
import { socialTaskAccess } from "~/modules/social/social-tasks.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { howChecked } from "~/modules/tasks/task-checks";
import { TASK_TYPES } from "~/modules/tasks/task-types";
import { localRegistry } from "#tests/setup/local-registry";
import { createTestDatabase } from "#tests/setup/test-db";
import { seedDemo } from "./seed.server";
import { DEMO_STABLECOIN_DEPOSIT, DEMO_TREASURY_DEPOSIT, WALLET_MEMBERS } from "./seed-tokens.server";

const Q = questAsset(31337);
let database: Database;
let node: LocalChain;
let second: LocalChain;
let chains: ChainRegistry;
let registry: () => ChainRegistry;
const now = new Date();
const db = () => database.db;
const client = () => chains.get(31337)!.client;

beforeAll(async () => {
  [database, node, second] = await Promise.all([createTestDatabase(), startLocalChain(), startLocalChain({ chainId: SECOND_LOCAL_CHAIN_ID })]);
  const [onFirst, onSecond] = await Promise.all(
    [node, second].map((chain) => ensureLocalContracts({ rpcUrl: chain.url, known: undefined, logger: createLogger("silent") })),
  );
  const addresses = onFirst!.addresses;
  registry = () =>
    localRegistry({
      url: node.url,
      contracts: addresses,
      demo: onFirst!.demo,
      others: [
        { id: SECOND_LOCAL_CHAIN_ID, transport: chainTransport([second.url]), contracts: onSecond!.addresses, tokens: onSecond!.tokens, confirmations: 1 },
      ],
      localRpcs: { [SECOND_LOCAL_CHAIN_ID]: second.url },
    });
  chains = registry();
  const started = performance.now();
  // Discord and Telegram as a server with neither set up: the community campaign's tasks, no bots.
  const community = { social: socialConfigFromEnv({ SOCIAL_TOKEN_KEY: "11".repeat(32) }, { isPublic: false, dataDir: "/nonexistent" }), isPublic: false };
  expect(await seedDemo({ db: db(), now, chains, reach, community })).toMatchObject({ seeded: true, projects: 5, onChain: true });
  console.log(`demo seeded with the local chain in ${Math.round(performance.now() - started)} ms`);
}, 300_000);
afterAll(async () => {
  await Promise.all([database.close(), node.stop(), second.stop()]);
});

/** The local trial's: the demo's api_check task and webhook endpoint point at this app's /dev receivers. */
const reach = { tokenKey: randomBytes(32), appUrl: "http://localhost:3000", isPublic: false };

const lumenSwap = async () => (await db().select().from(project).where(eq(project.slug, "lumen-swap")))[0]!;

describe("the demo", () => {
  it("names the project's rewards token: QUEST on the local chain", async () => {
    expect((await lumenSwap()).rewardAsset).toBe(Q);
  });

  it("gives each member with a wallet a balance in a second token on the second chain, deposited into its vault and credited by the scan", async () => {
    const usdc = assetOf("USDC", SECOND_LOCAL_CHAIN_ID);
    for (const { member } of WALLET_MEMBERS) {
      const balances = await balanceOf({ db: db(), userId: `demo-member-0${member}` });
      expect(balances.find((b) => b.asset === usdc)).toMatchObject({ available: DEMO_STABLECOIN_DEPOSIT, held: 0n });
    }
    const credited = await db().select().from(deposit).where(eq(deposit.chainId, SECOND_LOCAL_CHAIN_ID));
    expect(credited.map((row) => ({ asset: row.asset, status: row.status }))).toEqual(WALLET_MEMBERS.map(() => ({ asset: usdc, status: "credited" })));
  });

  it("seeds projects, campaigns in every state, crusades, every task type and members with XP — once", async () => {
    expect((await db().select({ n: count() }).from(project))[0]!.n).toBe(5);
    const statuses = new Set((await db().select().from(campaign)).map((c) => campaignStatus(c, now)));
    expect(statuses).toEqual(new Set(["live", "ended", "scheduled"]));
    expect((await db().select({ n: count() }).from(crusade))[0]!.n).toBe(5);
    expect(new Set((await db().select({ type: task.type }).from(task)).map((t) => t.type))).toEqual(new Set(TASK_TYPES));
    expect((await db().select({ n: count() }).from(completion).where(eq(completion.status, "approved")))[0]!.n).toBeGreaterThan(50);
    for (const window of ["all", "30d", "7d"] as const) {
      expect((await boardPage({ db: db(), board: boardKey({ kind: "global" }, window), limit: 5 })).length).toBeGreaterThan(0);
    }
    // Reward pools: open on live campaigns, paid (to someone) on the ended ones.
    const pools = await db().select({ status: rewardPool.status, campaign }).from(rewardPool).innerJoin(campaign, eq(campaign.id, rewardPool.campaignId));
    expect(new Set(pools.map((p) => `${campaignStatus(p.campaign, now)}:${p.status}`))).toEqual(new Set(["live:open", "ended:paid"]));
    expect((await db().select({ n: count() }).from(rewardGrant))[0]!.n).toBeGreaterThan(20);
    expect(await seedDemo({ db: db(), now, chains, reach })).toEqual({ seeded: false });
  });

  it("gives members an inbox from what the demo did, member2 a followed project, and Lumen Swap a webhook endpoint on the local receiver", async () => {
    for (const member of ["demo-member-01", "demo-member-02"]) {
      expect((await db().select({ n: count() }).from(notification).where(eq(notification.userId, member)))[0]!.n, member).toBeGreaterThan(0);
    }
    expect(await db().select({ projectId: projectFollow.projectId }).from(projectFollow).where(eq(projectFollow.userId, "demo-member-02"))).toEqual([
      { projectId: (await lumenSwap()).id },
    ]);
    const [endpoint] = await db()
      .select()
      .from(webhookEndpoint)
      .where(eq(webhookEndpoint.projectId, (await lumenSwap()).id));
    expect(endpoint?.url).toMatch(/^http:\/\/localhost:3000\/dev\/webhooks\/receive\//);
    expect(endpoint?.secret).not.toMatch(/^whsec_/);
  });

  it("funds a project's treasury by a deposit on the local chain, and escrows a live token reward of each distribution from it", async () => {
    const lumen = await lumenSwap();
    const [credited] = await db()
      .select()
      .from(deposit)
      .where(and(eq(deposit.projectId, lumen.id), eq(deposit.status, "credited")));
    expect(credited).toMatchObject({ chainId: 31337, amount: DEMO_TREASURY_DEPOSIT, asset: Q });
    const receipt = await client().getTransactionReceipt({ hash: credited!.txHash as Hex });
    expect(receipt.status).toBe("success");

    const rewards = await projectRewards({ db: db(), projectId: lumen.id, viewerRole: "owner", viewerId: "demo-member-01", now });
    const treasury = rewards.treasury.find((t) => t.asset === Q)!.balance;
    expect(treasury).toBeGreaterThan(0n);
    expect(treasury).toBeLessThan(DEMO_TREASURY_DEPOSIT);
    const liveTokens = rewards.pools.filter((p) => p.kind === "token" && p.state === "live");
    expect(liveTokens.map((p) => p.distribution).sort()).toEqual(["everyone", "fcfs", "raffle", "ranking"]);
    for (const pool of liveTokens) expect(pool.escrowed).toBeGreaterThan(0n);
  });

  it("draws the ended campaigns' raffles from a local block, and each proof verifies against the chain", async () => {
    const raffles = await db()
      .select()
      .from(rewardPool)
      .where(and(eq(rewardPool.distribution, "raffle"), eq(rewardPool.status, "paid"), isNotNull(rewardPool.drawBlockHash)));
    expect(raffles.length).toBe(5);
    for (const raffle of raffles) {
      const view = await raffleProofOf({ db: db(), poolId: raffle.id });
      const verified = await verifyFromSources({
        // As `npm run verify-raffle` gets it: JSON from the app, block hashes from the node.
        proof: JSON.parse(JSON.stringify(view!.proof)),
        readBlockHash: async ({ chainId, blockNumber }) => (chainId === 31337 ? (await client().getBlock({ blockNumber })).hash : null),
      });
      expect(verified.checks.filter((check) => !check.ok)).toEqual([]);
      expect(verified.ok).toBe(true);
    }
  });

  it("runs a live airdrop members earn points in, and opens the ended one's round on chain for a demo wallet to claim", async () => {
    const lumen = await lumenSwap();
    const drops = await db().select().from(airdrop).where(eq(airdrop.projectId, lumen.id));
    const live = drops.find((a) => a.slug === "liquidity-drop")!;
    expect(live).toMatchObject({ status: "open", escrowed: parseEther("2000") });
    expect(live.startsAt.getTime()).toBeLessThan(now.getTime());
    expect(live.endsAt.getTime()).toBeGreaterThan(now.getTime());
    expect((await boardPage({ db: db(), board: airdropBoard(live.id), limit: 5 })).length).toBeGreaterThan(0);

    // The ended one is frozen; the worker's round job opens its round (each run with the
    // registry's clients as a worker has them a second later: a fresh block number).
    const ended = drops.find((a) => a.slug === "genesis-drop")!;
    expect(ended).toMatchObject({ status: "frozen", leaves: WALLET_MEMBERS.length, claimable: parseEther("1250"), unclaimable: parseEther("250") });
    for (let run = 0; run < 6 && (await roundView({ db: db(), airdropId: ended.id }))?.step !== "open"; run++) {
      await processAirdropRounds({ db: db(), chains: roundChainsOf(registry()), now, onError: (_, error) => expect.fail(String(error)) });
    }
    const round = await roundView({ db: db(), airdropId: ended.id });
    expect(round).toMatchObject({ step: "open", chainId: 31337, failure: null });

    // demo-member-06 signs with dev account 1: their share is claimable, and the claim pays it.
    const { account, member } = WALLET_MEMBERS[0]!;
    const share = await claimableShareOf({ db: db(), airdropId: ended.id, userId: `demo-member-0${member}`, round });
    expect(share).toMatchObject({ account: DEV_ADDRESSES[account], amount: parseEther("312.5").toString() });
    const token = chains.get(31337)!.contracts!.QuestToken;
    const balance = () => client().readContract({ address: token, abi: questTokenAbi, functionName: "balanceOf", args: [DEV_ADDRESSES[account]!] });
    const before = await balance();
    const wallet = createWalletClient({ chain: anvil, transport: http(node.url), account: privateKeyToAccount(DEV_PRIVATE_KEYS[account]!) });
    const hash = await wallet.writeContract({
      address: share!.distributor,
      abi: airdropDistributorAbi,
      functionName: "claim",
      args: [BigInt(share!.roundId), BigInt(share!.leaf), share!.account, BigInt(share!.amount), share!.proof],
    });
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await balance()).toBe(before + BigInt(share!.amount));
  });

  it("seeds a campaign of on-chain quests on the demo contracts, done by members' dev-account wallets with the chain's evidence", async () => {
    const [quests] = await db().select().from(campaign).where(eq(campaign.slug, "on-chain-quests"));
    expect(quests && campaignStatus(quests, now)).toBe("live");
    const tasks = await db().select().from(task).where(eq(task.campaignId, quests!.id));
    expect(new Set(tasks.map((t) => t.type))).toEqual(new Set(ONCHAIN_TASK_TYPES));
    const done = await db()
      .select({ type: task.type, userId: completion.userId, evidence: completion.evidence })
      .from(completion)
      .innerJoin(task, eq(task.id, completion.taskId))
      .where(and(eq(task.campaignId, quests!.id), eq(completion.status, "approved")));
    expect(
      done
        .filter((c) => c.userId === "demo-member-06")
        .map((c) => c.type)
        .sort(),
    ).toEqual([...ONCHAIN_TASK_TYPES].sort());
    expect(done.filter((c) => c.userId === "demo-member-07").map((c) => c.type)).toEqual(["nft_hold"]);
    for (const c of done) expect(chainEvidenceOf(c.evidence)).toMatchObject({ chainId: 31337, wallet: expect.stringMatching(/^0x/) });
    const swap = done.find((c) => c.type === "contract_call");
    expect(chainEvidenceOf(swap!.evidence)!.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("scores every member at the seed: only the farm is flagged, its accounts kept out of Lumen Swap, one appeal waiting", async () => {
    const scores = await db().select({ userId: trustScore.userId, flagged: trustScore.flagged, reasons: trustScore.reasons }).from(trustScore);
    const flagged = scores.filter((row) => row.flagged).map((row) => row.userId);
    expect(flagged).toHaveLength(12);
    // The demo's 36 members and the two honest newcomers hand in their own answers: none of them is flagged.
    expect(flagged.every((id) => Number(id.slice(-2)) > 37 && Number(id.slice(-2)) < 50)).toBe(true);
    expect(await db().select({ userId: memberExclusion.userId }).from(memberExclusion)).toHaveLength(12);
    expect(await db().select({ status: exclusionAppeal.status }).from(exclusionAppeal)).toEqual([{ status: "pending" }]);
  });

  it("shows how social tasks are checked, and that a provider nobody configured is not set up on this server", async () => {
    const [follow] = await db().select().from(task).where(eq(task.type, "x_follow")).limit(1);
    expect(howChecked(follow!)).toBe("Checked with X");
    expect(await socialTaskAccess({ db: db(), task: follow!, userId: "demo-member-06" })).toEqual({ state: "not_set_up", provider: "x" });
  });
});
