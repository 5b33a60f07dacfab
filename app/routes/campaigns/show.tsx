import { useLocation } from "react-router";
import type { Route } from "./+types/show";
import { CampaignProgress } from "~/components/campaigns/campaign-header";
import { CampaignStatusBadge, countdown } from "~/components/campaigns/campaign-status";
import { LocalTime } from "~/components/campaigns/local-time";
import { ContainerActions } from "~/components/containers/container-actions";
import { ContainerTasks } from "~/components/containers/container-tasks";
import { ContainerWindow } from "~/components/containers/container-window";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { XpRewardCard } from "~/components/campaigns/reward-card";
import { RewardPools } from "~/components/campaigns/reward-pools";
import { PageHeader } from "~/components/page-header";
import { GatePanel } from "~/components/trust/gate-panel";
import { pageNow } from "~/lib/page-now.server";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { poolsKeptNote } from "~/modules/rewards/promises.server";
import { listRewardPools } from "~/modules/rewards/reward-pools.server";
import { campaignRoleRewards } from "~/modules/community/role-rewards.server";
import { withDecimals } from "~/modules/rewards/pool-decimals.server";
import { can } from "~/modules/projects/permissions.server";
import { campaignStatus } from "~/modules/tasks/campaign-status";
import { campaignProgress } from "~/modules/tasks/campaigns.server";
import { campaignPage } from "~/modules/tasks/quest-pages.server";
import { taskBlock } from "~/modules/tasks/task-page.server";
import { listTasks, memberStates } from "~/modules/tasks/tasks.server";
import { gatePanelOf } from "~/modules/trust/gate-panels.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Campaign", ({ campaign, project }) => ({
    page: campaign.name,
    description: campaign.description || `${campaign.name}: a ${project.name} campaign. Complete its tasks to earn XP and rewards.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { database, env, chains } = context.get(servicesContext);
  const db = database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const { project, role, campaign } = await campaignPage({ db, projectSlug: params.project, campaignSlug: params.campaign, userId });
  const now = pageNow();
  const tasks = await listTasks({ db, campaignId: campaign.id, withDrafts: can(role, "drafts.view") });
  const states = await memberStates({ db, userId, tasks, now });
  const status = campaignStatus(campaign, now);
  const published = tasks.filter((t) => t.publishedAt);
  const pools = withDecimals(chains, await listRewardPools({ db, campaignId: campaign.id, userId }));
  // Who may take part: the campaign's gate and each pool's own, with the member's state (rules only, for a visitor).
  const gateOf = (gate: unknown) => gatePanelOf({ db, chains, gate, userId, projectId: project.id, now });
  const poolGates: Record<string, NonNullable<Awaited<ReturnType<typeof gateOf>>>> = {};
  for (const pool of pools) {
    const panel = await gateOf(pool.gate);
    if (panel) poolGates[pool.id] = panel;
  }
  return {
    project: { slug: project.slug, name: project.name },
    campaign: { ...campaign, status },
    now,
    // Each task with what stops the member from doing it now, by the task page's (and the engine's) rules.
    tasks: await Promise.all(
      tasks.map(async (t) => {
        const state = states.get(t.id) ?? null;
        const block = await taskBlock({ db, task: t, campaignStatus: status, state, userId, socialProviders: env.social.connectable, now });
        // Never the task's settings: a quiz's answers stay on the server.
        const { id, title, type, verification, xp, recurrence } = t;
        return { id, title, type, verification, xp, recurrence, published: t.publishedAt !== null, state, block };
      }),
    ),
    progress: userId ? await campaignProgress({ db, campaignId: campaign.id, userId }) : null,
    reward: { xp: published.reduce((sum, t) => sum + t.xp, 0), tasks: published.length, daily: published.filter((t) => t.recurrence === "daily").length },
    pools,
    roles: await campaignRoleRewards({ db, campaignId: campaign.id }),
    gate: await gateOf(campaign.gate),
    poolGates,
    canManage: can(role, "quests.manage"),
    canManageRewards: can(role, "rewards.manage"),
    // For its managers: why its token rewards can only be raised now (live, or entered), or null.
    poolsKept: can(role, "rewards.manage") ? await poolsKeptNote(db, campaign, now) : null,
    onTeam: role !== null,
    canReview: can(role, "submissions.review"),
  };
}

export default function CampaignShow({ loaderData }: Route.ComponentProps) {
  const { project, campaign, now, tasks, progress, reward, pools, gate, poolGates, canManage, canManageRewards, canReview } = loaderData;
  const location = useLocation();
  const ids = { project: project.slug, campaign: campaign.slug };
  const ended = campaign.status === "ended";
  const manageRewards = canManageRewards && !ended;
  const addTask = canManage ? route("tasks.new", { project: project.slug, campaignId: campaign.id }) : null;
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: "Campaigns", to: route("projects.campaigns", { project: project.slug }) }]} />
      <PageHeader
        title={campaign.name}
        description={
          <ContainerWindow
            badge={<CampaignStatusBadge status={campaign.status} />}
            startsAt={campaign.startsAt}
            endsAt={campaign.endsAt}
            when={countdown(campaign, now)}
          />
        }
        actions={
          <ContainerActions
            leaderboardTo={route("campaigns.leaderboard", ids)}
            submissionsTo={canReview ? route("campaigns.submissions", ids) : null}
            editTo={canManage ? route("campaigns.edit", ids) : null}
            addTaskTo={addTask}
          />
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid content-start gap-6 lg:col-span-2">
          {campaign.description && <p className="text-sm leading-relaxed whitespace-pre-line wrap-anywhere">{campaign.description}</p>}
          <section aria-labelledby="tasks-heading" className="grid gap-3">
            <h2 id="tasks-heading" className="text-lg font-semibold">
              Tasks
            </h2>
            {ended && tasks.length > 0 && <p className="text-sm text-muted-foreground">This campaign has ended: its tasks can no longer be done.</p>}
            {campaign.status === "scheduled" && tasks.length > 0 && (
              <p className="text-sm text-muted-foreground">
                This campaign opens <LocalTime value={campaign.startsAt} />: its tasks can be done from then.
              </p>
            )}
            <ContainerTasks tasks={tasks} addTaskTo={addTask} noun="campaign" />
          </section>
        </div>
        <aside className="grid content-start gap-4">
          {gate && <GatePanel gate={gate} what="campaign" />}
          <CampaignProgress progress={progress} signInTo={route("login", { redirectTo: location.pathname })} />
          <XpRewardCard xp={reward.xp} tasks={reward.tasks} daily={reward.daily} />
          <RewardPools
            pools={pools}
            gates={poolGates}
            campaignEnded={ended}
            onTeam={loaderData.onTeam}
            keptNote={manageRewards ? loaderData.poolsKept : null}
            createTo={manageRewards ? route("campaigns.rewards.new", ids) : null}
            editTo={manageRewards ? (reward) => route("campaigns.rewards.edit", { ...ids, reward }) : null}
            roles={loaderData.roles}
          />
        </aside>
      </div>
    </>
  );
}
