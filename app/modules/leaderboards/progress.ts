/** Levels and stars: pure rules shared by the server and the screens. */

/** Level L is reached at 50·L·(L−1) XP: 0, 100, 300, 600, 1000, 1500… */
export function levelOf(xp: number) {
  const level = Math.floor((1 + Math.sqrt(1 + (8 * Math.max(0, xp)) / 100)) / 2);
  const floor = 50 * level * (level - 1);
  const next = 50 * (level + 1) * level;
  return { level, floor, next, progress: (xp - floor) / (next - floor) };
}

/** One star per threshold reached in a project. */
export const STAR_THRESHOLDS = [100, 500, 1_000, 5_000, 10_000] as const;

export function starsFor(xp: number) {
  return STAR_THRESHOLDS.filter((t) => xp >= t).length;
}

/** The speedometer: this week's XP against the weekly average of the four weeks before. */
export function speedOf({ lastWeek, fourWeeksBefore }: { lastWeek: number; fourWeeksBefore: number }) {
  const average = fourWeeksBefore / 4;
  const ratio = average === 0 ? (lastWeek > 0 ? 2 : 0) : Math.min(2, lastWeek / average);
  return { lastWeek, average, ratio };
}
