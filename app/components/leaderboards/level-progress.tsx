import { levelOf } from "~/modules/leaderboards/progress";
import { cn } from "~/lib/utils";

/** A labelled progress bar: the visible numbers say the same as the bar. */
export function ProgressBar({ value, label, className }: { value: number; label: string; className?: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn("h-2 w-full overflow-hidden rounded-full bg-muted", className)}
    >
      <div className="h-full rounded-full bg-lime-600 dark:bg-brand" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** The member's level, XP within it and what is left to the next one. */
export function LevelProgress({ xp }: { xp: number }) {
  const { level, floor, next, progress } = levelOf(xp);
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="text-lg font-semibold">Level {level}</p>
        <p className="text-sm text-muted-foreground tabular-nums">
          {(xp - floor).toLocaleString("en")} / {(next - floor).toLocaleString("en")} XP in this level
        </p>
      </div>
      <ProgressBar value={progress} label={`Progress to level ${level + 1}`} />
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground tabular-nums">{(next - xp).toLocaleString("en")} XP</span> to level {level + 1}
      </p>
    </div>
  );
}
