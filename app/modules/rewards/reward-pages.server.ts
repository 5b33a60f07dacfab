import { data } from "react-router";
import type { Db } from "~/lib/db.server";
import { authorize } from "~/modules/projects/permissions.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { campaignPage } from "~/modules/tasks/quest-pages.server";
import { balancesOf, projectTreasury } from "~/modules/ledger/ledger.server";
import { poolIn } from "./reward-pools.server";

/**
 * What the create- and edit-reward screens load: the campaign (404 when there is none), the
 * viewer's right to manage its rewards (403 otherwise), whether it has ended, and the pool being
 * edited (404 when it is not one of this campaign's), and the project's treasury per token.
 */
export async function rewardPage({
  db,
  projectSlug,
  campaignSlug,
  poolId,
  userId,
  now = new Date(),
}: {
  db: Db;
  projectSlug: string;
  campaignSlug: string;
  poolId?: string;
  userId: string;
  now?: Date;
}) {
  const { project, campaign } = await campaignPage({ db, projectSlug, campaignSlug, userId });
  await authorize({ db, projectId: project.id, userId, action: "rewards.manage" });
  const pool = poolId ? await poolIn(db, campaign.id, poolId) : null;
  if (poolId && !pool) throw data("Not found", { status: 404 });
  const treasury = (await balancesOf({ db, holders: [projectTreasury(project.id).holder] })).map((b) => ({ asset: b.asset, balance: b.balance }));
  return { project, campaign, pool, treasury, ended: campaignStatus(campaign, now) === "ended" };
}
