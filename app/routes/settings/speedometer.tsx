import { Gauge } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/speedometer";
import { EmptyState } from "~/components/empty-state";
import { LevelProgress } from "~/components/leaderboards/level-progress";
import { describePace, SpeedGauge } from "~/components/leaderboards/speed-gauge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { memberSummary, speedometer } from "~/modules/leaderboards/member-stats.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Speedometer") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const db = context.get(servicesContext).database.db;
  const [speed, summary] = await Promise.all([speedometer({ db, userId: user.id }), memberSummary({ db, userId: user.id })]);
  return { speed, xp: summary.xp };
}

const round = (n: number) => n.toLocaleString("en", { maximumFractionDigits: 1 });

export default function Speedometer({ loaderData: { speed, xp } }: Route.ComponentProps) {
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Speedometer</CardTitle>
          <CardDescription>XP you earned in the last 7 days against your weekly average over the 4 weeks before.</CardDescription>
        </CardHeader>
        <CardContent>
          {xp === 0 ? (
            <EmptyState
              icon={Gauge}
              title="Complete a task to earn your first XP"
              action={
                <Button asChild variant="outline">
                  <Link to={route("tasks.index")}>Browse tasks</Link>
                </Button>
              }
            >
              Your speedometer starts moving with your first XP.
            </EmptyState>
          ) : (
            <div className="grid items-center gap-6 sm:grid-cols-[minmax(0,20rem)_1fr]">
              <SpeedGauge {...speed} />
              <div className="grid gap-4">
                <p className="font-medium">{describePace(speed)}</p>
                <dl className="grid grid-cols-2 gap-4">
                  <div className="grid gap-1">
                    <dt className="text-sm text-muted-foreground">Last 7 days</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{speed.lastWeek.toLocaleString("en")} XP</dd>
                  </div>
                  <div className="grid gap-1">
                    <dt className="text-sm text-muted-foreground">Weekly average</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{round(speed.average)} XP</dd>
                  </div>
                </dl>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Level</CardTitle>
          <CardDescription>Your level follows your total XP: {xp.toLocaleString("en")} XP so far.</CardDescription>
        </CardHeader>
        <CardContent>
          <LevelProgress xp={xp} />
        </CardContent>
      </Card>
    </div>
  );
}
