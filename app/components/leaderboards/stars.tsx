import { Star } from "lucide-react";
import { STAR_THRESHOLDS } from "~/modules/leaderboards/progress";
import { cn } from "~/lib/utils";

/** Stars earned out of five, drawn as icons and read out as text. */
export function Stars({ count }: { count: number }) {
  return (
    <span className="inline-flex items-center gap-0.5">
      {STAR_THRESHOLDS.map((threshold, i) => (
        <Star key={threshold} aria-hidden className={cn("size-4", i < count ? "fill-amber-400 text-amber-500" : "text-muted-foreground/40")} />
      ))}
      <span className="sr-only">
        {count} of {STAR_THRESHOLDS.length} stars
      </span>
    </span>
  );
}

/** The XP at which the next star comes, or null when all are earned. */
export function nextStarAt(xp: number) {
  return STAR_THRESHOLDS.find((t) => xp < t) ?? null;
}
