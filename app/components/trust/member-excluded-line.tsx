import { ShieldAlert } from "lucide-react";

/**
 * "15 entrants were excluded: 12 by the project team, 3 below the minimum trust score": how many a
 * paid pool or a frozen airdrop kept out, by reason, largest first. Counts only, never names: the
 * same words for every visitor. Null when nobody was kept out.
 */
export function excludedLine(counts: Record<string, number> | null | undefined): string | null {
  const reasons = Object.entries(counts ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const total = reasons.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const head = total === 1 ? "1 entrant was excluded" : `${total.toLocaleString("en")} entrants were excluded`;
  return `${head}: ${reasons.map(([words, n]) => `${n.toLocaleString("en")} ${words}`).join(", ")}.`;
}

/** The line above, as a small note; nothing when nobody was kept out. */
export function ExcludedLine({ counts }: { counts: Record<string, number> | null | undefined }) {
  const line = excludedLine(counts);
  if (!line) return null;
  return (
    <p className="flex items-start gap-2 text-xs text-muted-foreground">
      <ShieldAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <span>{line}</span>
    </p>
  );
}
