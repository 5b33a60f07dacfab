import { ShieldCheck } from "lucide-react";
import { LocalTime } from "~/components/campaigns/local-time";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

export type OwnTrust = {
  score: number;
  flagged: boolean;
  computedAt: Date | string;
  reasons: { code: string; points: number; words: string }[];
} | null;

/** The member's own trust score and each reason behind it, in words; or that it is not computed yet. */
export function MemberTrustCard({ trust }: { trust: OwnTrust }) {
  return (
    <Card role="region" aria-labelledby="trust-score-title">
      <CardHeader>
        <CardTitle id="trust-score-title" className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-lime-600 dark:text-brand" aria-hidden /> Your trust score
        </CardTitle>
        <CardDescription>
          Projects see a score from 0 to 100 for the members who take part, with its reasons, to keep one person with many accounts from taking the rewards
          meant for many. Only you and the teams of the projects you take part in see yours.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 pt-3 text-sm">
        {!trust ? (
          <p className="text-muted-foreground">Your score has not been computed yet.</p>
        ) : (
          <>
            <p className="flex flex-wrap items-baseline gap-3">
              <span className="text-3xl font-semibold tabular-nums">{trust.score}</span>
              <span className="text-muted-foreground">out of 100</span>
              {trust.flagged && <Badge variant="warning">Flagged to project teams</Badge>}
            </p>
            {trust.reasons.length === 0 ? (
              <p className="text-muted-foreground">Nothing moved your score from where every member starts.</p>
            ) : (
              <ul className="grid divide-y rounded-lg border" aria-label="What your score is made of">
                {trust.reasons.map((r) => (
                  <li key={`${r.code}-${r.words}`} className="flex items-start justify-between gap-3 px-3 py-2">
                    <span>{r.words}</span>
                    <span className={`shrink-0 font-medium tabular-nums ${r.points < 0 ? "text-destructive" : "text-lime-700 dark:text-brand"}`}>
                      {r.points > 0 ? `+${r.points}` : r.points}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <p className="text-xs text-muted-foreground">
              Computed <LocalTime value={trust.computedAt} />.
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
