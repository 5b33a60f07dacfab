import { bytesToHex, keccak256, type Address, type Hex } from "viem";

/** One airdrop entry: leaf `index` pays `amount` to `account`. */
export type AirdropEntry = { index: bigint; account: Address; amount: bigint };

/** A tree level: its nodes' 32-byte hashes, one after another. */
export type TreeLevel = Uint8Array;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const uint256 = (value: bigint, out: Uint8Array, at: number) => {
  if (value < 0n || value >= 2n ** 256n) throw new RangeError(`${value} is not a uint256`);
  out.set(Buffer.from(value.toString(16).padStart(64, "0"), "hex"), at);
};

/** The leaf AirdropDistributor checks: OpenZeppelin's standard double hash of `abi.encode(index, account, amount)`. */
export function airdropLeafBytes({ index, account, amount }: AirdropEntry): Uint8Array {
  const encoded = new Uint8Array(96);
  uint256(index, encoded, 0);
  if (!ADDRESS.test(account)) throw new TypeError(`${account} is not an address`);
  encoded.set(Buffer.from(account.slice(2), "hex"), 44);
  uint256(amount, encoded, 64);
  return keccak256(keccak256(encoded, "bytes"), "bytes");
}

export const airdropLeaf = (entry: AirdropEntry): Hex => bytesToHex(airdropLeafBytes(entry));

/** Hashes a pair in sorted order, as OpenZeppelin's MerkleProof does. */
function hashPair(a: Uint8Array, b: Uint8Array, out: Uint8Array, at: number) {
  const pair = new Uint8Array(64);
  const aFirst = Buffer.compare(a, b) <= 0;
  pair.set(aFirst ? a : b, 0);
  pair.set(aFirst ? b : a, 32);
  out.set(keccak256(pair, "bytes"), at);
}

const node = (level: TreeLevel, position: number) => level.subarray(position * 32, position * 32 + 32);
const size = (level: TreeLevel) => level.length / 32;

/**
 * The tree's levels, leaves first, root last, as `MerkleProof.verify` walks them: nodes paired
 * left to right, an odd node out carried up unchanged. Entry `i` is leaf `i`.
 */
export function airdropTreeLevels(entries: readonly AirdropEntry[]): TreeLevel[] {
  if (entries.length === 0) throw new Error("An airdrop needs at least one entry");
  let level: TreeLevel = new Uint8Array(entries.length * 32);
  entries.forEach((entry, i) => level.set(airdropLeafBytes(entry), i * 32));
  const levels = [level];
  while (size(level) > 1) {
    const count = size(level);
    const next: TreeLevel = new Uint8Array(Math.ceil(count / 2) * 32);
    for (let i = 0; i < count; i += 2) {
      if (i + 1 < count) hashPair(node(level, i), node(level, i + 1), next, (i / 2) * 32);
      else next.set(node(level, i), (i / 2) * 32);
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

/** Where leaf `index`'s proof reads each level: the sibling's position, or null where the node is carried up alone. */
export function proofPositions(leaves: number, index: number): Array<{ level: number; position: number }> {
  const positions: Array<{ level: number; position: number }> = [];
  let count = leaves;
  let position = index;
  for (let level = 0; count > 1; level++) {
    const sibling = position ^ 1;
    if (sibling < count) positions.push({ level, position: sibling });
    position >>= 1;
    count = Math.ceil(count / 2);
  }
  return positions;
}

/** Leaf `index`'s proof read from the levels. */
export function proofFromLevels(levels: readonly TreeLevel[], index: number): Hex[] {
  return proofPositions(size(levels[0]!), index).map(({ level, position }) => bytesToHex(node(levels[level]!, position)));
}

/** The root and each entry's proof, in entry order (for small trees: tests, the gas report). */
export function airdropTree(entries: readonly AirdropEntry[]): { root: Hex; proofs: Hex[][] } {
  const levels = airdropTreeLevels(entries);
  return { root: bytesToHex(levels.at(-1)!), proofs: entries.map((_, i) => proofFromLevels(levels, i)) };
}
