/** How this week compares with the usual week, in words. */
export function describePace({ lastWeek, average, ratio }: { lastWeek: number; average: number; ratio: number }) {
  if (lastWeek === 0 && average === 0) return "No XP in the last five weeks";
  if (average === 0) return "Faster than ever: no XP in the four weeks before";
  const times = lastWeek / average;
  const shown = `${times.toLocaleString("en", { maximumFractionDigits: 1 })}×`;
  if (ratio >= 2) return `${shown} your weekly average, off the scale`;
  if (times > 1.05) return `${shown} your weekly average: faster than usual`;
  if (times >= 0.95) return `${shown} your weekly average: on pace`;
  return `${shown} your weekly average: slower than usual`;
}

const CX = 100;
const CY = 110;
const R = 80;
/** A point on the dial: 0 is the left end, 2 (twice the average) the right end, 1 the top. */
const point = (ratio: number, radius = R) => {
  const angle = Math.PI * (1 - ratio / 2);
  return { x: CX + radius * Math.cos(angle), y: CY - radius * Math.sin(angle) };
};

/**
 * The speedometer: a half dial from 0 to twice the weekly average, the needle at this week's XP.
 * One picture with a text alternative; the numbers are shown beside it too.
 */
export function SpeedGauge({ lastWeek, average, ratio }: { lastWeek: number; average: number; ratio: number }) {
  const needle = point(ratio, R - 14);
  const arc = `M ${CX - R} ${CY} A ${R} ${R} 0 0 1 ${CX + R} ${CY}`;
  const mark = (r: number) => ({ from: point(r, R - 12), to: point(r, R + 12) });
  const avg = mark(1);
  return (
    <svg viewBox="0 0 200 132" role="img" aria-label={`Speedometer: ${describePace({ lastWeek, average, ratio })}`} className="w-full max-w-xs">
      <path d={arc} fill="none" strokeWidth="16" strokeLinecap="round" className="stroke-muted" />
      {ratio > 0 && (
        <path
          d={arc}
          fill="none"
          strokeWidth="16"
          strokeLinecap="round"
          pathLength={100}
          strokeDasharray={`${(ratio / 2) * 100} 100`}
          className="stroke-lime-600 dark:stroke-brand"
        />
      )}
      <line x1={avg.from.x} y1={avg.from.y} x2={avg.to.x} y2={avg.to.y} strokeWidth="2" className="stroke-foreground/60" />
      <line x1={CX} y1={CY} x2={needle.x} y2={needle.y} strokeWidth="4" strokeLinecap="round" className="stroke-foreground" />
      <circle cx={CX} cy={CY} r="7" className="fill-foreground" />
      <g className="fill-muted-foreground text-[10px]" aria-hidden>
        <text x={CX - R} y={CY + 18} textAnchor="middle">
          0
        </text>
        <text x={CX} y={CY - R - 16} textAnchor="middle">
          avg
        </text>
        <text x={CX + R} y={CY + 18} textAnchor="middle">
          2×
        </text>
      </g>
    </svg>
  );
}
