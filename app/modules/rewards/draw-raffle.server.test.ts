import { describe, expect, it } from "vitest";
import { drawRaffle, newRaffleSeed } from "./draw-raffle.server";

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
});
