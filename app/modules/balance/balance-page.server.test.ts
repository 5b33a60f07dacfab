import { eq, inArray } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawal } from "#db/schema/ledger";
import type { Services } from "~/services/services.server";
import { startLocalChain } from "~/lib/local-chain.server";
import { createLogger } from "~/lib/logger.server";
import { ensureLocalContracts } from "~/modules/chain/contracts.server";
import { assetOf } from "~/modules/ledger/assets";
import { credit } from "~/modules/ledger/ledger.server";
import { localRegistry } from "#tests/setup/local-registry";
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

describe("the Balance page's balances", () => {
  it("lists each (chain, token) balance with its token's decimals: USDC's 6 beside QUEST's 18", async () => {
    const node = await startLocalChain();
    try {
      const { addresses, tokens } = await ensureLocalContracts({ rpcUrl: node.url, known: undefined, logger: createLogger("silent") });
      const onChain = { ...services, chains: localRegistry({ url: node.url, contracts: addresses, tokens }) };
      const db = services.database.db;
      const { userId } = await fundedMember(db, "una", parseEther("3"));
      const usdc = assetOf("USDC", 31337);
      await credit({ db, key: "fund:una:usdc", kind: "reward", userId, asset: usdc, amount: 25_500_000n });

      const page = await loadBalancePage(onChain, userId, new Request("http://localhost:3000/balance"));
      expect(page.balances.map(({ asset, decimals, available }) => ({ asset, decimals, available }))).toEqual(
        expect.arrayContaining([
          { asset: "QUEST:31337", decimals: 18, available: parseEther("3").toString() },
          { asset: usdc, decimals: 6, available: "25500000" },
        ]),
      );
      expect(page.transactions.find((row) => row.asset === usdc)).toMatchObject({ symbol: "USDC", decimals: 6 });
    } finally {
      await node.stop();
    }
  });
});
