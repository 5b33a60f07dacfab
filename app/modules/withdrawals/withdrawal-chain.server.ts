import { BaseError, ContractFunctionRevertedError, decodeErrorResult, ExecutionRevertedError, isHex, RpcRequestError, type Hex } from "viem";
import { depositVaultAbi } from "#contracts/generated/deposit-vault";
import { questTokenAbi } from "#contracts/generated/quest-token";
import { chainToken, type ChainRegistry, type VaultChain } from "~/modules/chain/chain-registry.server";
import { assetParts, type Asset } from "~/modules/ledger/assets";

/**
 * What the withdrawal job and a cancel read of one chain: the registry's own entry (its client,
 * its operator — null where no key is configured, so its withdrawals wait —, its vault, its
 * vault's tokens and confirmations).
 */
export type WithdrawalChain = Pick<VaultChain, "client" | "operator" | "vault" | "confirmations" | "tokens">;

export type WithdrawalChains = Map<number, WithdrawalChain>;

/**
 * The registry's vault chains as the withdrawal job reads them, or a member's cancel (`forPage`:
 * through the client that gives up within a page's wait).
 */
export function withdrawalChainsOf(chains: Pick<ChainRegistry, "vaultChains">, { forPage = false } = {}): WithdrawalChains {
  return new Map(chains.vaultChains().map((chain) => [chain.id, forPage ? { ...chain, client: chain.pageClient } : chain]));
}

/** What a withdrawal's payment calls on the vault, by its asset. */
export type PaymentCall =
  { functionName: "withdraw"; args: readonly [Hex, Hex, bigint] } | { functionName: "withdrawToken"; args: readonly [Hex, Hex, Hex, bigint] };

/**
 * The vault call that pays `amount` of `asset` to `to` under the withdrawal `id`: QUEST, the
 * vault's own token, through `withdraw`; another token of the chain's list through
 * `withdrawToken(token, …)` (the same paid-once map). Null for an asset the chain's vault does not
 * list.
 */
export function paymentCall(chain: Pick<WithdrawalChain, "tokens">, asset: Asset, id: Hex, to: Hex, amount: bigint): PaymentCall | null {
  const { symbol } = assetParts(asset);
  const token = chainToken(chain, symbol);
  if (!token) return null;
  return symbol === "QUEST" ? { functionName: "withdraw", args: [id, to, amount] } : { functionName: "withdrawToken", args: [token.address, id, to, amount] };
}

/** Said when a withdrawal's asset is not a token its chain's vault lists (any longer). */
export const TOKEN_NOT_LISTED = "This chain's vault does not list this token, so nothing was paid.";

/** Said when a node does not answer before anything was signed. */
export const NODE_DOWN = "The chain node did not answer; nothing was paid. Retry when it is back.";

/** Whether the vault paid `id`: with the chain's confirmations, only at the tip so far, or not at all. */
export async function paidState(chain: WithdrawalChain, id: Hex): Promise<"confirmed" | "pending" | "no"> {
  const read = (blockNumber: bigint) =>
    chain.client.readContract({ address: chain.vault, abi: depositVaultAbi, functionName: "withdrawalPaid", args: [id], blockNumber });
  const tip = await chain.client.getBlockNumber();
  if (!(await read(tip))) return "no";
  const depth = BigInt(Math.max(chain.confirmations - 1, 0));
  return tip >= depth && (await read(tip - depth)) ? "confirmed" : "pending";
}

/** Whether the operator has mined a transaction with `nonce` (so no other one with it can land). */
export async function nonceUsed(chain: WithdrawalChain, nonce: number): Promise<boolean> {
  if (!chain.operator) return false;
  const mined = await chain.client.getTransactionCount({ address: chain.operator.account.address, blockTag: "latest" });
  return mined > nonce;
}

const TOKEN_ERRORS = questTokenAbi.filter((item) => item.type === "error");
const VAULT_AND_TOKEN_ERRORS = [...depositVaultAbi.filter((item) => item.type === "error"), ...TOKEN_ERRORS];

/** The custom error named by revert data, "unknown" when none of `abi`'s errors matches. */
function decodeRevert(abi: typeof VAULT_AND_TOKEN_ERRORS, data: Hex): string {
  try {
    return decodeErrorResult({ abi, data }).errorName;
  } catch {
    return "unknown";
  }
}

/**
 * The vault's (or its token's) custom error behind a revert, or null when the error is no revert:
 * a contract call's decoded revert, or the node's raw revert data when preparing a transaction
 * (its gas estimate) was refused, e.g. the vault paused between the simulation and the signing.
 */
function revertName(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data?.errorName) return reverted.data.errorName;
    return reverted.raw ? decodeRevert(TOKEN_ERRORS, reverted.raw) : "unknown";
  }
  if (!error.walk((e) => e instanceof ExecutionRevertedError)) return null;
  const rpc = error.walk((e) => e instanceof RpcRequestError && isHex(e.data));
  return rpc instanceof RpcRequestError && isHex(rpc.data) ? decodeRevert(VAULT_AND_TOKEN_ERRORS, rpc.data) : "unknown";
}

/** Why the vault refused a withdrawal, in words; null when `error` is no revert. */
export function describeWithdrawalRevert(error: unknown): string | null {
  const name = revertName(error);
  switch (name) {
    case null:
      return null;
    case "EnforcedPause":
      return "The vault is paused, so nothing was paid. Retry once it runs again.";
    case "AccessControlUnauthorizedAccount":
      return "The operator account may not pay from the vault, so nothing was paid.";
    case "ERC20InsufficientBalance":
      return "The vault does not hold enough tokens to pay this withdrawal, so nothing was paid.";
    case "WithdrawalAlreadyPaid":
      return "The vault has already paid this withdrawal.";
    case "ZeroAddress":
    case "ZeroAmount":
      return "The vault refused the payment's address or amount, so nothing was paid.";
    default:
      return `The vault refused the payment (${name}), so nothing was paid.`;
  }
}
