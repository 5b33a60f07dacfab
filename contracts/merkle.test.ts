import { describe, expect, it } from "vitest";
import { airdropLeaf, airdropTree } from "./merkle.ts";

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

  it("refuses an empty airdrop", () => {
    expect(() => airdropTree([])).toThrow("at least one entry");
  });
});
