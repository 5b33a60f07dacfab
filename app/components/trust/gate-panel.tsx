import { CircleCheck, CircleHelp, CircleX, ShieldCheck } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { cn } from "~/lib/utils";
import { COMBINE_WORDS, ruleCounts } from "~/modules/trust/gate-words";
import type { GateCombine } from "~/modules/trust/trust-types";

/** A gate as its page shows it (eligibility.server.ts `gatePanelOf`). */
export type GatePanelView = {
  combine: GateCombine;
  passes: boolean | "unknown" | null;
  rules: { words: string; state: "met" | "unmet" | "unknown" | null }[];
};

const MARKS = {
  good: { icon: CircleCheck, label: "Met", className: "text-emerald-600 dark:text-emerald-400" },
  bad: { icon: CircleX, label: "Not met", className: "text-destructive" },
  unknown: { icon: CircleHelp, label: "Could not be checked now", className: "text-muted-foreground" },
} as const;

/**
 * "What you still need" before a member starts: how the rules combine, each rule in words and,
 * for a signed-in member, a mark saying whether it holds for them (a "none" gate marks a rule
 * the member meets as the problem). Visitors see the rules without marks.
 */
export function GatePanel({ gate, what, compact = false }: { gate: GatePanelView; what: string; compact?: boolean }) {
  const summary =
    gate.passes === null
      ? `Who may take part in this ${what}. ${COMBINE_WORDS[gate.combine]}:`
      : gate.passes === true
        ? `You may take part in this ${what}.`
        : gate.passes === "unknown"
          ? `Whether you may take part could not be fully checked now. ${COMBINE_WORDS[gate.combine]}:`
          : `What you still need. ${COMBINE_WORDS[gate.combine]}:`;
  const list = (
    <ul className="grid gap-2 text-sm">
      {gate.rules.map((rule, i) => {
        const mark = rule.state === null ? null : MARKS[ruleCounts(gate.combine, rule.state)];
        const Icon = mark?.icon;
        return (
          <li key={i} className="flex items-start gap-2 wrap-anywhere">
            {mark && Icon ? (
              <>
                <Icon className={cn("mt-0.5 size-4 shrink-0", mark.className)} aria-hidden />
                <span className="sr-only">{mark.label}:</span>
              </>
            ) : (
              <span className="mt-2 size-1.5 shrink-0 rounded-full bg-muted-foreground" aria-hidden />
            )}
            <span>{rule.words}</span>
          </li>
        );
      })}
    </ul>
  );
  if (compact) {
    return (
      <div className="grid gap-2 rounded-md border border-dashed p-3" role="group" aria-label={`Who may take part in this ${what}`}>
        <p className="text-xs text-muted-foreground">{summary}</p>
        {list}
      </div>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <ShieldCheck className="size-4" aria-hidden /> Who may take part
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm text-muted-foreground">{summary}</p>
        {list}
      </CardContent>
    </Card>
  );
}
