import { CalendarDays, ListChecks } from "lucide-react";
import { ContainerCard } from "~/components/containers/container-card";
import { WindowDates } from "~/components/containers/container-window";
import { route } from "~/lib/routes";
import type { CampaignStatus } from "~/modules/tasks/campaign-status";
import { CampaignStatusBadge, countdown } from "./campaign-status";
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
  return (
    <ContainerCard
      to={route("campaigns.show", { project: campaign.project.slug, campaign: campaign.slug })}
      name={campaign.name}
      description={campaign.description}
      project={showProject ? campaign.project : null}
      badge={<CampaignStatusBadge status={campaign.status} />}
      facts={[
        { icon: CalendarDays, label: "Dates", content: <WindowDates startsAt={campaign.startsAt} endsAt={campaign.endsAt} when={countdown(campaign, now)} /> },
        { icon: ListChecks, label: "Tasks", content: `${campaign.tasks} ${campaign.tasks === 1 ? "task" : "tasks"}` },
      ]}
      footer={campaign.progress && campaign.progress.total > 0 && <ProgressMeter done={campaign.progress.done} total={campaign.progress.total} />}
    />
  );
}
