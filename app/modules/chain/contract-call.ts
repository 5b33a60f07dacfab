import type { Abi } from "viem";

/** A contract call the page asks the wallet to send (types only: no viem code in pages). */
export type ContractCall = {
  chainId: number;
  address: `0x${string}`;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
  value?: bigint;
  /** Names the token and the native coin in error sentences. */
  context: { token: string; coin: string };
};
