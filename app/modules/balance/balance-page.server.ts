import { inArray } from "drizzle-orm";
import { deposit, withdrawal } from "#db/schema/ledger";
import type { Services } from "~/services/services.server";
import { chainToken, type ChainRegistry } from "~/modules/chain/chain-registry.server";
import { loadTokenScreen, readVault } from "~/modules/chain/token-reads.server";
import { depositRefOf } from "~/modules/deposits/deposit-refs.server";
import { listDeposits } from "~/modules/deposits/deposits.server";
import { assetOf, assetParts, QUEST_DECIMALS, questAsset, type Asset } from "~/modules/ledger/assets";
import { balanceOf, history } from "~/modules/ledger/ledger.server";
import { listWallets } from "~/modules/wallets/wallets.server";
import { withdrawalsPaused } from "~/modules/withdrawals/withdrawal-pause.server";
import { limitsInToken, withdrawalLimits, withdrawalsUnderWay } from "~/modules/withdrawals/withdrawals.server";
import { CHAIN_NAMES } from "~/wallet/chains";
import type { BalancePage } from "./balance-page";

const PER_PAGE = 20;

/** Bigints travel to the page as decimal strings. */
const s = (value: bigint) => value.toString();

/** What a ledger entry was, in words. */
const KIND_LABELS: Record<string, string> = {
  deposit: "Deposit",
  withdrawal_hold: "Withdrawal requested",
  withdrawal_release: "Withdrawal cancelled",
  withdrawal_sent: "Withdrawal sent",
  withdrawal_returned: "Withdrawal returned",
  withdrawal_confirmed: "Withdrawal confirmed",
  withdrawal_fee: "Withdrawal fee",
  reward: "Reward",
  reward_paid: "Reward",
  project_funding: "Sent to a project's treasury",
  credit: "Credit",
};
const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1).replace(/_/g, " ");

/**
 * Everything the Balance screen shows for a member: balances per asset, the chosen network's
 * vault and token (`?chain=`, `?token=`: one its vault lists, else QUEST) with the connected
 * wallet's balance of it (`?account=`), the withdrawal limits in that token, the deposit
 * reference, deposits and withdrawals under way, and a page of transactions (`?page=`).
 */
export async function loadBalancePage(
  services: Pick<Services, "database" | "chains" | "logger" | "env">,
  userId: string,
  request: Request,
): Promise<BalancePage> {
  const db = services.database.db;
  const url = new URL(request.url);
  const page = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const [chain, balances, ref, deposits, withdrawals, paused, wallets, entries] = await Promise.all([
    loadTokenScreen(services, request, (input) => readVault({ ...input, symbol: url.searchParams.get("token") })),
    balanceOf({ db, userId }),
    depositRefOf({ db, userId }),
    // Under way, however old: every deposit waiting for confirmations, every withdrawal not settled.
    listDeposits({ db, userId, status: "pending", limit: 100 }),
    withdrawalsUnderWay({ db, userId }),
    withdrawalsPaused({ db }),
    listWallets({ db, userId }),
    history({ db, userId, page, perPage: PER_PAGE, changing: "available" }),
  ]);
  // The chosen token's asset; QUEST's where the node did not answer (no deposit or withdrawal is offered then).
  const asset = chain.ok ? assetOf(chain.facts.symbol, chain.chainId) : "chainId" in chain ? questAsset(chain.chainId) : null;
  if (asset && !balances.some((b) => b.asset === asset)) balances.unshift({ asset, available: 0n, held: 0n });
  const limits = limitsInToken(withdrawalLimits(services.env), chain.ok ? chain.facts.decimals : QUEST_DECIMALS);
  return {
    chain,
    asset,
    ref,
    balances: balances.map((b) => ({ ...assetInfo(b.asset, services.chains), available: s(b.available), held: s(b.held) })),
    deposits: deposits.map((d) => ({
      ...assetInfo(d.asset, services.chains),
      id: d.id,
      chainId: d.chainId,
      txHash: d.txHash,
      amount: s(d.amount),
      confirmations: d.confirmations,
      required: d.required,
      createdAt: d.createdAt.toISOString(),
    })),
    withdrawals: withdrawals.map((w) => ({
      ...assetInfo(w.asset, services.chains),
      id: w.id,
      status: w.status,
      amount: s(w.amount),
      fee: s(w.fee),
      toAddress: w.toAddress,
      chainId: w.chainId,
      txHash: w.txHash,
      failure: w.failure,
      waiting: w.waiting,
      canCancel: w.canCancel,
      canRetry: w.canRetry,
      createdAt: w.createdAt.toISOString(),
    })),
    paused,
    limits: { minimum: s(limits.minimum), dailyLimit: s(limits.dailyLimit), fee: s(limits.fee) },
    destinations: [...new Set(wallets.map((w) => w.address))],
    transactions: await transactionRows(services, entries.items),
    page,
    hasMore: entries.hasMore,
  };
}

/** An asset's symbol, network and decimals: those its chain's vault lists for it (QUEST's 18 where the chain lists none). */
function assetInfo(asset: Asset, chains: Pick<ChainRegistry, "get">) {
  const { symbol, chainId } = assetParts(asset);
  const chain = chains.get(chainId);
  const decimals = (chain && chainToken(chain, symbol)?.decimals) ?? QUEST_DECIMALS;
  return { asset, symbol, chainId, chainName: CHAIN_NAMES[chainId] ?? `chain ${chainId}`, decimals };
}

/** A page of ledger entries as transaction rows, each with its deposit's or withdrawal's status and transaction. */
async function transactionRows(services: Pick<Services, "database" | "chains">, items: Awaited<ReturnType<typeof history>>["items"]) {
  const db = services.database.db;
  const references = [...new Set(items.map((item) => item.reference).filter((r): r is string => r !== null))];
  const [deposits, withdrawals] = references.length
    ? await Promise.all([
        db
          .select({ id: deposit.id, status: deposit.status, txHash: deposit.txHash, chainId: deposit.chainId })
          .from(deposit)
          .where(inArray(deposit.id, references)),
        db
          .select({ id: withdrawal.id, status: withdrawal.status, txHash: withdrawal.txHash, chainId: withdrawal.chainId })
          .from(withdrawal)
          .where(inArray(withdrawal.id, references)),
      ])
    : [[], []];
  const byId = new Map([...deposits, ...withdrawals].map((row) => [row.id, row]));
  return items.map((item) => {
    const source = item.reference ? byId.get(item.reference) : undefined;
    return {
      id: item.entryId,
      label: kindLabel(item.kind),
      memo: item.memo,
      ...assetInfo(item.asset, services.chains),
      available: s(item.available),
      held: s(item.held),
      gross: s(item.gross),
      status: source?.status ?? "done",
      txHash: source?.txHash ?? null,
      createdAt: item.createdAt.toISOString(),
    };
  });
}
