import { eq, inArray } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawal } from "#db/schema/ledger";
import type { Services } from "~/services/services.server";
import { requestWithdrawal, withdrawalLimits } from "~/modules/withdrawals/withdrawals.server";
import { fundedMember, form } from "#tests/setup/withdrawal-chain";
import { createTestServices } from "#tests/setup/test-services";
import { loadBalancePage } from "./balance-page.server";

let services: Services;
const limits = withdrawalLimits({ WITHDRAWAL_MIN: "1", WITHDRAWAL_DAILY_LIMIT: "1000", WITHDRAWAL_FEE: "0" });

beforeAll(async () => {
  services = await createTestServices();
});
afterAll(() => services.close());

describe("the Balance page's Under way list", () => {
  it("shows every withdrawal not settled however old, not only among the newest", async () => {
    const db = services.database.db;
    const { userId, wallet } = await fundedMember(db, "erin", parseEther("100"));
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const result = await requestWithdrawal({ db, userId, input: form(wallet, parseEther("2")), limits });
      if (!result.ok) throw new Error("refused");
      ids.push(result.id);
    }
    const [failed, sending, ...settled] = ids;
    // Days old, and 23 newer ones settled since: paid or cancelled.
    const old = new Date(Date.now() - 30 * 86_400_000);
    await db.update(withdrawal).set({ status: "failed", failure: "The node refused it.", createdAt: old }).where(eq(withdrawal.id, failed!));
    await db
      .update(withdrawal)
      .set({ status: "sending", createdAt: new Date(old.getTime() + 86_400_000) })
      .where(eq(withdrawal.id, sending!));
    await db
      .update(withdrawal)
      .set({ status: "confirmed" })
      .where(inArray(withdrawal.id, settled.slice(0, 20)));
    await db
      .update(withdrawal)
      .set({ status: "cancelled" })
      .where(inArray(withdrawal.id, settled.slice(20)));

    const page = await loadBalancePage(services, userId, new Request("http://localhost:3000/balance"));
    expect(page.withdrawals.map((w) => [w.id, w.status, w.canRetry, w.canCancel])).toEqual([
      [sending, "sending", false, false],
      [failed, "failed", true, true],
    ]);
  });
});
