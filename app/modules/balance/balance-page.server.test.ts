import { eq, inArray } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withdrawal } from "#db/schema/ledger";
import type { Services } from "~/services/services.server";
import { DEV_ADDRESSES, DEV_PRIVATE_KEYS } from "#contracts/dev-accounts";
import { testStablecoinAbi } from "#contracts/generated/test-stablecoin";
import { startLocalChain, type LocalChain } from "~/lib/local-chain.server";
import { DEMO_STABLECOIN_PER_ACCOUNT } from "~/modules/chain/contracts.server";
import { assetOf } from "~/modules/ledger/assets";
import { credit } from "~/modules/ledger/ledger.server";
import { localRegistry } from "#tests/setup/local-registry";
import { limitsInToken, requestWithdrawal, withdrawalLimits } from "~/modules/withdrawals/withdrawals.server";
import { fundedMember, form, vaultOnChain, type VaultOnChain } from "#tests/setup/withdrawal-chain";
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

describe("the Balance page on a chain whose vault takes QUEST and a stand-in USDC", () => {
  let node: LocalChain;
  let vault: VaultOnChain;
  let onChain: Services;
  beforeAll(async () => {
    node = await startLocalChain();
    vault = await vaultOnChain(node.url);
    onChain = { ...services, chains: localRegistry({ url: node.url, contracts: vault.addresses, tokens: vault.tokens.slice(1) }) };
  });
  afterAll(() => node?.stop());

  it("lists each (chain, token) balance with its token's decimals: USDC's 6 beside QUEST's 18", async () => {
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
  });

  it("shows the token `?token=` names: its address, decimals, the wallet's balance and allowance of it, and the limits in its units", async () => {
    const usdc = vault.tokens.find((token) => token.symbol === "USDC")!;
    const [key, address] = [DEV_PRIVATE_KEYS[3], DEV_ADDRESSES[3]];
    await vault.publicClient.waitForTransactionReceipt({
      hash: await vault
        .walletOf(key)
        .writeContract({ address: usdc.address, abi: testStablecoinAbi, functionName: "approve", args: [vault.addresses.DepositVault, 7_250_000n] }),
    });
    const { userId } = await fundedMember(services.database.db, "vic", 0n, address);
    const url = `http://localhost:3000/balance?chain=31337&token=USDC&account=${address}`;

    const page = await loadBalancePage(onChain, userId, new Request(url));
    expect(page.chain).toMatchObject({
      ok: true,
      chainId: 31337,
      facts: {
        token: usdc.address,
        vault: vault.addresses.DepositVault,
        symbol: "USDC",
        decimals: 6,
        tokens: ["QUEST", "USDC"],
        member: { address, balance: DEMO_STABLECOIN_PER_ACCOUNT.toString(), allowance: "7250000" },
      },
    });
    expect(page.asset).toBe("USDC:31337");
    // The chosen asset is listed even at 0, so the Withdraw card has its balance to show.
    expect(page.balances).toContainEqual(expect.objectContaining({ asset: "USDC:31337", decimals: 6, available: "0" }));
    // What requestWithdrawal holds a USDC request to, in USDC's units (1 USDC at least, 10,000 a day, no fee by default).
    const inUsdc = limitsInToken(withdrawalLimits(services.env), 6);
    expect(page.limits).toEqual({ minimum: inUsdc.minimum.toString(), dailyLimit: inUsdc.dailyLimit.toString(), fee: inUsdc.fee.toString() });
    expect(inUsdc.minimum * 10n ** 12n).toBe(withdrawalLimits(services.env).minimum);
  });

  it("falls back to QUEST for a token the chain's vault does not list, with no error", async () => {
    const { userId } = await fundedMember(services.database.db, "wes", 0n);
    for (const token of ["DOGE", "usdc", "", "QUEST"]) {
      const page = await loadBalancePage(onChain, userId, new Request(`http://localhost:3000/balance?chain=31337&token=${token}&account=${DEV_ADDRESSES[4]}`));
      expect(page.chain).toMatchObject({
        ok: true,
        facts: { token: vault.addresses.QuestToken, symbol: "QUEST", decimals: 18, member: { address: DEV_ADDRESSES[4], allowance: "0" } },
      });
      expect(page.asset).toBe("QUEST:31337");
      expect(page.limits.minimum).toBe(withdrawalLimits(services.env).minimum.toString());
    }
  });
});
