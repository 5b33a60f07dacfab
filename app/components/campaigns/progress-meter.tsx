import { cn } from "~/lib/utils";

/** How much of something is done, as a bar with its count. */
export function ProgressMeter({ done, total, label = "Your progress", className }: { done: number; total: number; label?: string; className?: string }) {
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className={cn("grid gap-1.5", className)}>
      <div className="flex items-center justify-between gap-2 text-xs">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-medium tabular-nums">
          {done}/{total} {total === 1 ? "task" : "tasks"}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} tasks done`}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-lime-600 transition-[width] dark:bg-brand" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
