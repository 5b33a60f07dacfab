import { Star } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/starboard";
import { EmptyState } from "~/components/empty-state";
import { StarboardTable } from "~/components/leaderboards/starboard-table";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { requireUser } from "~/modules/auth/session.server";
import { starboard } from "~/modules/leaderboards/member-stats.server";
import { STAR_THRESHOLDS } from "~/modules/leaderboards/progress";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Starboard") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  return { rows: await starboard({ db: context.get(servicesContext).database.db, userId: user.id }) };
}

export default function Starboard({ loaderData: { rows } }: Route.ComponentProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Starboard</CardTitle>
        <CardDescription>One star per XP threshold you reach in a project: {STAR_THRESHOLDS.map((t) => t.toLocaleString("en")).join(", ")} XP.</CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <EmptyState
            icon={Star}
            title="No stars yet"
            action={
              <Button asChild variant="outline">
                <Link to={route("projects.index")}>Browse projects</Link>
              </Button>
            }
          >
            Earn XP in a project to collect its stars. Your first comes at {STAR_THRESHOLDS[0]} XP.
          </EmptyState>
        ) : (
          <StarboardTable rows={rows} />
        )}
      </CardContent>
    </Card>
  );
}
