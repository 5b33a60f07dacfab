import { Sparkles } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { LevelProgress } from "~/components/leaderboards/level-progress";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";

export type Ranks = { all: number | null; "30d": number | null; "7d": number | null };

/** Total XP and the level it brings; an invitation to start when there is none. */
export function XpCard({ xp }: { xp: number }) {
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Your XP</CardTitle>
        <CardDescription>
          {xp === 0 ? (
            "Earn XP by completing tasks."
          ) : (
            <>
              <span className="text-3xl font-semibold text-foreground tabular-nums">{xp.toLocaleString("en")}</span> XP earned
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {xp === 0 ? (
          <EmptyState
            icon={Sparkles}
            title="Complete a task to earn your first XP"
            action={
              <Button asChild variant="brand">
                <Link to={route("tasks.index")}>Browse tasks</Link>
              </Button>
            }
          />
        ) : (
          <div className="grid gap-3">
            <LevelProgress xp={xp} />
            <p className="text-sm">
              <Link to={route("settings.speedometer")} className="font-medium underline underline-offset-4">
                See your speedometer
              </Link>
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const WINDOWS = [
  { key: "all", label: "All time" },
  { key: "30d", label: "30 days" },
  { key: "7d", label: "7 days" },
] as const;

/** The member's place on the global board in each window, each linking to that board. */
export function RanksCard({ ranks }: { ranks: Ranks }) {
  return (
    <Card className="lg:col-span-1">
      <CardHeader>
        <CardTitle>Global rank</CardTitle>
        <CardDescription>Your place on the leaderboard.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2">
          {WINDOWS.map((w) => (
            <div key={w.key} className="flex items-center justify-between gap-3 rounded-lg border px-3 py-2">
              <dt className="text-sm text-muted-foreground">{w.label}</dt>
              <dd>
                <Link
                  to={route("leaderboard", { window: w.key })}
                  className="font-mono font-semibold tabular-nums hover:underline"
                  aria-label={ranks[w.key] === null ? `${w.label}: not ranked, open the board` : `${w.label}: rank ${ranks[w.key]}, open the board`}
                >
                  {ranks[w.key] === null ? "—" : `#${ranks[w.key]!.toLocaleString("en")}`}
                </Link>
              </dd>
            </div>
          ))}
        </dl>
        {ranks.all === null && <p className="mt-3 text-sm text-muted-foreground">Not ranked yet: your first XP puts you on the board.</p>}
      </CardContent>
    </Card>
  );
}
