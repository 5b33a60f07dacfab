import { concat, encodeAbiParameters, keccak256, type Address, type Hex } from "viem";

/** One airdrop entry: leaf `index` pays `amount` to `account`. */
export type AirdropEntry = { index: bigint; account: Address; amount: bigint };

/** The leaf AirdropDistributor checks: OpenZeppelin's standard double hash of `abi.encode(index, account, amount)`. */
export function airdropLeaf({ index, account, amount }: AirdropEntry): Hex {
  return keccak256(keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "address" }, { type: "uint256" }], [index, account, amount])));
}

/** Hashes a pair in sorted order, as OpenZeppelin's MerkleProof does. */
function hashPair(a: Hex, b: Hex): Hex {
  return BigInt(a) < BigInt(b) ? keccak256(concat([a, b])) : keccak256(concat([b, a]));
}

/**
 * A Merkle tree over airdrop entries that `MerkleProof.verify` accepts: levels built pairwise,
 * an odd node out carried up unchanged. Returns the root and each entry's proof, in entry order.
 */
export function airdropTree(entries: readonly AirdropEntry[]): { root: Hex; proofs: Hex[][] } {
  if (entries.length === 0) throw new Error("An airdrop needs at least one entry");
  let level = entries.map(airdropLeaf);
  // positions[i]: where entry i's running hash sits in the current level.
  let positions = entries.map((_, i) => i);
  const proofs: Hex[][] = entries.map(() => []);
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? hashPair(level[i]!, level[i + 1]!) : level[i]!);
    positions = positions.map((position, entry) => {
      const sibling = position ^ 1;
      if (sibling < level.length) proofs[entry]!.push(level[sibling]!);
      return position >> 1;
    });
    level = next;
  }
  return { root: level[0]!, proofs };
}
