import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawal } from "#db/schema/ledger";
import type { Database } from "~/lib/db.server";
import { balanceOf, checkLedger } from "~/modules/ledger/ledger.server";
import { fundedMember, form, Q } from "#tests/setup/withdrawal-chain";
import { createTestDatabase } from "#tests/setup/test-db";
import { setWithdrawalsPaused, withdrawalsPaused } from "./withdrawal-pause.server";
import { withdrawalFormSchema } from "./withdrawal.schema";
import { cancelWithdrawal, limitsInToken, listWithdrawals, requestWithdrawal, retryWithdrawal, withdrawalLimits } from "./withdrawals.server";
import { failureMessage } from "~/lib/result";

let database: Database;
const limits = withdrawalLimits({ WITHDRAWAL_MIN: "1", WITHDRAWAL_DAILY_LIMIT: "100", WITHDRAWAL_FEE: "0.5" });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const balance = async (userId: string) => (await balanceOf({ db: database.db, userId, asset: Q }))[0];
const rows = (userId: string) => database.db.select().from(withdrawal).where(eq(withdrawal.userId, userId));

describe("the Withdraw form", () => {
  it("parses amounts exactly and says what is wrong in words", () => {
    const ok = withdrawalFormSchema.parse({
      amount: "12.000000000000000001",
      destination: "0xa0ee7a142d267c1f36714e4a8f75612f20a79720",
      asset: Q,
      requestKey: randomUUID(),
    });
    expect(ok.amount).toBe(12_000_000_000_000_000_001n);
    expect(ok.destination).toBe("0xa0Ee7A142d267C1f36714E4a8F75612F20a79720");
    const bad = withdrawalFormSchema.safeParse({ amount: "1.0000000000000000001", destination: "0x12", asset: Q, requestKey: "x" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["amount", "Enter an amount such as 12 or 12.5, with at most 18 decimals."],
      ["destination", "Choose one of your linked wallets."],
      ["requestKey", "The form expired. Reload the page and try again."],
    ]);
    expect(
      withdrawalFormSchema.safeParse({ amount: "0", destination: "0xa0ee7a142d267c1f36714e4a8f75612f20a79720", asset: Q, requestKey: randomUUID() }).error!
        .issues[0]!.message,
    ).toBe("Enter an amount above 0.");
  });
});

describe("the limits in a token's units", () => {
  it("are QUEST's own at 18 decimals; in a token of fewer, the minimum and fee round up and the daily limit down", () => {
    expect(limitsInToken(limits, 18)).toEqual(limits);
    expect(limitsInToken(limits, 6)).toEqual({ minimum: 1_000_000n, dailyLimit: 100_000_000n, fee: 500_000n });
    const odd = withdrawalLimits({ WITHDRAWAL_MIN: "0.0000011", WITHDRAWAL_DAILY_LIMIT: "2.0000019", WITHDRAWAL_FEE: "0.0000000001" });
    expect(limitsInToken(odd, 6)).toEqual({ minimum: 2n, dailyLimit: 2_000_001n, fee: 1n });
  });
});

describe("requestWithdrawal", () => {
  it("holds the amount at once; a repeated request key gives the first withdrawal back", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "alice", parseEther("50"));
    const input = form(wallet, parseEther("10"));
    const first = await requestWithdrawal({ db, userId, input, limits });
    const again = await requestWithdrawal({ db, userId, input, limits });
    expect(first.ok && again.ok && again.id === first.id).toBe(true);
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("40"), held: parseEther("10") });
    const [row] = await rows(userId);
    expect(row).toMatchObject({ status: "requested", amount: parseEther("10"), fee: parseEther("0.5"), chainId: 31337, toAddress: wallet, attempts: 0 });
    expect(row!.id).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("refuses a wallet that is not the member's, an amount below the minimum or not above the fee, and more than the balance, changing nothing", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "bob", parseEther("5"));
    const { wallet: othersWallet } = await fundedMember(db, "carol", 0n);
    expect(await requestWithdrawal({ db, userId, input: form(othersWallet, parseEther("2")), limits })).toEqual({
      ok: false,
      code: "invalid",
      errors: { destination: "Choose one of your linked wallets: withdrawals go only to a wallet you signed in with." },
    });
    expect(await requestWithdrawal({ db, userId, input: form(wallet, parseEther("0.99")), limits })).toEqual({
      ok: false,
      code: "invalid",
      errors: { amount: "The smallest withdrawal is 1 QUEST." },
    });
    const highFee = { ...limits, fee: parseEther("2") };
    expect(await requestWithdrawal({ db, userId, input: form(wallet, parseEther("2")), limits: highFee })).toEqual({
      ok: false,
      code: "invalid",
      errors: { amount: "The amount must be more than the 2 QUEST fee." },
    });
    expect(await requestWithdrawal({ db, userId, input: form(wallet, parseEther("6")), limits })).toEqual({
      ok: false,
      code: "invalid",
      errors: { amount: "You do not have enough available balance." },
    });
    // The destination is matched whatever its letter case.
    const lower = form(wallet.toLowerCase() as `0x${string}`, parseEther("5"));
    expect((await requestWithdrawal({ db, userId, input: lower, limits })).ok).toBe(true);
    expect(await rows(userId)).toHaveLength(1);
    expect(await balance(userId)).toEqual({ asset: Q, available: 0n, held: parseEther("5") });
  });

  it("keeps to the daily limit, even when requests arrive together", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "dave", parseEther("1000"));
    expect((await requestWithdrawal({ db, userId, input: form(wallet, parseEther("70")), limits })).ok).toBe(true);
    expect(await requestWithdrawal({ db, userId, input: form(wallet, parseEther("40")), limits })).toEqual({
      ok: false,
      code: "invalid",
      errors: { amount: "That is over your daily withdrawal limit: you may withdraw 30 QUEST more today." },
    });
    const together = await Promise.all(Array.from({ length: 6 }, () => requestWithdrawal({ db, userId, input: form(wallet, parseEther("10")), limits })));
    expect(together.filter((r) => r.ok)).toHaveLength(3);
    expect(await requestWithdrawal({ db, userId, input: form(wallet, parseEther("1")), limits })).toEqual({
      ok: false,
      code: "invalid",
      errors: { amount: "You have reached your daily withdrawal limit of 100 QUEST. Try again tomorrow." },
    });
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("900"), held: parseEther("100") });
    // A cancelled withdrawal no longer counts.
    const [latest] = await listWithdrawals({ db, userId, limit: 1 });
    expect(await cancelWithdrawal({ db, userId, id: latest!.id })).toEqual({ ok: true });
    expect((await requestWithdrawal({ db, userId, input: form(wallet, parseEther("10")), limits })).ok).toBe(true);
    expect(await checkLedger({ db })).toEqual({ unbalancedEntries: 0, mismatchedAccounts: 0, negativeMembers: 0 });
  });
});

describe("cancel, retry and the list", () => {
  it("cancels a requested withdrawal and releases it, once, for its owner only; retry is for failed ones", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "erin", parseEther("20"));
    const requested = await requestWithdrawal({ db, userId, input: form(wallet, parseEther("8")), limits });
    if (!requested.ok) throw new Error(failureMessage(requested));
    expect(await cancelWithdrawal({ db, userId: "alice", id: requested.id })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "That withdrawal was not found." },
    });
    expect(await retryWithdrawal({ db, userId, id: requested.id })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "Only a failed withdrawal can be retried." },
    });
    expect(await cancelWithdrawal({ db, userId, id: requested.id })).toEqual({ ok: true });
    expect(await cancelWithdrawal({ db, userId, id: requested.id })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This withdrawal is already cancelled." },
    });
    expect(await balance(userId)).toEqual({ asset: Q, available: parseEther("20"), held: 0n });

    await db.update(withdrawal).set({ status: "confirmed" }).where(eq(withdrawal.id, requested.id));
    expect(await cancelWithdrawal({ db, userId, id: requested.id })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This withdrawal has been paid, so it cannot be cancelled." },
    });
    await db.update(withdrawal).set({ status: "sent" }).where(eq(withdrawal.id, requested.id));
    expect(await cancelWithdrawal({ db, userId, id: requested.id })).toEqual({
      ok: false,
      code: "invalid",
      errors: { form: "This withdrawal is being sent on chain, so it cannot be cancelled." },
    });

    const [view] = await listWithdrawals({ db, userId });
    expect(view).toMatchObject({
      id: requested.id,
      status: "sent",
      amount: parseEther("8"),
      fee: parseEther("0.5"),
      waiting: false,
      canCancel: false,
      canRetry: false,
      explorerUrl: null,
    });
  });

  it("lists newest first", async () => {
    const db = database.db;
    const { userId, wallet } = await fundedMember(db, "frank", parseEther("20"));
    const ids: string[] = [];
    for (const amount of ["1", "2", "3"]) {
      const result = await requestWithdrawal({ db, userId, input: form(wallet, parseEther(amount)), limits });
      if (result.ok) ids.push(result.id);
    }
    expect((await listWithdrawals({ db, userId })).map((w) => w.id)).toEqual(ids.reverse());
    expect(await listWithdrawals({ db, userId, limit: 1 })).toHaveLength(1);
  });
});

describe("pausing withdrawals", () => {
  it("is a platform setting operators flip", async () => {
    const db = database.db;
    expect(await withdrawalsPaused({ db })).toBe(false);
    await setWithdrawalsPaused({ db, paused: true, by: "op" });
    expect(await withdrawalsPaused({ db })).toBe(true);
    await setWithdrawalsPaused({ db, paused: false, by: "op" });
    expect(await withdrawalsPaused({ db })).toBe(false);
  });
});
