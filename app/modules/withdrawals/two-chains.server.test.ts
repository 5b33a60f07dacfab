// Questline on two local chains at once (31337 and 31338, tests/setup/two-chains.ts), as one server
// with both in its registry: deposits are credited in the asset of the chain they were made on,
// a withdrawal is paid by its own chain's vault only, one withdrawal job run over both chains
// signs each chain's payments in that chain's own nonce sequence, an airdrop round runs on the
// second chain, and a server killed (SIGKILL) between signing and recording on both chains pays
// each withdrawal once after its restart. The tests call the features' public entry points and
// read statuses, balances and the chains themselves.

import { eq } from "drizzle-orm";
import { createWalletClient, getAddress, http, parseEther, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import { airdropRound } from "#db/schema/airdrops";
import { project, projectMember } from "#db/schema/projects";
import { deposit, withdrawal } from "#db/schema/ledger";
import type { Database, Db } from "~/lib/db.server";
import { parseForm } from "~/lib/forms";
import { LOCAL_CHAIN_ID, SECOND_LOCAL_CHAIN_ID } from "~/lib/local-chain-id";
import { failureMessage } from "~/lib/result";
import { airdropSchema } from "~/modules/airdrops/airdrop.schema";
import { saveAirdrop } from "~/modules/airdrops/airdrops.server";
import { scanClaims } from "~/modules/airdrops/claims.server";
import { airdropBoard, airdropClaimOf, freezeAirdrop } from "~/modules/airdrops/freeze.server";
import { roundChainsOf } from "~/modules/airdrops/round.server";
import type { ChainRegistry } from "~/modules/chain/chain-registry.server";
import { depositRefOf } from "~/modules/deposits/deposit-refs.server";
import { scanDeposits } from "~/modules/deposits/scanner.server";
import { addBoardPoints } from "~/modules/leaderboards/leaderboards.server";
import { questAsset } from "~/modules/ledger/assets";
import { accountBalance, balanceOf, checkLedger, credit, platformBalance, projectTreasury } from "~/modules/ledger/ledger.server";
import { fundProject } from "~/modules/rewards/treasury.server";
import { localChainOf } from "~/wallet/chain-config";
import { KILL_TEST_TIMEOUT_MS, startJobChild, type JobChild } from "#tests/setup/job-child";
import { startRpcProxy, type RpcProxy } from "#tests/setup/rpc-proxy";
import { createTestDatabase, sharedDatabase } from "#tests/setup/test-db";
import { CHAIN_IDS, startTwoChains, type ChainUnderTest, type TwoChains } from "#tests/setup/two-chains";
import { form, fundedMember, rpc } from "#tests/setup/withdrawal-chain";
import { withdrawalChainsOf } from "./withdrawal-chain.server";
import { followedRounds, followedWithdrawals } from "#tests/setup/outbox-runs";
import { requestWithdrawal, withdrawalLimits } from "./withdrawals.server";

const A = LOCAL_CHAIN_ID;
const B = SECOND_LOCAL_CHAIN_ID;
const QA = questAsset(A);
const QB = questAsset(B);
const DAY = 86_400_000;
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };
const OPERATOR = DEV_ADDRESSES[9];
const limits = withdrawalLimits({ WITHDRAWAL_MIN: "1", WITHDRAWAL_DAILY_LIMIT: "1000", WITHDRAWAL_FEE: "1" });
const FEE = parseEther("1");
const t = (n: number) => parseEther(String(n));

let database: Database;
let two: TwoChains;
const db = () => database.db;
const on = (chainId: number): ChainUnderTest => two.of(chainId);
/**
 * The registry of a server on both chains, built afresh for each job run: a registry's clients keep
 * the head they read for a few seconds, and these tests do not wait on the clock for a new one.
 */
const registry = () => two.registry();

beforeAll(async () => {
  [database, two] = await Promise.all([createTestDatabase(), startTwoChains()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([database?.close(), two?.stop()]);
});

const jobErrors: unknown[] = [];
afterEach(() => {
  expect(jobErrors.splice(0), "the jobs reported errors this test did not expect").toEqual([]);
});

/** One withdrawal job run over both chains, each chain's job at the same time (as the server's per-chain jobs run). */
const withdrawalJob = (onDb: Db = db(), chains: ChainRegistry = registry()) =>
  Promise.all(
    [...withdrawalChainsOf(chains)].map(([chainId, chain]) =>
      followedWithdrawals({ db: onDb, chains: new Map([[chainId, chain]]), onError: (id, error) => void jobErrors.push({ id, error }) }),
    ),
  );
/** One withdrawal job run given both chains at once. */
const oneJobOverBoth = (onDb: Db = db()) =>
  followedWithdrawals({ db: onDb, chains: withdrawalChainsOf(registry()), onError: (id, error) => void jobErrors.push({ id, error }) });
const depositScan = (chainId: number, onDb: Db = db()) => {
  const { vault } = on(chainId);
  return scanDeposits({ db: onDb, chainId, client: vault.publicClient, vault: vault.addresses.DepositVault, asset: vault.asset, confirmations: 1 });
};
const rowOf = async (id: string, onDb: Db = db()) => (await onDb.select().from(withdrawal).where(eq(withdrawal.id, id)))[0]!;
const balanceIn = async (userId: string, asset: `${string}:${number}`, onDb: Db = db()) =>
  (await balanceOf({ db: onDb, userId, asset }))[0] ?? { asset, available: 0n, held: 0n };
const vaultHolds = (chainId: number) => on(chainId).vault.tokenBalance(on(chainId).vault.addresses.DepositVault);
/** How many times each chain's vault paid withdrawal `id`. */
const paymentsOf = async (id: string) =>
  Object.fromEntries(
    await Promise.all(
      CHAIN_IDS.map(async (chainId) => [
        chainId,
        (await on(chainId).vault.vaultEvents()).withdrawn.filter((e) => e.args.withdrawalId.toLowerCase() === id).length,
      ]),
    ),
  ) as Record<number, number>;

async function requested(onDb: Db, userId: string, to: Address, amount: bigint, asset: `${string}:${number}`) {
  const result = await requestWithdrawal({ db: onDb, userId, input: form(to, amount, undefined, asset), limits });
  if (!result.ok) throw new Error(failureMessage(result));
  return result.id;
}

/** Runs the job over both chains until every given withdrawal is confirmed (each run mines at once: automine). */
async function settle(ids: string[], onDb: Db = db()) {
  for (let run = 0; run < 5; run++) {
    await withdrawalJob(onDb);
    const rows = await Promise.all(ids.map((id) => rowOf(id, onDb)));
    if (rows.every((row) => row.status === "confirmed")) return;
  }
  expect(await Promise.all(ids.map(async (id) => (await rowOf(id, onDb)).status))).toEqual(ids.map(() => "confirmed"));
}

describe("deposits on two chains", () => {
  it("are credited in the asset of the chain they were made on, each chain's scan reading its own vault only", async () => {
    // Dev account 2 holds QUEST on both chains (each deployment funds the dev accounts).
    const { userId } = await fundedMember(db(), "depositor", 0n, DEV_ADDRESSES[2]);
    const ref = await depositRefOf({ db: db(), userId });
    for (const [chainId, amount] of [
      [A, t(7)],
      [B, t(11)],
    ] as const) {
      await on(chainId).vault.approveVault(DEV_PRIVATE_KEYS[2], amount);
      expect(await on(chainId).vault.depositAs(DEV_PRIVATE_KEYS[2], amount, ref)).toBe("success");
    }
    await rpc(on(A).node.url, "evm_mine");
    await rpc(on(B).node.url, "evm_mine");

    // The first chain's scan credits its deposit alone, in its asset.
    expect(await depositScan(A)).toMatchObject({ seen: 1, credited: 1 });
    expect(await balanceOf({ db: db(), userId })).toEqual([{ asset: QA, available: t(7), held: 0n }]);
    expect(await depositScan(A)).toMatchObject({ seen: 0, credited: 0 });

    expect(await depositScan(B)).toMatchObject({ seen: 1, credited: 1 });
    expect(await balanceIn(userId, QA)).toEqual({ asset: QA, available: t(7), held: 0n });
    expect(await balanceIn(userId, QB)).toEqual({ asset: QB, available: t(11), held: 0n });
    const rows = await db().select().from(deposit).where(eq(deposit.userId, userId));
    expect(rows.map((row) => [row.chainId, row.asset, row.amount, row.status]).sort()).toEqual([
      [A, QA, t(7), "credited"],
      [B, QB, t(11), "credited"],
    ]);
    // What each chain's vault holds for the ledger is counted per chain.
    expect(await platformBalance({ db: db(), name: "onchain", asset: QA })).toBe(-t(7));
    expect(await platformBalance({ db: db(), name: "onchain", asset: QB })).toBe(-t(11));
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });
});

describe("withdrawals on two chains", () => {
  it("pay a withdrawal on the second chain from the balance credited there, by that chain's vault only", async () => {
    const wallet = privateKeyToAccount(toHex(0xb0b, { size: 32 })).address;
    const { userId } = await fundedMember(db(), "both", t(5), wallet, QA);
    await credit({ db: db(), key: "fund:both:B", kind: "reward", userId, asset: QB, amount: t(20) });
    // Each chain's balance is its own: 12 on the first chain is more than its 5.
    const refused = await requestWithdrawal({ db: db(), userId, input: form(wallet, t(12), undefined, QA), limits });
    expect(refused.ok ? "accepted" : failureMessage(refused)).toBe("You do not have enough available balance.");

    const before = { A: await vaultHolds(A), B: await vaultHolds(B), eventsA: (await on(A).vault.vaultEvents()).withdrawn.length };
    const id = await requested(db(), userId, wallet, t(12), QB);
    expect(await rowOf(id)).toMatchObject({ chainId: B, asset: QB, status: "requested" });
    expect(await balanceIn(userId, QB)).toEqual({ asset: QB, available: t(8), held: t(12) });
    await settle([id]);

    expect(await on(B).vault.paid(id)).toBe(true);
    expect(await on(A).vault.paid(id)).toBe(false);
    expect(await paymentsOf(id)).toEqual({ [A]: 0, [B]: 1 });
    expect(await vaultHolds(B)).toBe(before.B - (t(12) - FEE));
    expect(await vaultHolds(A)).toBe(before.A);
    expect((await on(A).vault.vaultEvents()).withdrawn).toHaveLength(before.eventsA);
    expect(await on(B).vault.tokenBalance(wallet)).toBe(t(12) - FEE);
    expect(await on(A).vault.tokenBalance(wallet)).toBe(0n);
    expect(await balanceIn(userId, QB)).toEqual({ asset: QB, available: t(8), held: 0n });
    expect(await balanceIn(userId, QA)).toEqual({ asset: QA, available: t(5), held: 0n });
    expect(await platformBalance({ db: db(), name: "withdrawals_in_flight", asset: QB })).toBe(0n);
    expect(await platformBalance({ db: db(), name: "fees", asset: QB })).toBe(FEE);
    expect(await platformBalance({ db: db(), name: "fees", asset: QA })).toBe(0n);
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });

  it("one job run over both chains signs each chain's withdrawals in that chain's own nonce sequence", async () => {
    // The operator's next nonce differs between the chains, so a shared sequence could not pass for two.
    const start = Number(await on(A).vault.publicClient.getTransactionCount({ address: OPERATOR })) + 37;
    await rpc(on(B).node.url, "anvil_setNonce", [OPERATOR, toHex(start)]);
    const nonces = { A: await on(A).vault.publicClient.getTransactionCount({ address: OPERATOR }), B: start };
    const members = await Promise.all(
      [0, 1].map(async (i) => {
        const wallet = privateKeyToAccount(toHex(0xc0 + i, { size: 32 })).address;
        const member = await fundedMember(db(), `nonces-${i}`, t(10), wallet, QA);
        await credit({ db: db(), key: `fund:nonces-${i}:B`, kind: "reward", userId: member.userId, asset: QB, amount: t(10) });
        return member;
      }),
    );
    const ids = { A: [] as string[], B: [] as string[] };
    for (const { userId, wallet } of members) {
      ids.A.push(await requested(db(), userId, wallet, t(3), QA));
      ids.B.push(await requested(db(), userId, wallet, t(4), QB));
    }

    const summary = await oneJobOverBoth();
    expect(summary.sent).toBe(4);
    for (const [chainId, own, from] of [
      [A, ids.A, nonces.A],
      [B, ids.B, nonces.B],
    ] as const) {
      const { vault } = on(chainId);
      const paid = (await vault.vaultEvents()).withdrawn.filter((e) => [...ids.A, ...ids.B].includes(e.args.withdrawalId.toLowerCase()));
      // Each chain paid its own two withdrawals and none of the other's.
      expect(paid.map((e) => e.args.withdrawalId.toLowerCase()).sort()).toEqual([...own].sort());
      const sent = await Promise.all(paid.map((e) => vault.publicClient.getTransaction({ hash: e.transactionHash })));
      expect(sent.map((tx) => [getAddress(tx.from), tx.chainId])).toEqual(sent.map(() => [OPERATOR, chainId]));
      expect(sent.map((tx) => tx.nonce).sort((a, b) => a - b)).toEqual([from, from + 1]);
      expect(await vault.publicClient.getTransactionCount({ address: OPERATOR })).toBe(from + 2);
    }
    await settle([...ids.A, ...ids.B]);
    for (const id of ids.A) expect(await paymentsOf(id)).toEqual({ [A]: 1, [B]: 0 });
    for (const id of ids.B) expect(await paymentsOf(id)).toEqual({ [A]: 0, [B]: 1 });
    for (const { userId } of members) {
      expect(await balanceIn(userId, QA)).toEqual({ asset: QA, available: t(7), held: 0n });
      expect(await balanceIn(userId, QB)).toEqual({ asset: QB, available: t(6), held: 0n });
    }
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });
});

describe("an airdrop round on the second chain", () => {
  it("is funded from the second chain's vault, opened and claimed there; the first chain's distributor is untouched", async () => {
    const { vault, node } = on(B);
    const distributor = vault.addresses.AirdropDistributor;
    const roundCount = (chainId: number) =>
      on(chainId).vault.publicClient.readContract({
        address: on(chainId).vault.addresses.AirdropDistributor,
        abi: airdropDistributorAbi,
        functionName: "roundCount",
      });
    // A project whose QUEST:31338 treasury the second vault backs; members with wallets (dev accounts 5 and 6) and points.
    const { userId: owner } = await fundedMember(db(), "drop-owner", 0n);
    await credit({ db: db(), key: "gift:drop-owner", kind: "credit", userId: owner, asset: QB, amount: t(500) });
    await db().insert(project).values({ id: "pb", slug: "pb", name: "On B" });
    await db().insert(projectMember).values({ projectId: "pb", userId: owner, role: "owner" });
    const funded = await fundProject({ db: db(), projectId: "pb", actorId: owner, input: { asset: QB, amount: t(500), requestKey: "fund-b" } });
    expect(funded.ok).toBe(true);
    const m1 = await fundedMember(db(), "drop-m1", 0n, DEV_ADDRESSES[5]);
    const m2 = await fundedMember(db(), "drop-m2", 0n, DEV_ADDRESSES[6]);

    const at = new Date(Number((await vault.publicClient.getBlock()).timestamp) * 1000);
    const iso = (days: number) => new Date(at.getTime() + days * DAY).toISOString();
    const data = new FormData();
    for (const [key, value] of Object.entries({
      name: "On B",
      slug: "on-b",
      asset: QB,
      rule: "pro_rata",
      total: "100",
      startsAt: iso(-3),
      endsAt: iso(-1),
      claimDeadline: iso(7),
      published: "on",
    }))
      data.set(key, value);
    const parsed = parseForm(airdropSchema, data);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    // The second chain is where the distributor is; the first chain's token would be refused for want of it there.
    const saved = await saveAirdrop({ db: db(), projectId: "pb", input: parsed.data, distributorChains: new Set([B]), now: new Date(at.getTime() - 4 * DAY) });
    if (!saved.ok) throw new Error("not saved");
    const airdropId = saved.airdrop.id;
    for (const [userId, points] of [
      [m1.userId, 75],
      [m2.userId, 25],
    ] as const)
      await addBoardPoints({ db: db(), board: airdropBoard(airdropId), userId, points, at: new Date(at.getTime() - 2 * DAY) });
    expect(await freezeAirdrop({ db: db(), airdropId, now: at })).toMatchObject({ leaves: 2, claimable: t(100) });

    const [countA, countB, vaultA, vaultB] = [await roundCount(A), await roundCount(B), await vaultHolds(A), await vaultHolds(B)];
    const distributorA = await on(A).vault.tokenBalance(on(A).vault.addresses.AirdropDistributor);
    const roundOf = async () => (await db().select().from(airdropRound).where(eq(airdropRound.airdropId, airdropId)))[0];
    expect([...roundChainsOf(registry()).keys()]).toEqual([A, B]);
    for (let run = 0; run < 6 && (await roundOf())?.step !== "open"; run++)
      await followedRounds({ db: db(), chains: roundChainsOf(registry()), now: at, onError: (_, error) => void jobErrors.push(error) });
    expect(await roundOf()).toMatchObject({ step: "open", failure: null });

    expect(await roundCount(B)).toBe(countB + 1n);
    expect(await vaultHolds(B)).toBe(vaultB - t(100));
    expect(await vault.tokenBalance(distributor)).toBe(t(100));
    expect(await accountBalance({ db: db(), account: projectTreasury("pb"), asset: QB })).toBe(t(400));
    // Nothing moved on the first chain.
    expect(await roundCount(A)).toBe(countA);
    expect(await vaultHolds(A)).toBe(vaultA);
    expect(await on(A).vault.tokenBalance(on(A).vault.addresses.AirdropDistributor)).toBe(distributorA);

    // m1 claims on the second chain; its claim scan records it once.
    const claim = (await airdropClaimOf({ db: db(), airdropId, userId: m1.userId }))!;
    const round = (await roundOf())!;
    const claimer = createWalletClient({ chain: localChainOf(B), transport: http(node.url), account: privateKeyToAccount(DEV_PRIVATE_KEYS[5]) });
    const before = await vault.tokenBalance(DEV_ADDRESSES[5]);
    const hash = await claimer.writeContract({
      address: distributor,
      abi: airdropDistributorAbi,
      functionName: "claim",
      args: [BigInt(round.roundId!), BigInt(claim.leaf!), claim.account!, claim.amount, claim.proof! as Hex[]],
    });
    expect((await vault.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await vault.tokenBalance(DEV_ADDRESSES[5])).toBe(before + t(75));
    const scanB = () => scanClaims({ db: db(), chainId: B, client: vault.publicClient, distributor, confirmations: 1 });
    expect(await scanB()).toBe(1);
    expect(await scanB()).toBe(0);
    // The first chain's distributor has no claim of it.
    expect(
      await scanClaims({ db: db(), chainId: A, client: on(A).vault.publicClient, distributor: on(A).vault.addresses.AirdropDistributor, confirmations: 1 }),
    ).toBe(0);
    expect(await checkLedger({ db: db() })).toEqual(CLEAN);
  });
});

describe("the server process is killed (SIGKILL) between signing and recording on both chains", () => {
  it("after the restart each chain's withdrawal is paid once, by its own vault, the ledger whole", { timeout: KILL_TEST_TIMEOUT_MS }, async () => {
    const shared = await sharedDatabase(database, { applicationName: "questline-two-chains-child" });
    const proxies: Record<number, RpcProxy> = {};
    let running: JobChild | null = null;
    try {
      const wallet = privateKeyToAccount(toHex(0xdead, { size: 32 })).address;
      const { userId } = await fundedMember(shared.db, "killed", t(10), wallet, QA);
      await credit({ db: shared.db, key: "fund:killed:B", kind: "reward", userId, asset: QB, amount: t(10) });
      const ids = { [A]: await requested(shared.db, userId, wallet, t(6), QA), [B]: await requested(shared.db, userId, wallet, t(7), QB) };
      await shared.handOver();
      const nodes = [];
      for (const chainId of CHAIN_IDS) {
        const proxy = await startRpcProxy(on(chainId).node.url);
        proxies[chainId] = proxy;
        await rpc(on(chainId).node.url, "evm_setAutomine", [false]);
        // Each node takes its transaction; its answer never reaches the process.
        proxy.setRule((method) => (method === "eth_sendRawTransaction" ? "hold" : "forward"));
        nodes.push({ chainId, rpcUrl: proxy.url, vault: on(chainId).vault.addresses.DepositVault });
      }
      const child = startJobChild("tests/setup/withdrawal-child.ts", { ...shared.env, CHILD_CHAINS: JSON.stringify(nodes) });
      running = child;
      await child.stopsWhen(async () => {
        for (const chainId of CHAIN_IDS) {
          const client = on(chainId).vault.publicClient;
          const [pending, mined] = await Promise.all([
            client.getTransactionCount({ address: OPERATOR, blockTag: "pending" }),
            client.getTransactionCount({ address: OPERATOR }),
          ]);
          expect(pending, `chain ${chainId}: the operator's transaction waits in the pool`).toBe(mined + 1);
        }
      });
      expect(await child.kill()).toBe("SIGKILL");
      expect(child.output()).not.toContain("job done");
      for (const chainId of CHAIN_IDS) {
        proxies[chainId]!.setRule(() => "forward");
        await rpc(on(chainId).node.url, "evm_mine");
        await rpc(on(chainId).node.url, "evm_setAutomine", [true]);
      }

      const back = await shared.takeBack();
      for (const chainId of CHAIN_IDS) {
        // Paid on its chain, still `sending` in the rows: the process died before it could record the send.
        expect(await rowOf(ids[chainId]!, back)).toMatchObject({ status: "sending", chainId });
        expect(await paymentsOf(ids[chainId]!)).toEqual({ [A]: chainId === A ? 1 : 0, [B]: chainId === B ? 1 : 0 });
      }
      await settle([ids[A]!, ids[B]!], back);
      await withdrawalJob(back);
      for (const chainId of CHAIN_IDS) {
        expect(await paymentsOf(ids[chainId]!)).toEqual({ [A]: chainId === A ? 1 : 0, [B]: chainId === B ? 1 : 0 });
        expect(await on(chainId).vault.tokenBalance(wallet)).toBe((chainId === A ? t(6) : t(7)) - FEE);
        expect(await platformBalance({ db: back, name: "withdrawals_in_flight", asset: questAsset(chainId) })).toBe(0n);
      }
      expect(await balanceIn(userId, QA, back)).toEqual({ asset: QA, available: t(4), held: 0n });
      expect(await balanceIn(userId, QB, back)).toEqual({ asset: QB, available: t(3), held: 0n });
      expect(await checkLedger({ db: back })).toEqual(CLEAN);
    } finally {
      // A failing run must not leave the job process behind, nor a node without automine.
      running?.stop();
      for (const chainId of CHAIN_IDS) await rpc(on(chainId).node.url, "evm_setAutomine", [true]);
      await Promise.all(Object.values(proxies).map((proxy) => proxy.stop()));
      await shared.close();
    }
  });
});
