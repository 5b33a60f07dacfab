import { CalendarDays, ListChecks } from "lucide-react";
import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { route } from "~/lib/routes";
import type { CampaignStatus } from "~/modules/tasks/campaign-status";
import { CampaignStatusBadge, countdown } from "./campaign-status";
import { LocalTime } from "./local-time";
import { ProgressMeter } from "./progress-meter";

export type CampaignCardData = {
  id: string;
  slug: string;
  name: string;
  description: string;
  status: CampaignStatus;
  startsAt: Date | string;
  endsAt: Date | string;
  tasks: number;
  project: { slug: string; name: string; logoUrl: string | null };
  progress: { done: number; total: number } | null;
};

/** A campaign on an index: what it is, whose, when, how many tasks, and the member's progress. */
export function CampaignCard({ campaign, now, showProject = true }: { campaign: CampaignCardData; now: Date | string; showProject?: boolean }) {
  const when = countdown(campaign, now);
  return (
    <Card className="relative flex flex-col gap-4 p-5 transition-colors focus-within:ring-2 focus-within:ring-ring/50 hover:border-foreground/20">
      <div className="flex items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          {showProject && (
            <span className="flex items-center gap-2 text-xs text-muted-foreground">
              {campaign.project.logoUrl && <img src={campaign.project.logoUrl} alt="" className="size-4 rounded-sm object-cover" />}
              <span className="truncate">{campaign.project.name}</span>
            </span>
          )}
          <h2 className="font-semibold leading-snug wrap-anywhere">
            <Link
              to={route("campaigns.show", { project: campaign.project.slug, campaign: campaign.slug })}
              className="outline-none after:absolute after:inset-0 after:rounded-xl"
            >
              {campaign.name}
            </Link>
          </h2>
        </div>
        <CampaignStatusBadge status={campaign.status} />
      </div>
      {campaign.description && <p className="line-clamp-2 text-sm text-muted-foreground">{campaign.description}</p>}
      <dl className="mt-auto grid gap-1.5 text-sm text-muted-foreground">
        <div className="flex items-center gap-2">
          <dt>
            <CalendarDays className="size-4" aria-label="Dates" />
          </dt>
          <dd className="min-w-0">
            <LocalTime value={campaign.startsAt} dateOnly /> – <LocalTime value={campaign.endsAt} dateOnly />
            {when && <span className="text-foreground"> · {when}</span>}
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt>
            <ListChecks className="size-4" aria-label="Tasks" />
          </dt>
          <dd>
            {campaign.tasks} {campaign.tasks === 1 ? "task" : "tasks"}
          </dd>
        </div>
      </dl>
      {campaign.progress && campaign.progress.total > 0 && <ProgressMeter done={campaign.progress.done} total={campaign.progress.total} />}
    </Card>
  );
}
