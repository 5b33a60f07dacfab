import { Flag } from "lucide-react";
import type { ReactNode } from "react";
import { ContainerGrid } from "~/components/containers/container-grid";
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
  return (
    <ContainerGrid items={campaigns} empty={{ icon: Flag, title: emptyTitle, text: emptyText, action: emptyAction }}>
      {(c) => <CampaignCard campaign={c} now={now} showProject={showProject} />}
    </ContainerGrid>
  );
}
