import { createPublicClient, createWalletClient, custom, encodeFunctionData, getAddress, type EIP1193Provider, type Hex } from "viem";
import type { ContractCall } from "~/modules/chain/contract-call";
import { TxError } from "~/modules/chain/tx-error";
import { CHAIN_NAMES } from "./chains";
import { claimRefusal, describeTxFailure, fundsError, shortfallOf, type FailureFacts } from "./tx-failure.client";

/**
 * Sends a contract call through the connected wallet (loaded on demand with the wallet stack).
 * The call is simulated first: a revert is told in words before the wallet is asked anything;
 * then the wallet's balance is checked against the payment and the network fee. Every failure is
 * a `TxError` with a sentence for the member (`describeTxFailure`).
 */
export async function sendContractCall(provider: EIP1193Provider, from: string, call: ContractCall): Promise<Hex> {
  const account = getAddress(from);
  const transport = custom(provider, { retryCount: 0 });
  const publicClient = createPublicClient({ transport });
  const walletClient = createWalletClient({ account, transport });
  const chainName = CHAIN_NAMES[call.chainId] ?? `chain ${call.chainId}`;
  const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args });
  const facts: FailureFacts = {
    shortfall: () => shortfallOf(publicClient, account, call, data),
    refusal: () => claimRefusal(publicClient, call),
  };
  const failed = async (error: unknown) => describeTxFailure(error, call, facts);

  let current: number;
  try {
    current = await publicClient.getChainId();
  } catch (error) {
    throw await failed(error);
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
    throw await failed(error);
  }
  const short = await facts.shortfall().catch(() => null);
  if (short) throw fundsError(call, chainName, short);
  try {
    return await walletClient.sendTransaction({ account, chain: null, to: call.address, data, value: call.value });
  } catch (error) {
    throw await failed(error);
  }
}
