import { Flag } from "lucide-react";
import type { ReactNode } from "react";
import { EmptyState } from "~/components/empty-state";
import { CampaignCard, type CampaignCardData } from "./campaign-card";

/** Campaign cards in a responsive grid, or an empty state. */
export function CampaignGrid({
  campaigns,
  now,
  showProject = true,
  emptyTitle,
  emptyText,
  emptyAction,
}: {
  campaigns: CampaignCardData[];
  now: Date | string;
  showProject?: boolean;
  emptyTitle: string;
  emptyText?: ReactNode;
  emptyAction?: ReactNode;
}) {
  if (campaigns.length === 0) {
    return (
      <EmptyState icon={Flag} title={emptyTitle} action={emptyAction}>
        {emptyText}
      </EmptyState>
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {campaigns.map((c) => (
        <li key={c.id} className="grid">
          <CampaignCard campaign={c} now={now} showProject={showProject} />
        </li>
      ))}
    </ul>
  );
}
