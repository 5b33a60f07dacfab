import { bytesToHex, keccak256, type Address, type Hex } from "viem";

/** One airdrop entry: leaf `index` pays `amount` to `account`. */
export type AirdropEntry = { index: bigint; account: Address; amount: bigint };

/**
 * A whole tree in `@openzeppelin/merkle-tree`'s array layout, its nodes' 32-byte hashes one after
 * another: node 0 is the root, node k hashes nodes 2k+1 and 2k+2, and the n leaves fill the last n
 * places in reverse (leaf i is node 2n−2−i). The same array as `StandardMerkleTree.of(values,
 * ["uint256", "address", "uint256"], { sortLeaves: false }).dump().tree`, as bytes.
 */
export type TreeNodes = Uint8Array;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const MAX_UINT256 = 2n ** 256n;

/** Nodes in a tree of `leaves` leaves. */
export const treeSize = (leaves: number) => 2 * leaves - 1;

/** Where leaf `index` sits in a tree of `leaves` leaves (the `treeIndex` of its value in a `standard-v1` dump). */
export const leafNode = (leaves: number, index: number) => 2 * leaves - 2 - index;

/** Writes the 96 bytes of `abi.encode(index, account, amount)` into `out` (a Buffer, 96 bytes). */
function encodeLeaf({ index, account, amount }: AirdropEntry, out: Buffer) {
  if (!ADDRESS.test(account)) throw new TypeError(`${account} is not an address`);
  if (index < 0n || index >= MAX_UINT256) throw new RangeError(`${index} is not a uint256`);
  if (amount < 0n || amount >= MAX_UINT256) throw new RangeError(`${amount} is not a uint256`);
  out.fill(0);
  out.write(index.toString(16).padStart(64, "0"), 0, "hex");
  out.write(account.slice(2), 44, "hex");
  out.write(amount.toString(16).padStart(64, "0"), 64, "hex");
}

/** The leaf AirdropDistributor checks: OpenZeppelin's standard double hash of `abi.encode(index, account, amount)`. */
export function airdropLeafBytes(entry: AirdropEntry): Uint8Array {
  const encoded = Buffer.alloc(96);
  encodeLeaf(entry, encoded);
  return keccak256(keccak256(encoded, "bytes"), "bytes");
}

export const airdropLeaf = (entry: AirdropEntry): Hex => bytesToHex(airdropLeafBytes(entry));

/**
 * The tree over the entries (entry `i` is leaf `i`), built as `StandardMerkleTree.of` builds it
 * without sorting the leaves: each node hashes its two children in sorted order, as OpenZeppelin's
 * MerkleProof does. One array of (2n−1) × 32 bytes, no hex strings: a million leaves in about 25 s,
 * nearly all of it keccak (the library, on hex strings, takes about four times as long).
 */
export function airdropTreeNodes(entries: readonly AirdropEntry[]): TreeNodes {
  const leaves = entries.length;
  if (leaves === 0) throw new Error("An airdrop needs at least one entry");
  const tree: TreeNodes = new Uint8Array(treeSize(leaves) * 32);
  const encoded = Buffer.alloc(96);
  for (let i = 0; i < leaves; i++) {
    encodeLeaf(entries[i]!, encoded);
    tree.set(keccak256(keccak256(encoded, "bytes"), "bytes"), leafNode(leaves, i) * 32);
  }
  const swapped = new Uint8Array(64);
  for (let k = leaves - 2; k >= 0; k--) {
    // The children 2k + 1 and 2k + 2 lie side by side: hashed in place when already in order.
    const left = (2 * k + 1) * 32;
    let order = 0;
    for (let b = 0; b < 32 && order === 0; b++) order = tree[left + b]! - tree[left + 32 + b]!;
    let pair = tree.subarray(left, left + 64);
    if (order > 0) {
      swapped.set(pair.subarray(32), 0);
      swapped.set(pair.subarray(0, 32), 32);
      pair = swapped;
    }
    tree.set(keccak256(pair, "bytes"), k * 32);
  }
  return tree;
}

/** The root of a built tree. */
export const treeRoot = (tree: TreeNodes): Hex => bytesToHex(tree.subarray(0, 32));

/**
 * The nodes leaf `index`'s proof is made of, bottom up, as the library's `getProof` reads them:
 * the sibling of node j (j + 1 when j is odd, j − 1 when it is even), then its parent's, up to
 * the root. As many as the leaf is deep (about 20 for a million leaves), none for a single leaf.
 */
export function proofNodes(leaves: number, index: number): number[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves) throw new RangeError(`No leaf ${index} in a tree of ${leaves}`);
  const nodes: number[] = [];
  for (let j = leafNode(leaves, index); j > 0; j = (j - 1) >>> 1) nodes.push(j % 2 === 1 ? j + 1 : j - 1);
  return nodes;
}

/** Leaf `index`'s proof read from a built tree. */
export function proofFromTree(tree: TreeNodes, index: number): Hex[] {
  const leaves = (tree.length / 32 + 1) / 2;
  return proofNodes(leaves, index).map((node) => bytesToHex(tree.subarray(node * 32, node * 32 + 32)));
}

/** The root and each entry's proof, in entry order (for small trees: tests, the gas report). */
export function airdropTree(entries: readonly AirdropEntry[]): { root: Hex; proofs: Hex[][] } {
  const tree = airdropTreeNodes(entries);
  return { root: treeRoot(tree), proofs: entries.map((_, i) => proofFromTree(tree, i)) };
}
