import { parseSignature, type Address, type Hex } from "viem";
import type { TestChain } from "./test-chain.ts";

/** Signs an EIP-2612 permit of QuestToken (domain name "Questline", version 1) and splits it for the contract. */
export async function signPermit({
  chain,
  walletIndex,
  token,
  spender,
  value,
  nonce = 0n,
  deadline,
}: {
  chain: TestChain;
  walletIndex: number;
  token: Address;
  spender: Address;
  value: bigint;
  nonce?: bigint;
  deadline: bigint;
}): Promise<{ deadline: bigint; v: number; r: Hex; s: Hex }> {
  const owner = chain.wallets[walletIndex]!;
  const signature = await owner.signTypedData({
    domain: { name: "Questline", version: "1", chainId: 31337, verifyingContract: token },
    types: {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit",
    message: { owner: owner.account.address, spender, value, nonce, deadline },
  });
  const { r, s, v, yParity } = parseSignature(signature);
  return { deadline, v: Number(v ?? BigInt(yParity + 27)), r, s };
}
