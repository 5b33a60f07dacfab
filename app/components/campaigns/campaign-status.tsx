import { WindowBadge } from "~/components/containers/window-badge";
import type { CampaignStatus } from "~/modules/tasks/campaign-status";
import { relativeTime } from "./local-time";

const VARIANTS = { draft: "outline", scheduled: "warning", live: "success", ended: "secondary" } as const;
const LABELS: Record<CampaignStatus, string> = { draft: "Draft", scheduled: "Scheduled", live: "Live", ended: "Ended" };

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return <WindowBadge tone={VARIANTS[status]} label={LABELS[status]} live={status === "live"} />;
}

/** "ends in 3 days", "starts in 5 hours", "ended 2 days ago"; nothing for a draft. */
export function countdown(c: { status: CampaignStatus; startsAt: Date | string; endsAt: Date | string }, now: Date | string) {
  if (c.status === "scheduled") return `starts ${relativeTime(c.startsAt, now)}`;
  if (c.status === "live") return `ends ${relativeTime(c.endsAt, now)}`;
  if (c.status === "ended") return `ended ${relativeTime(c.endsAt, now)}`;
  return null;
}
