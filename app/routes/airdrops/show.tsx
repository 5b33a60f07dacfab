import { useLocation } from "react-router";
import type { Route } from "./+types/show";
import { AirdropPaysCard, AirdropStandingCard, AllocationCard } from "~/components/airdrops/airdrop-panels";
import { AirdropPhaseBadge, airdropCountdown } from "~/components/airdrops/airdrop-status";
import { LocalTime } from "~/components/campaigns/local-time";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { ContainerActions } from "~/components/containers/container-actions";
import { ContainerTasks } from "~/components/containers/container-tasks";
import { ContainerWindow } from "~/components/containers/container-window";
import { PageHeader } from "~/components/page-header";
import { pageTitle } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { airdropPage, airdropShow } from "~/modules/airdrops/airdrop-pages.server";
import { airdropOpen } from "~/modules/airdrops/airdrop-phase";
import { can } from "~/modules/projects/permissions.server";

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const appName = matches[0].loaderData.appName;
  if (!loaderData) return [{ title: pageTitle(appName, "Airdrop") }];
  const { airdrop, project } = loaderData;
  const description = airdrop.description.slice(0, 200) || `A ${project.name} airdrop on ${appName}`;
  return [
    { title: pageTitle(appName, airdrop.name) },
    { name: "description", content: description },
    { property: "og:title", content: airdrop.name },
    { property: "og:description", content: description },
  ];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const now = new Date();
  const { project, role, airdrop, phase, claimDeadline } = await airdropPage({ db, projectSlug: params.project, airdropSlug: params.airdrop, userId, now });
  const { escrowed: _escrowed, escrowMoves: _moves, ...shown } = airdrop;
  return {
    project: { slug: project.slug, name: project.name },
    airdrop: { ...shown, phase, claimDeadline },
    now,
    ...(await airdropShow({ db, airdrop, role, userId, now })),
    onTeam: role !== null,
    // Edited and given tasks while it takes them: not frozen, not ended (saveAirdrop and the task form refuse then).
    canManage: can(role, "quests.manage") && airdropOpen(airdrop, now),
  };
}

export default function AirdropShow({ loaderData }: Route.ComponentProps) {
  const { project, airdrop, now, tasks, standing, frozen, onTeam, canManage } = loaderData;
  const location = useLocation();
  const ids = { project: project.slug, airdrop: airdrop.slug };
  const addTask = canManage ? route("tasks.new", { project: project.slug, airdrop: airdrop.id }) : null;
  const running = airdrop.phase === "upcoming" || airdrop.phase === "live" || airdrop.phase === "draft";
  return (
    <>
      <ProjectCrumb project={project} trail={[{ label: "Airdrops", to: route("projects.airdrops", { project: project.slug }) }]} />
      <PageHeader
        title={airdrop.name}
        description={
          <ContainerWindow
            badge={<AirdropPhaseBadge phase={airdrop.phase} />}
            startsAt={airdrop.startsAt}
            endsAt={airdrop.endsAt}
            when={airdropCountdown(airdrop, now)}
          />
        }
        actions={
          <ContainerActions leaderboardTo={route("airdrops.leaderboard", ids)} editTo={canManage ? route("airdrops.edit", ids) : null} addTaskTo={addTask} />
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid content-start gap-6 lg:col-span-2">
          {airdrop.description && <p className="text-sm leading-relaxed whitespace-pre-line wrap-anywhere">{airdrop.description}</p>}
          <section aria-labelledby="tasks-heading" className="grid gap-3">
            <h2 id="tasks-heading" className="text-lg font-semibold">
              Tasks
            </h2>
            {tasks.length > 0 && (
              <p className="text-sm text-muted-foreground">
                {airdrop.phase === "upcoming" ? (
                  <>
                    This airdrop opens <LocalTime value={airdrop.startsAt} />: its tasks earn points from then.
                  </>
                ) : running ? (
                  "Each task's XP also counts as points on this airdrop's board while it runs."
                ) : (
                  "This airdrop has ended: its tasks no longer earn points."
                )}
              </p>
            )}
            <ContainerTasks tasks={tasks} addTaskTo={addTask} noun="airdrop" />
          </section>
        </div>
        <aside className="grid content-start gap-4">
          <AirdropStandingCard
            phase={airdrop.phase}
            standing={standing}
            asset={airdrop.asset}
            minPoints={airdrop.minPoints}
            onTeam={onTeam}
            claimDeadline={airdrop.claimDeadline}
            leaderboardTo={route("airdrops.leaderboard", ids)}
            signInTo={route("login", { redirectTo: location.pathname })}
            // The Claim control (the member's on-chain claim with their stored proof) goes in `claim`.
            claim={null}
          />
          <AirdropPaysCard airdrop={airdrop} claimDeadline={airdrop.claimDeadline} />
          {frozen && (
            <AllocationCard
              frozen={frozen}
              asset={airdrop.asset}
              treeTo={route("airdrops.tree", ids)}
              csvTo={route("airdrops.allocation", ids)}
              // The team's Sweep control (after the claim deadline) goes in `sweep`.
              sweep={null}
            />
          )}
        </aside>
      </div>
    </>
  );
}
