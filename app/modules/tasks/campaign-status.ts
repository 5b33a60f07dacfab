/** A campaign is a draft until published, then scheduled, live or ended by its dates. */
export type CampaignStatus = "draft" | "scheduled" | "live" | "ended";

export function campaignStatus(c: { publishedAt: Date | null; startsAt: Date; endsAt: Date }, now = new Date()): CampaignStatus {
  if (!c.publishedAt) return "draft";
  if (now < c.startsAt) return "scheduled";
  if (now < c.endsAt) return "live";
  return "ended";
}
