import { eq, like } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { parseEther, parseEventLogs, parseGwei, zeroHash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { testStablecoinAbi } from "#contracts/generated/test-stablecoin";
import { withdrawal } from "#db/schema/ledger";
import { appEvent } from "#db/schema/reach";
import type { Database } from "~/lib/db.server";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { balanceOf, checkLedger, platformBalance } from "~/modules/ledger/ledger.server";
import { createTestDatabase } from "#tests/setup/test-db";
import { form, fundedMember, Q, rpc, vaultOnChain, type VaultOnChain } from "#tests/setup/withdrawal-chain";
import { assetOf } from "~/modules/ledger/assets";
import { TOKEN_NOT_LISTED, type WithdrawalChain } from "./withdrawal-chain.server";
import { followedWithdrawals } from "#tests/setup/outbox-runs";
import { setWithdrawalsPaused } from "./withdrawal-pause.server";
import { cancelWithdrawal, listWithdrawals, requestWithdrawal, retryWithdrawal, withdrawalLimits } from "./withdrawals.server";
import { failureMessage } from "~/lib/result";

let database: Database;
let node: LocalChain;
let vault: VaultOnChain;
let chain: WithdrawalChain;
const limits = withdrawalLimits({ WITHDRAWAL_MIN: "1", WITHDRAWAL_DAILY_LIMIT: "1000", WITHDRAWAL_FEE: "0.5" });
const CLEAN = { unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 };

beforeAll(async () => {
  [database, node] = await Promise.all([createTestDatabase(), startLocalChain()]);
  vault = await vaultOnChain(node.url);
  chain = vault.chain();
}, 60_000);
afterAll(async () => {
  await Promise.all([database.close(), node.stop()]);
});

/** What the job reported as failed steps during the current test: a test that expects some takes them. */
const jobErrors: { id: string; error: unknown }[] = [];
const takeJobErrors = () => jobErrors.splice(0);
afterEach(() => {
  expect(takeJobErrors(), "the job reported errors this test did not expect").toEqual([]);
});
const run = (chains = new Map([[31337, chain]])) =>
  followedWithdrawals({ db: database.db, chains, onError: (id, error) => void jobErrors.push({ id, error }) });
const rowOf = async (id: string) => (await database.db.select().from(withdrawal).where(eq(withdrawal.id, id)))[0]!;
const balance = async (userId: string) => (await balanceOf({ db: database.db, userId, asset: Q }))[0];
const platform = (name: "withdrawals_in_flight" | "onchain" | "fees") => platformBalance({ db: database.db, name, asset: Q });

async function requested(userId: string, to: `0x${string}`, amount: bigint) {
  const result = await requestWithdrawal({ db: database.db, userId, input: form(to, amount), limits });
  if (!result.ok) throw new Error(failureMessage(result));
  return result.id;
}

describe("processWithdrawals", () => {
  it("pays a requested withdrawal once: sent, then confirmed with its confirmations, the ledger moved exactly", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "alice", parseEther("50"));
    const id = await requested(userId, wallet, parseEther("10"));
    const [onchainBefore, feesBefore] = [await platform("onchain"), await platform("fees")];
    const deep = new Map([[31337, vault.chain(undefined, { confirmations: 2 })]]);

    expect(await run(deep)).toEqual({ sent: 1, confirmed: 0, failed: 0, waiting: 0 });
    const sent = await rowOf(id);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, failure: null });
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sent.sentAt).toBeInstanceOf(Date);
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("40"), held: 0n });
    expect(await platform("withdrawals_in_flight")).toBe(parseEther("10"));

    // One block: one confirmation of two.
    expect((await run(deep)).confirmed).toBe(0);
    expect((await rowOf(id)).status).toBe("sent");
    await rpc(node.url, "evm_mine");
    expect((await run(deep)).confirmed).toBe(1);
    expect(await rowOf(id)).toMatchObject({ status: "confirmed", attempts: 1, txHash: sent.txHash });
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("9.5"));
    expect(await vault.paid(id)).toBe(true);
    expect(await platform("withdrawals_in_flight")).toBe(0n);
    expect((await platform("onchain")) - onchainBefore).toBe(parseEther("9.5"));
    expect((await platform("fees")) - feesBefore).toBe(parseEther("0.5"));

    expect(await run()).toEqual({ sent: 0, confirmed: 0, failed: 0, waiting: 0 });
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("9.5"));
    expect(await checkLedger({ db })).toEqual(CLEAN);
    expect(await cancelWithdrawal({ db, userId, id })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This withdrawal has been paid, so it cannot be cancelled." },
    });
  });

  it("fails an attempt the paused vault refuses, in words, keeping the amount held; a retry under the same id pays once", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "bob", parseEther("30"));
    await vault.setVaultPaused(true);
    const id = await requested(userId, wallet, parseEther("20"));
    try {
      expect((await run()).failed).toBe(1);
    } finally {
      await vault.setVaultPaused(false);
    }
    expect(await rowOf(id)).toMatchObject({
      status: "failed",
      failure: "The vault is paused, so nothing was paid. Retry once it runs again.",
      attempts: 0,
      txHash: null,
    });
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("10"), held: parseEther("20") });
    expect(await platform("withdrawals_in_flight")).toBe(0n);
    const [view] = await listWithdrawals({ db, userId });
    expect(view).toMatchObject({ status: "failed", canRetry: true, canCancel: true });

    expect(await retryWithdrawal({ db, userId, id })).toEqual({ ok: true });
    await run();
    await run();
    expect(await rowOf(id)).toMatchObject({ status: "confirmed", attempts: 1, failure: null });
    expect(await vault.paid(id)).toBe(true);
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("19.5"));
    await run();
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("19.5"));
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("10"), held: 0n });
    expect(await checkLedger({ db })).toEqual(CLEAN);
  });

  it("lets requests wait while operators pause withdrawals, or while a chain has no operator key, and sends them after", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "carol", parseEther("10"));
    await setWithdrawalsPaused({ db, paused: true, by: "op" });
    const id = await requested(userId, wallet, parseEther("5"));
    expect((await run()).waiting).toBe(1);
    expect(await rowOf(id)).toMatchObject({ status: "requested", waiting: true, attempts: 0, txHash: null });
    await setWithdrawalsPaused({ db, paused: false, by: "op" });

    expect((await run(new Map([[31337, vault.chain(undefined, { operator: false })]]))).waiting).toBe(1);
    expect(await rowOf(id)).toMatchObject({ status: "requested", waiting: true });

    expect(await run()).toMatchObject({ sent: 1, waiting: 0 });
    expect(await rowOf(id)).toMatchObject({ status: "sent", waiting: false });
    // A pause stops new payments, not the following of one already on the network.
    await setWithdrawalsPaused({ db, paused: true, by: "op" });
    expect(await run()).toMatchObject({ confirmed: 1, sent: 0 });
    await setWithdrawalsPaused({ db, paused: false, by: "op" });
    expect((await rowOf(id)).status).toBe("confirmed");
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("4.5"));
  });

  it("fails an attempt whose nonce another transaction took, returns it to held, and lets it be cancelled once nothing can land", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "dave", parseEther("10"));
    const id = await requested(userId, wallet, parseEther("3"));
    await rpc(node.url, "evm_setAutomine", [false]);
    let nonce: number;
    try {
      expect((await run()).sent).toBe(1);
      nonce = (await rowOf(id)).nonce!;
      // The operator's key sends something else with the same nonce, paying more: it replaces ours.
      const operator = vault.chain().operator!;
      expect(operator.account.address).toBe(chain.operator!.account.address);
      await operator.sendTransaction({
        to: operator.account.address,
        value: 0n,
        nonce,
        gas: 21_000n,
        maxFeePerGas: parseGwei("500"),
        maxPriorityFeePerGas: parseGwei("100"),
      });
      // Not yet mined: the withdrawal may still land, so it cannot be cancelled.
      await db.update(withdrawal).set({ status: "failed" }).where(eq(withdrawal.id, id));
      expect((await cancelWithdrawal({ db, userId, id, chains: new Map([[31337, chain]]) })).ok).toBe(false);
      await db.update(withdrawal).set({ status: "sent" }).where(eq(withdrawal.id, id));
      await rpc(node.url, "evm_mine");
    } finally {
      await rpc(node.url, "evm_setAutomine", [true]);
    }
    expect((await run()).failed).toBe(1);
    const failed = await rowOf(id);
    expect(failed).toMatchObject({ status: "failed", nonce, attempts: 1 });
    expect(failed.failure).toBe("Another transaction used the operator's nonce, so this attempt can never be paid; nothing was paid. Retry to send it again.");
    expect(await vault.paid(id)).toBe(false);
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("7"), held: parseEther("3") });

    expect(await cancelWithdrawal({ db, userId, id })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This withdrawal cannot be cancelled yet: an earlier attempt may still be paid. Try again in a few minutes." },
    });
    expect(await cancelWithdrawal({ db, userId, id, chains: new Map([[31337, chain]]) })).toEqual({ ok: true });
    expect(await rowOf(id)).toMatchObject({ status: "cancelled" });
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("10"), held: 0n });
    await run();
    expect(await vault.paid(id)).toBe(false);
    expect(await checkLedger({ db })).toEqual(CLEAN);
  });

  it("returns an attempt the vault reverted on chain to held, in words; the retry signs anew and pays once", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "grace", parseEther("10"));
    const id = await requested(userId, wallet, parseEther("5"));
    await rpc(node.url, "evm_setAutomine", [false]);
    try {
      expect((await run()).sent).toBe(1);
      // The admin's pause pays more, so it is mined first, in the same block: the withdrawal reverts.
      await vault.sendPause(parseGwei("50"));
      await rpc(node.url, "evm_mine");
    } finally {
      await rpc(node.url, "evm_setAutomine", [true]);
    }
    const first = await rowOf(id);
    expect((await vault.publicClient.getTransactionReceipt({ hash: first.txHash as `0x${string}` })).status).toBe("reverted");
    try {
      expect((await run()).failed).toBe(1);
    } finally {
      await vault.setVaultPaused(false);
    }
    expect(await rowOf(id)).toMatchObject({ status: "failed", attempts: 1, failure: "The vault is paused, so nothing was paid. Retry once it runs again." });
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("5"), held: parseEther("5") });
    expect(await platform("withdrawals_in_flight")).toBe(0n);

    expect(await retryWithdrawal({ db, userId, id })).toEqual({ ok: true });
    await run();
    await run();
    const second = await rowOf(id);
    expect(second).toMatchObject({ status: "confirmed", attempts: 2 });
    expect(second.txHash).not.toBe(first.txHash);
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("4.5"));
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("5"), held: 0n });
    expect(await checkLedger({ db })).toEqual(CLEAN);
    // The member is told each once: the first attempt failed, in words; then it was paid.
    const told = await db
      .select()
      .from(appEvent)
      .where(like(appEvent.key, `withdrawal.%:${id}%`))
      .orderBy(appEvent.id);
    expect(told).toMatchObject([
      { key: `withdrawal.failed:${id}:1`, projectId: null, data: { userId, reason: "The vault is paused, so nothing was paid. Retry once it runs again." } },
      { key: `withdrawal.confirmed:${id}`, projectId: null, data: { userId, amount: parseEther("5").toString(), txHash: second.txHash } },
    ]);
  });

  it("broadcasts a sent withdrawal again when no receipt came within the timeout (a node that dropped it)", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "heidi", parseEther("10"));
    const id = await requested(userId, wallet, parseEther("2"));
    await rpc(node.url, "evm_setAutomine", [false]);
    try {
      expect((await run()).sent).toBe(1);
      const { txHash } = await rowOf(id);
      await rpc(node.url, "anvil_dropTransaction", [txHash]);
      expect(await rpc(node.url, "eth_getTransactionByHash", [txHash])).toBeNull();
      // Within the timeout it only waits; past it, the same signed transaction goes out again.
      await run();
      expect(await rpc(node.url, "eth_getTransactionByHash", [txHash])).toBeNull();
      const later = new Date(Date.now() + 11 * 60 * 1000);
      await followedWithdrawals({ db, chains: new Map([[31337, chain]]), now: later });
      expect(await rpc(node.url, "eth_getTransactionByHash", [txHash])).not.toBeNull();
      expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 1, txHash, sentAt: later });
    } finally {
      await rpc(node.url, "evm_setAutomine", [true]);
    }
    await rpc(node.url, "evm_mine");
    await run();
    expect((await rowOf(id)).status).toBe("confirmed");
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("1.5"));
  });

  it("replaces a sent transaction stuck unmined with a higher fee after the wait; the member sees the new one, paid once", async () => {
    const { userId, wallet } = await fundedMember(database.db, "ivan", parseEther("10"));
    const id = await requested(userId, wallet, parseEther("3"));
    const at = (minutes: number) => new Date(Date.now() + minutes * 60 * 1000);
    const runAt = (minutes: number) =>
      followedWithdrawals({ db: database.db, chains: new Map([[31337, chain]]), now: at(minutes), onError: (id, error) => void jobErrors.push({ id, error }) });
    await rpc(node.url, "evm_setAutomine", [false]);
    let first: string;
    try {
      expect((await runAt(0)).sent).toBe(1);
      first = (await rowOf(id)).txHash!;
      await runAt(1);
      expect((await rowOf(id)).txHash).toBe(first);
      // Past the wait (two minutes): signed again with the same nonce and a higher fee.
      await runAt(3);
      const bumped = await rowOf(id);
      expect(bumped).toMatchObject({ status: "sent", attempts: 1 });
      expect(bumped.txHash).not.toBe(first);
      expect(await rpc(node.url, "eth_getTransactionByHash", [bumped.txHash])).not.toBeNull();
    } finally {
      await rpc(node.url, "evm_setAutomine", [true]);
    }
    await rpc(node.url, "evm_mine");
    await runAt(4);
    expect(await rowOf(id)).toMatchObject({ status: "confirmed", attempts: 1 });
    expect((await rowOf(id)).txHash).not.toBe(first);
    expect(await vault.paid(id)).toBe(true);
    expect(await vault.tokenBalance(wallet)).toBe(parseEther("2.5"));
    expect(await platform("withdrawals_in_flight")).toBe(0n);
    expect(await checkLedger({ db: database.db })).toEqual(CLEAN);
  });

  it("says so when the node does not answer before anything was signed, and keeps the amount held", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "erin", parseEther("10"));
    const id = await requested(userId, wallet, parseEther("2"));
    await run(new Map([[31337, vault.chain("http://127.0.0.1:9")]]));
    expect(await rowOf(id)).toMatchObject({
      status: "failed",
      failure: "The chain node did not answer; nothing was paid. Retry when it is back.",
      attempts: 0,
      txHash: null,
    });
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("8"), held: parseEther("2") });
    expect(await cancelWithdrawal({ db, userId, id })).toEqual({ ok: true });
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("10"), held: 0n });
  });
});

describe("withdrawals of the vault's other tokens", () => {
  const U = assetOf("USDC", 31337);
  const usdc = () => vault.tokens.find((token) => token.symbol === "USDC")!.address;
  const usdcUnits = (whole: number) => BigInt(whole) * 10n ** 6n;
  const usdcOf = (account: `0x${string}`) =>
    vault.publicClient.readContract({ address: usdc(), abi: testStablecoinAbi, functionName: "balanceOf", args: [account] });
  const chains = { get: (chainId: number) => (chainId === 31337 ? { tokens: vault.tokens } : undefined) };
  const requestOf = (userId: string, to: `0x${string}`, amountText: string, asset = U) =>
    requestWithdrawal({ db: database.db, userId, input: form(to, parseEther(amountText), randomUUID(), asset), limits, chains });

  beforeAll(async () => {
    // Dev account 1 puts 1,000 USDC in the vault, as a member's deposit would.
    const walletClient = vault.walletOf(DEV_PRIVATE_KEYS[1]);
    const mined = (hash: `0x${string}`) => vault.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    await mined(
      await walletClient.writeContract({
        address: usdc(),
        abi: testStablecoinAbi,
        functionName: "approve",
        args: [vault.addresses.DepositVault, usdcUnits(1000)],
      }),
    );
    await mined(
      await walletClient.writeContract({
        address: vault.addresses.DepositVault,
        abi: depositVaultAbi,
        functionName: "depositToken",
        args: [usdc(), usdcUnits(1000), zeroHash],
      }),
    );
  });

  it("pays a USDC withdrawal once through withdrawToken, in USDC's 6 decimals, the fee in USDC", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "uma", usdcUnits(50), undefined, U);
    const result = await requestOf(userId, wallet, "10");
    if (!result.ok) throw new Error(failureMessage(result));
    // 10 USDC held in USDC's own units; the 0.5 fee is 0.5 USDC.
    expect(await rowOf(result.id)).toMatchObject({ asset: U, amount: usdcUnits(10), fee: 500_000n, status: "requested" });
    expect((await balanceOf({ db, userId, asset: U }))[0]).toEqual({ asset: U, available: usdcUnits(40), held: usdcUnits(10) });

    expect(await run()).toMatchObject({ sent: 1 });
    expect(await run()).toMatchObject({ confirmed: 1 });
    expect(await run()).toEqual({ sent: 0, confirmed: 0, failed: 0, waiting: 0 });
    const row = await rowOf(result.id);
    expect(row).toMatchObject({ status: "confirmed", attempts: 1 });
    expect(await vault.paid(result.id)).toBe(true);
    expect(await usdcOf(wallet)).toBe(usdcUnits(10) - 500_000n);
    const receipt = await vault.publicClient.getTransactionReceipt({ hash: row.txHash as `0x${string}` });
    const paid = parseEventLogs({ abi: depositVaultAbi, logs: receipt.logs, eventName: "TokenWithdrawn" });
    expect(paid).toHaveLength(1);
    expect(paid[0]!.args).toMatchObject({ token: usdc(), to: wallet, amount: usdcUnits(10) - 500_000n });
    expect((await balanceOf({ db, userId, asset: U }))[0]).toEqual({ asset: U, available: usdcUnits(40), held: 0n });
    expect(await checkLedger({ db })).toEqual(CLEAN);
  });

  it("refuses in words an asset the chain's vault does not list, and more decimals than the token has", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "ulla", usdcUnits(50), privateKeyToAccount(DEV_PRIVATE_KEYS[5]).address, U);
    expect(await requestOf(userId, wallet, "10", assetOf("DAI", 31337))).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "DAI cannot be withdrawn on chain 31337: that chain's vault does not take it." },
    });
    expect(await requestOf(userId, wallet, "10", assetOf("USDC", 31338))).toMatchObject({
      errors: { form: "USDC cannot be withdrawn on chain 31338: that chain's vault does not take it." },
    });
    // Without the chains' token lists, only QUEST is taken.
    expect(await requestWithdrawal({ db, userId, input: form(wallet, parseEther("10"), randomUUID(), U), limits })).toMatchObject({
      errors: { form: "USDC cannot be withdrawn on chain 31337: that chain's vault does not take it." },
    });
    expect(await requestOf(userId, wallet, "1.0000001")).toEqual({
      ok: false,
      code: "invalid",
      errors: { amount: "USDC has 6 decimals: enter at most 6 digits after the point." },
    });
    expect(await requestOf(userId, wallet, "0.5")).toMatchObject({ errors: { amount: "The smallest withdrawal is 1 USDC." } });
    expect((await balanceOf({ db, userId, asset: U }))[0]).toEqual({ asset: U, available: usdcUnits(50), held: 0n });
    expect(await db.select().from(withdrawal).where(eq(withdrawal.userId, userId))).toEqual([]);
  });

  it("fails, paying nothing, a withdrawal whose token its chain's list no longer names", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "ute", usdcUnits(20), undefined, U);
    const result = await requestOf(userId, wallet, "5");
    if (!result.ok) throw new Error(failureMessage(result));
    const questOnly = { ...vault.chain(), tokens: vault.tokens.filter((token) => token.symbol === "QUEST") };
    expect(await run(new Map([[31337, questOnly]]))).toMatchObject({ sent: 0, failed: 1 });
    expect(await rowOf(result.id)).toMatchObject({ status: "failed", failure: TOKEN_NOT_LISTED, txHash: null });
    expect(await vault.paid(result.id)).toBe(false);
    expect(await usdcOf(wallet)).toBe(0n);
    expect(await checkLedger({ db })).toEqual(CLEAN);
  });
});
