import type { Hex } from "viem";
import type { Asset } from "~/modules/ledger/assets";
import type { VaultReading } from "~/modules/chain/token-screens";

/** An asset with its token's symbol, network and decimals (amounts are in its own base units: USDC's 6, QUEST's 18). */
type AssetInfo = { asset: Asset; symbol: string; chainId: number; chainName: string; decimals: number };

/** The network a token screen shows, and the others it can switch to. */
type ScreenChain = { chainId: number; chainName: string; coin: string; chainIds: number[] };

/** The vault on the chosen network and its chosen token (`?token=`), with the connected wallet's balance and allowance of that token. */
export type VaultChain = ScreenChain & { ok: true; facts: VaultReading };

/** The Balance screen's data (loadBalancePage). Bigints travel as decimal strings. */
export type BalancePage = {
  /** No network with our contracts, or its node did not answer: states the page shows. */
  chain: VaultChain | { ok: false; reason: "none" } | (ScreenChain & { ok: false; reason: "node" });
  /** The chosen (chain, token) asset: the deposit, the withdrawal and the first figures are in it. */
  asset: Asset | null;
  /** The member's deposit reference. */
  ref: Hex;
  balances: (AssetInfo & { available: string; held: string })[];
  deposits: (AssetInfo & { id: string; txHash: Hex; amount: string; confirmations: number; required: number; createdAt: string })[];
  withdrawals: (AssetInfo & {
    id: string;
    /** One of WITHDRAWAL_STATUSES (db/schema/ledger.ts). */
    status: string;
    amount: string;
    fee: string;
    toAddress: string;
    chainId: number;
    txHash: string | null;
    failure: string | null;
    waiting: boolean;
    canCancel: boolean;
    canRetry: boolean;
    createdAt: string;
  })[];
  paused: boolean;
  /** The withdrawal limits in the chosen token's own units (as requestWithdrawal applies them to it). */
  limits: { minimum: string; dailyLimit: string; fee: string };
  destinations: string[];
  transactions: (AssetInfo & {
    id: number;
    label: string;
    memo: string | null;
    available: string;
    held: string;
    gross: string;
    status: string;
    txHash: string | null;
    createdAt: string;
  })[];
  page: number;
  hasMore: boolean;
};

/** What the Balance screen's actions answer: Withdraw, and Retry or Cancel on a withdrawal. */
export type BalanceActionData =
  | { intent: "withdraw"; ok: true; id: string }
  | { intent: "withdraw"; ok: false; errors: Partial<Record<"amount" | "destination" | "form", string>> }
  | { intent: "cancel" | "retry"; ok: boolean; id: string; error?: string };
