import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import fc from "fast-check";
import { bytesToHex, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { airdropLeaf, airdropTree, airdropTreeLevels, proofFromLevels } from "./merkle.ts";

const entry = (i: number) => ({ index: BigInt(i), account: `0x${String(i + 1).padStart(40, "0")}` as const, amount: BigInt(i * 7 + 1) });

describe("airdropTree", () => {
  it("is the leaf itself for one entry, with an empty proof", () => {
    expect(airdropTree([entry(0)])).toEqual({ root: airdropLeaf(entry(0)), proofs: [[]] });
  });

  it("gives proofs no longer than the tree is deep", () => {
    const { proofs } = airdropTree(Array.from({ length: 9 }, (_, i) => entry(i)));
    for (const proof of proofs) expect(proof.length).toBeLessThanOrEqual(4);
    expect(proofs[8]).toHaveLength(1); // the ninth leaf is carried up alone until the top
  });

  it("refuses a leaf it cannot encode", () => {
    expect(() => airdropLeaf({ ...entry(0), account: "0x1234" })).toThrow("not an address");
    expect(() => airdropLeaf({ ...entry(0), amount: -1n })).toThrow("not a uint256");
    expect(() => airdropLeaf({ ...entry(0), amount: 2n ** 256n })).toThrow("not a uint256");
  });

  it("refuses an empty airdrop", () => {
    expect(() => airdropTree([])).toThrow("at least one entry");
  });
});

describe("against OpenZeppelin's @openzeppelin/merkle-tree", () => {
  const encoding = ["uint256", "address", "uint256"];
  const value = (e: ReturnType<typeof entry>) => [e.index.toString(), e.account, e.amount.toString()];

  it("hashes a leaf as StandardMerkleTree does", () => {
    const entries = Array.from({ length: 5 }, (_, i) => entry(i));
    const reference = StandardMerkleTree.of(entries.map(value), encoding);
    for (const e of entries) expect(airdropLeaf(e)).toBe(reference.leafHash(value(e)));
  });

  it("gives every entry a proof that StandardMerkleTree.verify accepts, for trees of any size", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 96n }), fc.uint8Array({ minLength: 20, maxLength: 20 })), { minLength: 1, maxLength: 40 }),
        (rows) => {
          const entries = rows.map(([amount, account], i) => ({ index: BigInt(i), account: getAddress(bytesToHex(account)), amount }));
          const { root, proofs } = airdropTree(entries);
          entries.forEach((e, i) => expect(StandardMerkleTree.verify(root, encoding, value(e), proofs[i]!)).toBe(true));
          // A proof does not verify another entry's amount.
          const other = { ...entries[0]!, amount: entries[0]!.amount + 1n };
          expect(StandardMerkleTree.verify(root, encoding, value(other), proofs[0]!)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads the same proofs from the levels as it builds for the whole tree", () => {
    const entries = Array.from({ length: 13 }, (_, i) => entry(i));
    const levels = airdropTreeLevels(entries);
    const { proofs } = airdropTree(entries);
    entries.forEach((_, i) => expect(proofFromLevels(levels, i)).toEqual(proofs[i]));
  });
});
