import {
  BaseError,
  ChainMismatchError,
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  getAddress,
  HttpRequestError,
  InsufficientFundsError,
  TimeoutError,
  UserRejectedRequestError,
  type EIP1193Provider,
  type Hex,
} from "viem";
import type { ContractCall } from "~/modules/chain/contract-call";
import { TxError } from "~/modules/chain/tx-error";
import { describeRevert } from "~/modules/chain/revert-decode";
import { CHAIN_NAMES } from "./chains";

/**
 * Sends a contract call through the connected wallet (loaded on demand with the wallet stack).
 * The call is simulated first: a revert is told in words before the wallet is asked anything.
 * Every failure is a `TxError` with a sentence for the member.
 */
export async function sendContractCall(provider: EIP1193Provider, from: string, call: ContractCall): Promise<Hex> {
  const account = getAddress(from);
  const transport = custom(provider, { retryCount: 0 });
  const publicClient = createPublicClient({ transport });
  const walletClient = createWalletClient({ account, transport });
  const chainName = CHAIN_NAMES[call.chainId] ?? `chain ${call.chainId}`;

  let current: number;
  try {
    current = await publicClient.getChainId();
  } catch (error) {
    throw classify(error, call);
  }
  if (current !== call.chainId) {
    throw new TxError("chain", `Your wallet is on ${CHAIN_NAMES[current] ?? `chain ${current}`}, not ${chainName}. Switch back and try again.`);
  }
  try {
    await publicClient.simulateContract({
      account,
      address: call.address,
      abi: call.abi,
      functionName: call.functionName,
      args: call.args,
      value: call.value,
    });
  } catch (error) {
    throw classify(error, call);
  }
  try {
    return await walletClient.sendTransaction({
      account,
      chain: null,
      to: call.address,
      data: encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args }),
      value: call.value,
    });
  } catch (error) {
    throw classify(error, call);
  }
}

function classify(error: unknown, call: ContractCall): TxError {
  if (error instanceof TxError) return error;
  const walk = (test: (e: unknown) => boolean) => (error instanceof BaseError ? error.walk(test) : test(error) ? error : null);
  const code = (e: unknown) => (typeof e === "object" && e && "code" in e ? (e as { code: unknown }).code : undefined);
  if (walk((e) => e instanceof UserRejectedRequestError || code(e) === 4001)) {
    return new TxError("rejected", "You rejected the transaction in your wallet. Nothing was sent.", { cause: error });
  }
  if (walk((e) => e instanceof ChainMismatchError)) {
    return new TxError("chain", "Your wallet switched network during the transaction. Nothing was sent: try again.", { cause: error });
  }
  const revert = describeRevert(error, call.context);
  if (revert) return new TxError("revert", revert, { cause: error });
  if (walk((e) => e instanceof InsufficientFundsError)) {
    return new TxError("funds", `This wallet does not hold enough ${call.context.coin} for the payment and the network fee.`, { cause: error });
  }
  if (walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || code(e) === -32603)) {
    return new TxError("network", "The network's node did not answer. Nothing was sent: try again in a moment.", { cause: error });
  }
  const message = error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error);
  return new TxError("unknown", `The wallet could not send the transaction: ${message}`, { cause: error });
}
