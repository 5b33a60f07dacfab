import type { Db } from "~/lib/db.server";
import { campaignProgress, listCampaigns } from "./campaigns.server";

/** Live campaigns the member has started but not finished: some of their tasks approved, not all. */
export async function campaignsInProgress({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }) {
  const live = await listCampaigns({ db, status: "live", now });
  const withProgress = await Promise.all(live.map(async (c) => ({ campaign: c, progress: await campaignProgress({ db, campaignId: c.id, userId }) })));
  return withProgress
    .filter(({ progress }) => progress.done > 0 && progress.done < progress.total)
    .map(({ campaign, progress }) => ({
      id: campaign.id,
      slug: campaign.slug,
      name: campaign.name,
      endsAt: campaign.endsAt,
      project: campaign.project,
      done: progress.done,
      total: progress.total,
    }));
}
