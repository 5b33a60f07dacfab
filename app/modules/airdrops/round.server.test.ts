import { eq, inArray, sql } from "drizzle-orm";
import { createWalletClient, http, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { airdrop, airdropClaim, airdropRound } from "#db/schema/airdrops";
import { chainEventCursor } from "#db/schema/chain";
import { user } from "#db/schema/auth";
import { project, projectMember } from "#db/schema/projects";
import { appEvent } from "#db/schema/reach";
import { walletAddress } from "#db/schema/wallets";
import type { Database, Db } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { parseForm } from "~/lib/forms";
import { addBoardPoints } from "~/modules/leaderboards/leaderboards.server";
import { accountBalance, airdropEscrow, checkLedger, credit, platformBalance, projectTreasury } from "~/modules/ledger/ledger.server";
import { fundProject } from "~/modules/rewards/treasury.server";
import { localRegistry } from "#tests/setup/local-registry";
import { KILL_TEST_TIMEOUT_MS, startJobChild, type JobChild } from "#tests/setup/job-child";
import { startRpcProxy, type RpcProxy } from "#tests/setup/rpc-proxy";
import { createTestDatabase, sharedDatabase } from "#tests/setup/test-db";
import { Q, rpc, VAULT_FUNDS, vaultOnChain, type VaultOnChain } from "#tests/setup/withdrawal-chain";
import { airdropSchema } from "./airdrop.schema";
import { airdropBoard, airdropClaimOf, freezeAirdrop } from "./freeze.server";
import { saveAirdrop } from "./airdrops.server";
import { CLAIM_SUBSCRIPTION, scanClaims } from "./claims.server";
import { requestSweep, roundChainsOf, TOO_LATE } from "./round.server";
import { followedRounds } from "#tests/setup/outbox-runs";
import { claimableShareOf, roundView } from "./round-view.server";
import { PREVIOUS_CHAIN } from "./previous-chain.server";

const DAY = 86_400_000;
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };
let database: Database;
let node: LocalChain;
let proxy: RpcProxy;
let vault: VaultOnChain;
const db = () => database.db;

beforeAll(async () => {
  [database, node] = await Promise.all([createTestDatabase(), startLocalChain()]);
  proxy = await startRpcProxy(node.url);
  vault = await vaultOnChain(node.url);
  await seed(db());
}, 60_000);
afterAll(async () => {
  await proxy.stop();
  await Promise.all([database.close(), node.stop()]);
});

/** Members m1, m2 (claiming with dev accounts 1 and 2) and m3 (no wallet); a project whose treasury is owed what the vault holds. */
async function seed(onDb: Db) {
  await onDb.insert(user).values(["own", "m1", "m2", "m3"].map((id) => ({ id, email: `${id}@example.com`, name: id })));
  await onDb.insert(project).values({ id: "p", slug: "p", name: "P" });
  await onDb.insert(projectMember).values({ projectId: "p", userId: "own", role: "owner" });
  await onDb.insert(walletAddress).values([1, 2].map((i) => ({ id: `w${i}`, userId: `m${i}`, address: DEV_ADDRESSES[i]!, chainId: 31337, isPrimary: true })));
  await credit({ db: onDb, key: "gift:own", kind: "credit", userId: "own", asset: Q, amount: VAULT_FUNDS });
  const funded = await fundProject({ db: onDb, projectId: "p", actorId: "own", input: { asset: Q, amount: VAULT_FUNDS, requestKey: "fund" } });
  if (!funded.ok) throw new Error("the treasury was not funded");
}

const errors: unknown[] = [];
afterEach(() => {
  expect(errors.splice(0), "the job reported errors this test did not expect").toEqual([]);
});
const chains = (url = node.url) => roundChainsOf(localRegistry({ url, contracts: vault.addresses }));
const job = (at: Date, url?: string, onDb: Db = db()) => followedRounds({ db: onDb, chains: chains(url), now: at, onError: (_, error) => errors.push(error) });
const roundOf = async (airdropId: string, onDb: Db = db()) => (await onDb.select().from(airdropRound).where(eq(airdropRound.airdropId, airdropId)))[0];
const distributor = () => vault.addresses.AirdropDistributor;
const readDistributor = <F extends "roundCount" | "round">(functionName: F, args?: readonly [bigint]) =>
  vault.publicClient.readContract({ address: distributor(), abi: airdropDistributorAbi, functionName, args } as never) as Promise<
    F extends "roundCount" ? bigint : { total: bigint; claimed: bigint; swept: boolean }
  >;
const tokenBalance = (account: Address) =>
  vault.publicClient.readContract({ address: vault.addresses.QuestToken, abi: questTokenAbi, functionName: "balanceOf", args: [account] });
const treasury = () => accountBalance({ db: db(), account: projectTreasury("p"), asset: Q });

const chainNow = async () => new Date(Number((await vault.publicClient.getBlock()).timestamp) * 1000);

/**
 * A published pro_rata airdrop of `total` QUEST that ended at the chain's present time `at`
 * (tests move the chain's clock), m1 / m2 / m3 with 60 / 30 / 10 points; frozen.
 */
async function frozenAirdrop(slug: string, total: string, onDb: Db = db()) {
  const at = await chainNow();
  const data = new FormData();
  const iso = (days: number) => new Date(at.getTime() + days * DAY).toISOString();
  for (const [key, value] of Object.entries({
    name: slug,
    slug,
    asset: Q,
    rule: "pro_rata",
    total,
    startsAt: iso(-3),
    endsAt: iso(-1),
    claimDeadline: iso(7),
    published: "on",
  })) {
    data.set(key, value);
  }
  const parsed = parseForm(airdropSchema, data);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  // Saved before it started (the form refuses to edit an ended airdrop), so it is dated back.
  const saved = await saveAirdrop({ db: onDb, projectId: "p", input: parsed.data, distributorChains: new Set([31337]), now: new Date(at.getTime() - 4 * DAY) });
  if (!saved.ok) throw new Error("not saved");
  const id = saved.airdrop.id;
  for (const [userId, points] of [
    ["m1", 60],
    ["m2", 30],
    ["m3", 10],
  ] as const) {
    await addBoardPoints({ db: onDb, board: airdropBoard(id), userId, points, at: new Date(at.getTime() - 2 * DAY) });
  }
  const frozen = await freezeAirdrop({ db: onDb, airdropId: id, now: at });
  return { id, frozen: frozen!, at };
}

/** Runs the job until the round is open (each step is mined at once by anvil's automine). */
async function openRound(airdropId: string, at: Date) {
  for (let run = 0; run < 6 && (await roundOf(airdropId))?.step !== "open"; run++) await job(at);
  const round = await roundOf(airdropId);
  expect(round).toMatchObject({ step: "open", failure: null });
  return round!;
}

const claimer = (index: number) => createWalletClient({ chain: anvil, transport: http(node.url), account: privateKeyToAccount(DEV_PRIVATE_KEYS[index]!) });
async function claimArgs(airdropId: string, userId: string, roundId: number) {
  const claim = (await airdropClaimOf({ db: db(), airdropId, userId }))!;
  return [BigInt(roundId), BigInt(claim.leaf!), claim.account!, claim.amount, claim.proof!] as const;
}
const simulateClaim = (args: readonly [bigint, bigint, Address, bigint, readonly Hex[]]) =>
  vault.publicClient.simulateContract({ address: distributor(), abi: airdropDistributorAbi, functionName: "claim", args, account: DEV_ADDRESSES[5] });
const claimCursor = async () => (await db().select().from(chainEventCursor).where(eq(chainEventCursor.subscription, CLAIM_SUBSCRIPTION)))[0];
const scan = () => scanClaims({ db: db(), chainId: 31337, client: vault.publicClient, distributor: distributor(), confirmations: 1 });

describe("an airdrop's round on the local chain", () => {
  it("is funded from the vault, opened with the frozen root, claimed once per member, and its rest swept back to the treasury", async () => {
    const { id, frozen, at } = await frozenAirdrop("season", "100");
    // m3 (10 points, no wallet) is not in the tree: their 10 QUEST went back to the treasury at the freeze.
    expect(frozen).toMatchObject({ leaves: 2, claimable: parseEther("90"), unclaimable: parseEther("10") });
    expect(await accountBalance({ db: db(), account: airdropEscrow(id), asset: Q })).toBe(parseEther("90"));
    expect(await treasury()).toBe(VAULT_FUNDS - parseEther("90"));

    const roundsBefore = await readDistributor("roundCount");
    const round = await openRound(id, at);
    expect(await readDistributor("roundCount")).toBe(roundsBefore + 1n);
    expect(round.roundId).toBe(Number(roundsBefore));
    expect(await readDistributor("round", [BigInt(round.roundId!)])).toMatchObject({ total: parseEther("90"), claimed: 0n, swept: false });
    // The escrow left the vault for the distributor: the ledger and the chain agree.
    expect(await accountBalance({ db: db(), account: airdropEscrow(id), asset: Q })).toBe(0n);
    expect(await tokenBalance(vault.addresses.DepositVault)).toBe(VAULT_FUNDS - parseEther("90"));
    expect(await tokenBalance(distributor())).toBe(parseEther("90"));
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
    // More runs change nothing: one round.
    await job(at);
    await job(at);
    expect(await readDistributor("roundCount")).toBe(roundsBefore + 1n);

    // m1 claims (anyone may submit it); the scanner records it once.
    const m1 = await claimArgs(id, "m1", round.roundId!);
    const before = await tokenBalance(DEV_ADDRESSES[1]);
    await vault.publicClient.waitForTransactionReceipt({
      hash: await claimer(1).writeContract({ address: distributor(), abi: airdropDistributorAbi, functionName: "claim", args: m1 }),
    });
    expect(await tokenBalance(DEV_ADDRESSES[1])).toBe(before + parseEther("60"));
    expect(await claimableShareOf({ db: db(), airdropId: id, userId: "m1", round: await roundView({ db: db(), airdropId: id }) })).toMatchObject({
      leaf: Number(m1[1]),
      amount: parseEther("60").toString(),
    });
    expect(await scan()).toBe(1);
    expect(await scan()).toBe(0);
    // Claimed: m1 has no Claim button any more; m2 still has.
    const view = await roundView({ db: db(), airdropId: id });
    expect(await claimableShareOf({ db: db(), airdropId: id, userId: "m1", round: view })).toBeNull();
    expect(await claimableShareOf({ db: db(), airdropId: id, userId: "m2", round: view })).toMatchObject({ account: DEV_ADDRESSES[2], roundId: round.roundId });
    expect(await claimableShareOf({ db: db(), airdropId: id, userId: "m3", round: view })).toBeNull();
    expect(await db().select().from(airdropClaim).where(eq(airdropClaim.airdropId, id))).toMatchObject([
      { leaf: m1[1] === 0n ? 0 : 1, account: DEV_ADDRESSES[1], amount: parseEther("60") },
    ]);

    // The local chain started afresh under a kept database: its cursor is past the head, and it reads again from the start, recording nothing twice.
    await db().update(chainEventCursor).set({ nextBlock: 1_000_000_000 }).where(eq(chainEventCursor.subscription, CLAIM_SUBSCRIPTION));
    expect(await scan()).toBe(0);
    expect((await claimCursor())!.nextBlock).toBe(1_000_000_000);
    expect(await scanClaims({ db: db(), chainId: 31337, client: vault.publicClient, distributor: distributor(), confirmations: 1, rescanIfBehind: true })).toBe(
      0,
    );
    expect((await claimCursor())!.nextBlock).toBe(Number(await vault.publicClient.getBlockNumber()) + 1);
    expect(await db().select().from(airdropClaim).where(eq(airdropClaim.airdropId, id))).toHaveLength(1);
    // The outbox heard of each step once: frozen, claimable when the round opened, m1's claim (with the member whose share it is).
    const told = await db()
      .select({ type: appEvent.type, projectId: appEvent.projectId, data: appEvent.data })
      .from(appEvent)
      .where(sql`${appEvent.data}->>'airdropId' = ${id}`)
      .orderBy(appEvent.id);
    expect(told).toMatchObject([
      { type: "airdrop.frozen", projectId: "p", data: { members: 3, total: parseEther("100").toString(), asset: Q } },
      { type: "airdrop.claimable", projectId: "p", data: { title: expect.any(String), claimDeadline: expect.any(String) } },
      { type: "airdrop.claimed", projectId: "p", data: { userId: "m1", address: DEV_ADDRESSES[1], amount: parseEther("60").toString() } },
    ]);

    // Twice, a proof for another amount, and the sweep before the deadline: refused.
    await expect(simulateClaim(m1)).rejects.toThrow(/AlreadyClaimed/);
    const m2 = await claimArgs(id, "m2", round.roundId!);
    await expect(simulateClaim([m2[0], m2[1], m2[2], m2[3] + 1n, m2[4]])).rejects.toThrow(/InvalidProof/);
    const chainTime = async () => (await vault.publicClient.getBlock()).timestamp;
    expect(await requestSweep({ db: db(), airdropId: id, actorId: "own", chainTime: await chainTime() })).toEqual({ ok: false, reason: "still_open" });

    // After the deadline: m2's claim is refused; the owner asks for the rest, the job sweeps it into the vault.
    await rpc(node.url, "evm_setNextBlockTimestamp", [round.deadline]);
    await rpc(node.url, "evm_mine");
    await expect(simulateClaim(m2)).rejects.toThrow(/ClaimWindowClosed/);
    expect(await requestSweep({ db: db(), airdropId: id, actorId: "own", chainTime: await chainTime() })).toEqual({ ok: true });
    expect(await requestSweep({ db: db(), airdropId: id, actorId: "own", chainTime: await chainTime() })).toEqual({ ok: false, reason: "not_open" });
    const afterDeadline = new Date(round.deadline * 1000 + 1000);
    await job(afterDeadline);
    await job(afterDeadline);
    expect(await roundOf(id)).toMatchObject({ step: "swept", swept: parseEther("30"), sweepRequestedBy: "own" });
    expect(await readDistributor("round", [BigInt(round.roundId!)])).toMatchObject({ swept: true });
    expect(await tokenBalance(vault.addresses.DepositVault)).toBe(VAULT_FUNDS - parseEther("60"));
    expect(await treasury()).toBe(VAULT_FUNDS - parseEther("60"));
    // What left the vault and did not come back: m1's claim.
    expect(await platformBalance({ db: db(), name: "onchain", asset: Q })).toBe(parseEther("60"));
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
    await job(afterDeadline);
    expect(await treasury()).toBe(VAULT_FUNDS - parseEther("60"));

    // Swept, nothing is left to watch: neither the round job nor the claim scanner asks the node anything.
    const asked: string[] = [];
    proxy.setRule((method) => (asked.push(method), "forward"));
    try {
      await job(afterDeadline, proxy.url);
      expect(await scanClaims({ db: db(), chainId: 31337, client: chains(proxy.url).get(31337)!.client, distributor: distributor(), confirmations: 1 })).toBe(
        0,
      );
    } finally {
      proxy.setRule(() => "forward");
    }
    expect(asked, "requests to the node with no round to watch").toEqual([]);
  });

  it("is not opened when claims would close too soon: its tokens go back to the treasury", async () => {
    const before = await treasury();
    const { id } = await frozenAirdrop("late", "50");
    const [row] = await db().select().from(airdrop).where(eq(airdrop.id, id));
    await job(new Date(row!.claimDeadline.getTime() - 60_000));
    expect(await roundOf(id)).toMatchObject({ step: "failed", failure: TOO_LATE });
    expect(await treasury()).toBe(before);
    expect(await accountBalance({ db: db(), account: airdropEscrow(id), asset: Q })).toBe(0n);
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });

  it("waits, reporting why in words, while the vault is paused, and is funded once it runs", async () => {
    const { id, at } = await frozenAirdrop("paused", "20");
    await vault.setVaultPaused(true);
    try {
      await job(at);
      expect(await roundOf(id)).toMatchObject({ step: "funding", txHash: null, failure: expect.stringContaining("The vault is paused") });
    } finally {
      await vault.setVaultPaused(false);
    }
    await openRound(id, at);
  });

  it("after the node lost the opening's transaction, broadcasts the stored one again: one round", async () => {
    const { id, at } = await frozenAirdrop("lost", "20");
    await job(at);
    expect(await roundOf(id)).toMatchObject({ step: "funding", txHash: expect.any(String) });
    const roundsBefore = await readDistributor("roundCount");
    // The next run records the funding, signs and stores the opening, and the node never gets it.
    proxy.setRule((method) => (method === "eth_sendRawTransaction" ? "drop-before" : "forward"));
    await job(at, proxy.url);
    proxy.setRule(() => "forward");
    const stored = await roundOf(id);
    expect(stored).toMatchObject({ step: "opening", txHash: expect.any(String), roundId: null });
    expect(await readDistributor("roundCount")).toBe(roundsBefore);
    await job(at);
    // The stored opening, broadcast again, is mined (the node mines it just after taking it).
    await vault.publicClient.waitForTransactionReceipt({ hash: stored!.txHash as Hex });
    expect(await readDistributor("roundCount")).toBe(roundsBefore + 1n);
    // m1 claims before the opening is recorded: the scanner waits for it rather than skip the claim.
    const m1 = await claimArgs(id, "m1", Number(roundsBefore));
    await vault.publicClient.waitForTransactionReceipt({
      hash: await claimer(1).writeContract({ address: distributor(), abi: airdropDistributorAbi, functionName: "claim", args: m1 }),
    });
    expect(await scan()).toBe(0);
    await job(at);
    expect(await roundOf(id)).toMatchObject({ step: "open", roundId: Number(roundsBefore), openTxHash: stored!.txHash });
    expect(await readDistributor("roundCount")).toBe(roundsBefore + 1n);
    expect(await scan()).toBe(1);
    expect(await db().select().from(airdropClaim).where(eq(airdropClaim.airdropId, id))).toMatchObject([
      { account: DEV_ADDRESSES[1], amount: parseEther("12") },
    ]);
  });
});

describe("a chain started afresh under a kept database", () => {
  it("sets aside the rounds made on its earlier run: no Claim, no scanning; a new round is made on the new one", async () => {
    const { id: opened, at } = await frozenAirdrop("earlier-run", "10");
    await openRound(opened, at);
    expect((await roundOf(opened))!.genesisHash).toBe((await vault.publicClient.getBlock({ blockNumber: 0n })).hash);
    // A round from before the chain was recorded is checked on the distributor: it is there, and takes the chain's hash.
    await db().update(airdropRound).set({ genesisHash: null }).where(eq(airdropRound.airdropId, opened));
    await job(at);
    expect(await roundOf(opened)).toMatchObject({ step: "open", genesisHash: (await vault.publicClient.getBlock({ blockNumber: 0n })).hash });

    const fresh = await startLocalChain();
    try {
      const freshVault = await vaultOnChain(fresh.url);
      const freshChains = roundChainsOf(localRegistry({ url: fresh.url, contracts: freshVault.addresses }));
      expect(freshVault.addresses, "the same contracts, deployed afresh").toEqual(vault.addresses);
      const summary = await followedRounds({ db: db(), chains: freshChains, now: at, onError: (_, error) => errors.push(error) });
      expect(summary.previousChain).toBeGreaterThanOrEqual(1);
      expect(await roundOf(opened)).toMatchObject({ step: "previous_chain", failure: PREVIOUS_CHAIN });
      const view = await roundView({ db: db(), airdropId: opened });
      expect(view).toMatchObject({ step: "previous_chain" });
      expect(await claimableShareOf({ db: db(), airdropId: opened, userId: "m1", round: view })).toBeNull();
      const live = await db()
        .select()
        .from(airdropRound)
        .where(inArray(airdropRound.step, ["funding", "approving", "opening", "open", "sweeping"]));
      expect(live, "every round of the earlier run is set aside").toEqual([]);
      const fresh31337 = freshChains.get(31337)!;
      expect(
        await scanClaims({ db: db(), chainId: 31337, client: fresh31337.client, distributor: fresh31337.contracts.AirdropDistributor, confirmations: 1 }),
      ).toBe(0);

      // An airdrop frozen now gets its round on the chain running now.
      const { id: next } = await frozenAirdrop("this-run", "5");
      for (let run = 0; run < 6 && (await roundOf(next))?.step !== "open"; run++) {
        await job(at, fresh.url);
      }
      expect(await roundOf(next)).toMatchObject({ step: "open", genesisHash: (await freshVault.publicClient.getBlock({ blockNumber: 0n })).hash });
    } finally {
      await fresh.stop();
    }
  });
});

describe("the server process is killed (SIGKILL) between signing the round's opening and recording it", () => {
  it("finds the round on chain after the restart and records it: one round, the ledger whole", { timeout: KILL_TEST_TIMEOUT_MS }, async () => {
    const shared = await sharedDatabase(database, { applicationName: "questline-round-child" });
    let running: JobChild | null = null;
    try {
      if (shared.db !== db()) await seed(shared.db);
      const { id, at } = await frozenAirdrop("killed", "40", shared.db);
      // Funded here; the child then records the funding and signs the opening.
      await job(at, undefined, shared.db);
      expect(await roundOf(id, shared.db)).toMatchObject({ step: "funding", txHash: expect.any(String) });
      const roundsBefore = await readDistributor("roundCount");
      await shared.handOver();
      await rpc(node.url, "evm_setAutomine", [false]);
      proxy.setRule((method) => (method === "eth_sendRawTransaction" ? "hold" : "forward"));
      const child = startJobChild("tests/setup/round-child.ts", {
        ...shared.env,
        CHILD_RPC_URL: proxy.url,
        CHILD_NOW: at.toISOString(),
        CHILD_CONTRACTS: JSON.stringify(vault.addresses),
      });
      running = child;
      await child.stopsWhen(async () => {
        const [pending, mined] = await Promise.all([
          vault.publicClient.getTransactionCount({ address: DEV_ADDRESSES[9], blockTag: "pending" }),
          vault.publicClient.getTransactionCount({ address: DEV_ADDRESSES[9] }),
        ]);
        expect(pending).toBe(mined + 1);
      });
      expect(await child.kill()).toBe("SIGKILL");
      expect(child.output()).not.toContain("job done");
      proxy.setRule(() => "forward");
      await rpc(node.url, "evm_mine");
      await rpc(node.url, "evm_setAutomine", [true]);

      const back = await shared.takeBack();
      expect(await roundOf(id, back)).toMatchObject({ step: "opening", roundId: null });
      await job(at, undefined, back);
      await job(at, undefined, back);
      expect(await roundOf(id, back)).toMatchObject({ step: "open", roundId: Number(roundsBefore) });
      expect(await readDistributor("roundCount")).toBe(roundsBefore + 1n);
      await job(at, undefined, back);
      expect(await readDistributor("roundCount")).toBe(roundsBefore + 1n);
      expect(await checkLedger({ db: back })).toEqual(CLEAN);
    } finally {
      // A failing run must not leave the job process behind.
      running?.stop();
      await rpc(node.url, "evm_setAutomine", [true]);
      await shared.close();
    }
  });
});
