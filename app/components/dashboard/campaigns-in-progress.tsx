import { Flag } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { ProgressBar } from "~/components/leaderboards/level-progress";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { route } from "~/lib/routes";

export type CampaignInProgress = {
  id: string;
  slug: string;
  name: string;
  endsAt: Date | string;
  project: { slug: string; name: string };
  done: number;
  total: number;
};

const ENDS = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });

/** Live campaigns the member has started and not finished, with how far they are. */
export function CampaignsInProgress({ campaigns }: { campaigns: CampaignInProgress[] }) {
  return (
    <Card className="lg:col-span-1">
      <CardHeader>
        <CardTitle>Campaigns in progress</CardTitle>
        <CardDescription>Live campaigns you have started.</CardDescription>
      </CardHeader>
      <CardContent>
        {campaigns.length === 0 ? (
          <EmptyState
            icon={Flag}
            title="No campaign in progress"
            action={
              <Button asChild variant="outline" size="sm">
                <Link to={route("campaigns.index")}>Browse campaigns</Link>
              </Button>
            }
          >
            Complete a task of a live campaign to follow it here.
          </EmptyState>
        ) : (
          <ul className="grid gap-4">
            {campaigns.map((c) => (
              <li key={c.id} className="grid gap-1.5">
                <div className="flex items-baseline justify-between gap-3">
                  <Link to={route("campaigns.show", { project: c.project.slug, campaign: c.slug })} className="min-w-0 truncate font-medium hover:underline">
                    {c.name}
                  </Link>
                  <span className="shrink-0 text-sm text-muted-foreground tabular-nums">
                    {c.done}/{c.total} tasks
                  </span>
                </div>
                <ProgressBar value={c.done / c.total} label={`${c.name}: ${c.done} of ${c.total} tasks done`} />
                <p className="text-xs text-muted-foreground">
                  {c.project.name} · ends {ENDS.format(new Date(c.endsAt))}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
