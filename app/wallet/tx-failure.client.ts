import { BaseError, ChainMismatchError, HttpRequestError, InsufficientFundsError, TimeoutError, UserRejectedRequestError, type PublicClient } from "viem";
import { airdropDistributorAbi } from "#contracts/generated/airdrop-distributor";
import type { ContractCall } from "~/modules/chain/contract-call";
import { formatAmount } from "~/lib/token-amounts";
import { describeContractError, type DecodedError } from "~/modules/chain/contract-errors";
import { readRevert } from "~/modules/chain/revert-decode";
import { TxError } from "~/modules/chain/tx-error";
import { CHAIN_NAMES } from "./chains";

/** Contract errors that a retry cannot change: the button that sent the call has nothing more to do. */
const FINAL_ERRORS = new Set([
  "AlreadyClaimed",
  "ClaimWindowClosed",
  "InvalidProof",
  "UnknownRound",
  "RoundExhausted",
  "PublicMintClosed",
  "SaleEnded",
  "AccessControlUnauthorizedAccount",
  "OwnableUnauthorizedAccount",
]);

/** What the wallet holds against what the call needs (payment and network fee), in wei. */
export type Shortfall = { need: bigint; have: bigint };

/** What may be read from the chain to tell a failure in words. */
export type FailureFacts = {
  /** The native coin the wallet is short of, when it is. */
  shortfall: () => Promise<Shortfall | null>;
  /** Why the contract would refuse this call, read from its state, when the refusal came without a reason. */
  refusal: () => Promise<DecodedError | null>;
};

const code = (e: unknown) => (typeof e === "object" && e && "code" in e ? (e as { code: unknown }).code : undefined);

/**
 * Every failure of a wallet transaction (simulation, sending) as a `TxError` with a sentence for
 * the member, never the library's text; a refusal that a retry cannot change is `final`.
 */
export async function describeTxFailure(error: unknown, call: ContractCall, facts: FailureFacts): Promise<TxError> {
  if (error instanceof TxError) return error;
  const walk = (test: (e: unknown) => boolean) => (error instanceof BaseError ? error.walk(test) : test(error) ? error : null);
  const chainName = CHAIN_NAMES[call.chainId] ?? `chain ${call.chainId}`;
  const words = (decoded: DecodedError) =>
    new TxError("revert", describeContractError(decoded, call.context), { cause: error, final: FINAL_ERRORS.has(decoded.name) });

  if (walk((e) => e instanceof UserRejectedRequestError || code(e) === 4001)) {
    return new TxError("rejected", "You rejected the transaction in your wallet. Nothing was sent.", { cause: error });
  }
  if (walk((e) => e instanceof ChainMismatchError)) {
    return new TxError("chain", "Your wallet switched network during the transaction. Nothing was sent: try again.", { cause: error });
  }
  const revert = readRevert(error);
  if (revert && typeof revert === "object") return words(revert);
  const unreachable = walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
  // A refusal without its reason (or a node's internal error, which looks the same): the contract's
  // state says why, when it can be read.
  if (revert && !unreachable) {
    const known = await facts.refusal().catch(() => null);
    if (known) return words(known);
  }
  const short = await facts.shortfall().catch(() => null);
  if (short || walk((e) => e instanceof InsufficientFundsError)) return fundsError(call, chainName, short, error);
  if (revert === "unexplained") return new TxError("revert", "The contract refused the transaction.", { cause: error });
  if (revert === "internal") {
    return new TxError(
      "network",
      `Your wallet's connection to ${chainName} refused the transaction without saying why. Nothing was sent: try again in a moment.`,
      {
        cause: error,
      },
    );
  }
  if (unreachable || code(error) === -32603 || walk((e) => code(e) === -32603)) {
    return new TxError("network", "The network's node did not answer. Nothing was sent: try again in a moment.", { cause: error });
  }
  return new TxError("unknown", "Your wallet could not send the transaction. Nothing was sent: check your wallet and try again.", { cause: error });
}

/** "Your wallet needs about 0.00012 ETH on Questline Local to pay the network fee." */
export function fundsError(call: ContractCall, chainName: string, short: Shortfall | null, cause?: unknown): TxError {
  const coin = call.context.coin;
  const what = call.value ? "for the payment and the network fee" : "to pay the network fee";
  if (!short) return new TxError("funds", `Your wallet does not hold enough ${coin} on ${chainName} ${what}.`, { cause });
  return new TxError("funds", `Your wallet needs about ${roughly(short.need)} ${coin} on ${chainName} ${what}; it holds ${roughly(short.have)} ${coin}.`, {
    cause,
  });
}

/** An amount of wei rounded up to two significant digits, in whole coins: 0.00012, 1.3, 0. */
export function roughly(wei: bigint): string {
  if (wei <= 0n) return "0";
  const digits = wei.toString().length;
  const step = digits > 2 ? 10n ** BigInt(digits - 2) : 1n;
  const rounded = ((wei + step - 1n) / step) * step;
  return formatAmount(rounded, { maxFraction: 18 });
}

/** The fee the wallet will reserve (gas × the highest fee per gas it may pay) plus the payment, against its balance. */
export async function shortfallOf(client: PublicClient, account: `0x${string}`, call: ContractCall, data: `0x${string}`): Promise<Shortfall | null> {
  const [gas, fees, have] = await Promise.all([
    client.estimateGas({ account, to: call.address, data, value: call.value }),
    client.estimateFeesPerGas().catch(async () => ({ maxFeePerGas: await client.getGasPrice() })),
    client.getBalance({ address: account }),
  ]);
  const need = gas * (fees.maxFeePerGas ?? 0n) + (call.value ?? 0n);
  return have < need ? { need, have } : null;
}

/**
 * Why AirdropDistributor would refuse a claim, read from its views: the share claimed already, or
 * the round's claims closed by the chain's clock. Null for any other call, or when neither holds.
 */
export async function claimRefusal(client: PublicClient, call: ContractCall): Promise<DecodedError | null> {
  if (call.functionName !== "claim" || call.abi !== airdropDistributorAbi) return null;
  const [roundId, index] = call.args as [bigint, bigint];
  const round = await client
    .readContract({ address: call.address, abi: airdropDistributorAbi, functionName: "round", args: [roundId] })
    .catch((error: unknown) => {
      const revert = readRevert(error);
      if (revert && typeof revert === "object") return revert;
      throw error;
    });
  if ("name" in round) return round;
  const claimed = await client.readContract({ address: call.address, abi: airdropDistributorAbi, functionName: "isClaimed", args: [roundId, index] });
  if (claimed) return { name: "AlreadyClaimed", args: [roundId, index] };
  const block = await client.getBlock();
  if (block.timestamp >= round.deadline) return { name: "ClaimWindowClosed", args: [roundId, round.deadline] };
  return null;
}
