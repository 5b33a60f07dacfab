import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate, type Standing } from "./allocation";

const wallet = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}` as const;

/** A board: points best first (ties allowed), some members without a wallet. */
const board = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.boolean()), { maxLength: 60 })
  .map((rows) => rows.map(([points, linked], i) => ({ userId: `m${i}`, points, account: linked ? wallet(i) : null })).sort((a, b) => b.points - a.points));

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

describe("pro_rata", () => {
  it("shares the total exactly among eligible members, in proportion to points, rounded down but for the dust", () => {
    fc.assert(
      fc.property(board, fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 0, max: 5_000 }), (standings, total, minPoints) => {
        const { allocations, claimable, unclaimable } = allocate(standings, { kind: "pro_rata", total, minPoints });
        const eligible = standings.filter((s) => s.points >= Math.max(1, minPoints));
        expect(allocations.map((a) => a.userId)).toEqual(eligible.map((s) => s.userId));
        if (eligible.length === 0) {
          expect(claimable + unclaimable).toBe(0n);
          return;
        }
        expect(sum(allocations.map((a) => a.amount))).toBe(total);
        expect(claimable + unclaimable).toBe(total);
        const points = BigInt(eligible.reduce((n, s) => n + s.points, 0));
        allocations.forEach((a, i) => {
          const share = (total * BigInt(a.points)) / points;
          // Only the last-ranked eligible member gets the dust, which is less than one unit per member.
          if (i < allocations.length - 1) expect(a.amount).toBe(share);
          else expect(a.amount - share).toBeLessThan(BigInt(allocations.length));
        });
      }),
    );
  });

  it("leaves out members below the minimum and numbers the claimable leaves 0, 1, 2… in rank order", () => {
    const standings: Standing[] = [
      { userId: "a", points: 50, account: wallet(0) },
      { userId: "b", points: 30, account: null },
      { userId: "c", points: 20, account: wallet(2) },
      { userId: "d", points: 9, account: wallet(3) },
    ];
    const { allocations, claimable, unclaimable } = allocate(standings, { kind: "pro_rata", total: 1000n, minPoints: 10 });
    expect(allocations).toEqual([
      { userId: "a", rank: 1, points: 50, amount: 500n, account: wallet(0), index: 0 },
      { userId: "b", rank: 2, points: 30, amount: 300n, account: null, index: null },
      { userId: "c", rank: 3, points: 20, amount: 200n, account: wallet(2), index: 1 },
    ]);
    expect([claimable, unclaimable]).toEqual([700n, 300n]);
  });

  it("gives the dust to the last-ranked eligible member", () => {
    const standings = ["a", "b", "c"].map((userId, i) => ({ userId, points: 1, account: wallet(i) }));
    expect(allocate(standings, { kind: "pro_rata", total: 100n, minPoints: 0 }).allocations.map((a) => a.amount)).toEqual([33n, 33n, 34n]);
  });
});

describe("top", () => {
  it("pays the best N eligible members their rank's amount, in board order (ties: who reached the points first)", () => {
    fc.assert(
      fc.property(
        board,
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 24n }), { maxLength: 10 }),
        fc.integer({ min: 0, max: 5_000 }),
        (standings, amounts, minPoints) => {
          const { allocations, claimable, unclaimable } = allocate(standings, { kind: "top", amounts, minPoints });
          const eligible = standings.filter((s) => s.points >= Math.max(1, minPoints)).slice(0, amounts.length);
          expect(allocations.map((a) => [a.userId, a.rank, a.amount])).toEqual(eligible.map((s, i) => [s.userId, i + 1, amounts[i]]));
          expect(claimable + unclaimable).toBe(sum(allocations.map((a) => a.amount)));
          expect(claimable + unclaimable <= sum(amounts)).toBe(true);
          const leaves = allocations.filter((a) => a.index !== null);
          expect(leaves.map((a) => a.index)).toEqual(leaves.map((_, i) => i));
          expect(leaves.every((a) => a.account !== null && a.amount > 0n)).toBe(true);
        },
      ),
    );
  });
});
