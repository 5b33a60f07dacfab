import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { drawRaffle } from "./draw-raffle";
import { newRaffleSeed } from "./draw-raffle.server";

const entrants = Array.from({ length: 50 }, (_, i) => `member-${i}`);

describe("the raffle draw", () => {
  it("is the same for the same seed and entrants, and differs with the seed", () => {
    const seed = "a".repeat(64);
    const first = drawRaffle({ seed, entrants, winners: 10 });
    expect(drawRaffle({ seed, entrants, winners: 10 })).toEqual(first);
    expect(new Set(first).size).toBe(10);
    for (const winner of first) expect(entrants).toContain(winner);
    // Drawing fewer winners gives the first ones of the longer draw.
    expect(drawRaffle({ seed, entrants, winners: 3 })).toEqual(first.slice(0, 3));
    expect(drawRaffle({ seed: "b".repeat(64), entrants, winners: 10 })).not.toEqual(first);
  });

  it("is pinned: this seed and these entrants always give these winners", () => {
    expect(drawRaffle({ seed: "questline", entrants: ["ann", "bob", "cat", "dan", "eve"], winners: 2 })).toMatchInlineSnapshot(`
      [
        "eve",
        "dan",
      ]
    `);
  });

  it("gives every entrant when there are fewer entrants than winners, and nobody when there are none", () => {
    expect(drawRaffle({ seed: newRaffleSeed(), entrants: ["a", "b"], winners: 5 }).sort()).toEqual(["a", "b"]);
    expect(drawRaffle({ seed: newRaffleSeed(), entrants: [], winners: 5 })).toEqual([]);
  });

  it("gives every entrant the same chance", () => {
    const wins = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const [winner] = drawRaffle({ seed: `seed-${i}`, entrants: ["a", "b", "c"], winners: 1 });
      wins.set(winner!, (wins.get(winner!) ?? 0) + 1);
    }
    for (const id of ["a", "b", "c"]) expect(Math.abs(wins.get(id)! - 1000)).toBeLessThan(120);
  });

  it("agrees with the draw as first written with node:crypto, so raffles drawn before the move still verify", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 70 }), fc.uniqueArray(fc.string(), { maxLength: 40 }), fc.nat(45), (seed, entrants, winners) => {
        expect(drawRaffle({ seed, entrants, winners })).toEqual(drawWithNodeCrypto({ seed, entrants, winners }));
      }),
    );
  });
});

/** The draw as draw-raffle.server.ts had it, with node:crypto's SHA-256 and Buffer reads. */
function drawWithNodeCrypto({ seed, entrants, winners }: { seed: string; entrants: string[]; winners: number }): string[] {
  const order = [...entrants];
  const draws = Math.min(winners, order.length);
  for (let i = 0; i < draws; i++) {
    const m = order.length - i;
    const limit = 2 ** 48 - (2 ** 48 % m);
    let x = limit;
    for (let attempt = 0; x >= limit; attempt++) x = createHash("sha256").update(`${seed}:${i}:${attempt}`).digest().readUIntBE(0, 6);
    const j = i + (x % m);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, draws);
}
