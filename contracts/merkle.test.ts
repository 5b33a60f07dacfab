import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import fc from "fast-check";
import { bytesToHex, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { airdropLeaf, airdropTree, airdropTreeNodes, leafNode, proofFromTree, proofNodes, treeRoot, treeSize, type AirdropEntry } from "./merkle.ts";

const entry = (i: number): AirdropEntry => ({ index: BigInt(i), account: `0x${String(i + 1).padStart(40, "0")}`, amount: BigInt(i * 7 + 1) });
const entries = (n: number) => Array.from({ length: n }, (_, i) => entry(i));
const encoding = ["uint256", "address", "uint256"];
const value = (e: AirdropEntry) => [e.index.toString(), e.account, e.amount.toString()];
/** The library's tree over the same values, in leaf-index order. */
const reference = (list: readonly AirdropEntry[]) => StandardMerkleTree.of(list.map(value), encoding, { sortLeaves: false });
const hashes = (tree: Uint8Array) => Array.from({ length: tree.length / 32 }, (_, k) => bytesToHex(tree.subarray(k * 32, k * 32 + 32)));

describe("airdropTree", () => {
  it("is the leaf itself for one entry, with an empty proof", () => {
    expect(airdropTree([entry(0)])).toEqual({ root: airdropLeaf(entry(0)), proofs: [[]] });
  });

  it("gives proofs no longer than the tree is deep, leaves nearer the root shorter", () => {
    const { proofs } = airdropTree(entries(9));
    // Nine leaves: 17 nodes; leaves 0 and 1 are nodes 16 and 15 (depth 4), leaves 2…8 nodes 14…8 (depth 3).
    expect(proofs.map((p) => p.length)).toEqual([4, 4, 3, 3, 3, 3, 3, 3, 3]);
  });

  it("places the leaves at the end of the array in reverse and reads each proof's nodes bottom up", () => {
    expect(treeSize(5)).toBe(9);
    expect([0, 1, 2, 3, 4].map((i) => leafNode(5, i))).toEqual([8, 7, 6, 5, 4]);
    // Leaf 0 is node 8: its sibling 7, then its parent 3's sibling 4, then 1's sibling 2.
    expect(proofNodes(5, 0)).toEqual([7, 4, 2]);
    expect(proofNodes(5, 4)).toEqual([3, 2]);
    expect(proofNodes(1, 0)).toEqual([]);
    expect(() => proofNodes(5, 5)).toThrow("No leaf 5");
    expect(() => proofNodes(5, -1)).toThrow("No leaf -1");
  });

  it("refuses a leaf it cannot encode", () => {
    expect(() => airdropLeaf({ ...entry(0), account: "0x1234" })).toThrow("not an address");
    expect(() => airdropLeaf({ ...entry(0), amount: -1n })).toThrow("not a uint256");
    expect(() => airdropLeaf({ ...entry(0), amount: 2n ** 256n })).toThrow("not a uint256");
    expect(() => airdropLeaf({ ...entry(0), index: -1n })).toThrow("not a uint256");
    expect(() => airdropTreeNodes([entry(0), { ...entry(1), account: "0xzz" as never }])).toThrow("not an address");
  });

  it("refuses an empty airdrop", () => {
    expect(() => airdropTree([])).toThrow("at least one entry");
  });
});

describe("against OpenZeppelin's @openzeppelin/merkle-tree", () => {
  it("hashes a leaf as StandardMerkleTree does, the largest values included", () => {
    const list = [...entries(5), { index: 2n ** 256n - 1n, account: getAddress(`0x${"ff".repeat(20)}`), amount: 2n ** 256n - 1n }];
    const tree = reference(list);
    for (const e of list) expect(airdropLeaf(e)).toBe(tree.leafHash(value(e)));
  });

  it("builds StandardMerkleTree.of's tree (leaves unsorted) for 1 to 70 leaves: the same array, root and proofs", () => {
    for (let n = 1; n <= 70; n++) {
      const list = entries(n);
      const ours = airdropTreeNodes(list);
      const theirs = reference(list);
      expect(treeRoot(ours), `${n} leaves`).toBe(theirs.root);
      expect(hashes(ours), `${n} leaves`).toEqual(theirs.dump().tree);
      const { root, proofs } = airdropTree(list);
      expect(root).toBe(theirs.root);
      list.forEach((e, i) => {
        expect(proofs[i], `leaf ${i} of ${n}`).toEqual(theirs.getProof(i));
        expect(theirs.dump().values[i]!.treeIndex).toBe(leafNode(n, i));
        expect(StandardMerkleTree.verify(root, encoding, value(e), proofs[i]!)).toBe(true);
      });
    }
  });

  it("builds the same tree as the library for bigger trees", () => {
    for (const n of [1_000, 1_024, 1_025, 4_097, 10_001]) {
      const list = entries(n);
      const ours = airdropTreeNodes(list);
      const theirs = reference(list);
      expect(treeRoot(ours), `${n} leaves`).toBe(theirs.root);
      expect(hashes(ours)).toEqual(theirs.dump().tree);
      for (const i of [0, 1, Math.floor(n / 2), n - 2, n - 1]) {
        const proof = proofFromTree(ours, i);
        expect(proof, `leaf ${i} of ${n}`).toEqual(theirs.getProof(i));
        expect(StandardMerkleTree.verify(theirs.root, encoding, value(list[i]!), proof)).toBe(true);
      }
    }
  });

  it("gives every entry the library's proof, which StandardMerkleTree.verify accepts, for random entries", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 96n }), fc.uint8Array({ minLength: 20, maxLength: 20 })), { minLength: 1, maxLength: 40 }),
        (rows) => {
          const list = rows.map(([amount, account], i) => ({ index: BigInt(i), account: getAddress(bytesToHex(account)), amount }));
          const { root, proofs } = airdropTree(list);
          const theirs = reference(list);
          expect(root).toBe(theirs.root);
          list.forEach((e, i) => {
            expect(proofs[i]).toEqual(theirs.getProof(i));
            expect(StandardMerkleTree.verify(root, encoding, value(e), proofs[i]!)).toBe(true);
          });
          // A proof does not verify another entry's amount.
          const other = { ...list[0]!, amount: list[0]!.amount + 1n };
          expect(StandardMerkleTree.verify(root, encoding, value(other), proofs[0]!)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("loads into StandardMerkleTree as a standard-v1 dump", () => {
    const list = entries(13);
    const tree = airdropTreeNodes(list);
    const loaded = StandardMerkleTree.load({
      format: "standard-v1",
      leafEncoding: encoding,
      tree: hashes(tree),
      values: list.map((e, i) => ({ value: value(e), treeIndex: leafNode(13, i) })),
    });
    expect(loaded.root).toBe(treeRoot(tree));
    list.forEach((_, i) => expect(loaded.getProof(i)).toEqual(proofFromTree(tree, i)));
  });
});
