import type { Db } from "~/lib/db.server";
import { listCampaigns, progressOf } from "./campaigns.server";

/** Live campaigns the member has started but not finished: some of their tasks approved, not all. */
export async function campaignsInProgress({ db, userId, now = new Date() }: { db: Db; userId: string; now?: Date }) {
  const live = await listCampaigns({ db, status: "live", now });
  const progress = await progressOf({ db, of: "campaign", ids: live.map((c) => c.id), userId });
  const withProgress = live.map((c) => ({ campaign: c, progress: progress.get(c.id) ?? { done: 0, total: 0 } }));
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
