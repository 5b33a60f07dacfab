import type { Route } from "./+types/dashboard";
import { BalanceCard } from "~/components/dashboard/balance-card";
import { CampaignsInProgress } from "~/components/dashboard/campaigns-in-progress";
import { displayNameOf, ProfileCards } from "~/components/dashboard/profile-cards";
import { RanksCard, XpCard } from "~/components/dashboard/progress-cards";
import { RewardsCard } from "~/components/dashboard/rewards-card";
import { TokenCard } from "~/components/dashboard/token-card";
import { TrendingTasks } from "~/components/dashboard/trending-tasks";
import { PageHeader } from "~/components/page-header";
import { useAppName } from "~/hooks/root-data";
import { pageTitle } from "~/lib/meta";
import { servicesContext } from "~/services/services.server";
import { InvitationsCard } from "~/components/projects/invitations-card";
import { invitationCards } from "~/modules/projects/invitation-cards.server";
import { requireUser } from "~/modules/auth/session.server";
import { assetParts } from "~/modules/ledger/assets";
import { balanceOf } from "~/modules/ledger/ledger.server";
import { CHAIN_NAMES } from "~/wallet/chains";
import { memberSummary } from "~/modules/leaderboards/member-stats.server";
import { memberRewards } from "~/modules/rewards/member-rewards.server";
import { withDecimals } from "~/modules/rewards/pool-decimals.server";
import { campaignsInProgress } from "~/modules/tasks/member-campaigns.server";
import { TASK_TYPE_LABELS } from "~/modules/tasks/task-types";
import { trendingTasks } from "~/modules/tasks/trending.server";
import { getProfile } from "~/modules/users/profile.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Dashboard") }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(context, request);
  const { database, chains } = context.get(servicesContext);
  const db = database.db;
  const [profile, summary, campaigns, trending, invitations, balances, rewards] = await Promise.all([
    getProfile({ db, userId: user.id }),
    memberSummary({ db, userId: user.id }),
    campaignsInProgress({ db, userId: user.id }),
    trendingTasks({ db, limit: 4 }),
    invitationCards({ db, userId: user.id }),
    balanceOf({ db, userId: user.id }),
    memberRewards({ db, userId: user.id, filter: "won", limit: 4 }),
  ]);
  if (!profile) throw new Response("Not found", { status: 404 });
  return {
    profile,
    xp: summary.xp,
    ranks: summary.ranks,
    campaigns,
    invitations,
    rewards: withDecimals(chains, rewards.items),
    balances: balances.map((b) => {
      const { symbol, chainId } = assetParts(b.asset);
      return { asset: b.asset, symbol, chainName: CHAIN_NAMES[chainId] ?? `chain ${chainId}`, available: b.available.toString(), held: b.held.toString() };
    }),
    trending: trending.map(({ task, project, recent }) => ({
      id: task.id,
      title: task.title,
      xp: task.xp,
      typeLabel: TASK_TYPE_LABELS[task.type],
      project: { name: project.name },
      recent,
    })),
  };
}

export default function Dashboard({ loaderData: { profile, xp, ranks, campaigns, trending, invitations, balances, rewards } }: Route.ComponentProps) {
  const appName = useAppName();
  return (
    <>
      <PageHeader title={`Welcome, ${displayNameOf(profile)}`} description={`Your ${appName} home.`} />
      <div className="mb-4">
        <InvitationsCard invitations={invitations} />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <ProfileCards profile={profile} />
        <XpCard xp={xp} />
        <RanksCard ranks={ranks} />
        <BalanceCard balances={balances} />
        <RewardsCard rewards={rewards} />
        <TokenCard />
        <TrendingTasks tasks={trending} />
        <CampaignsInProgress campaigns={campaigns} />
      </div>
    </>
  );
}
