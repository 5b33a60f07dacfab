import { describe, expect, it } from "vitest";
import { excludedLine } from "./member-excluded-line";

describe("excludedLine", () => {
  it("counts the entrants kept out, by reason, largest first; nothing when nobody was", () => {
    expect(excludedLine({ "below the minimum trust score": 3, "by the project team": 12 })).toBe(
      "15 entrants were excluded: 12 by the project team, 3 below the minimum trust score.",
    );
    expect(excludedLine({ "by the project team": 1 })).toBe("1 entrant was excluded: 1 by the project team.");
    expect(excludedLine({})).toBeNull();
    expect(excludedLine(null)).toBeNull();
  });
});
