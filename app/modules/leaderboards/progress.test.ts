import { describe, expect, it } from "vitest";
import { levelOf, speedOf, starsFor } from "./progress";

describe("levels", () => {
  it("follow total XP", () => {
    expect(levelOf(0)).toMatchObject({ level: 1, floor: 0, next: 100, progress: 0 });
    expect(levelOf(99).level).toBe(1);
    expect(levelOf(100)).toMatchObject({ level: 2, floor: 100, next: 300 });
    expect(levelOf(200).progress).toBeCloseTo(0.5);
    expect(levelOf(300).level).toBe(3);
    expect(levelOf(1000).level).toBe(5);
  });
});

describe("stars and speed", () => {
  it("count thresholds reached", () => {
    expect(starsFor(99)).toBe(0);
    expect(starsFor(100)).toBe(1);
    expect(starsFor(12_000)).toBe(5);
  });

  it("compare the last week with the four before", () => {
    expect(speedOf({ lastWeek: 100, fourWeeksBefore: 400 })).toEqual({ lastWeek: 100, average: 100, ratio: 1 });
    expect(speedOf({ lastWeek: 500, fourWeeksBefore: 400 }).ratio).toBe(2);
    expect(speedOf({ lastWeek: 10, fourWeeksBefore: 0 }).ratio).toBe(2);
    expect(speedOf({ lastWeek: 0, fourWeeksBefore: 0 }).ratio).toBe(0);
  });
});
