import { useLocation } from "react-router";
import { AirdropClaim } from "~/components/airdrops/airdrop-claim";
import { RoundPanel } from "~/components/airdrops/airdrop-round";
import type { Route } from "./+types/show";
import { AirdropPaysCard, AirdropStandingCard, AllocationCard } from "~/components/airdrops/airdrop-panels";
import { AirdropPhaseBadge, airdropCountdown } from "~/components/airdrops/airdrop-status";
import { LocalTime } from "~/components/campaigns/local-time";
import { ProjectCrumb } from "~/components/campaigns/project-crumb";
import { ContainerActions } from "~/components/containers/container-actions";
import { ContainerTasks } from "~/components/containers/container-tasks";
import { ContainerWindow } from "~/components/containers/container-window";
import { PageHeader } from "~/components/page-header";
import { GatePanel } from "~/components/trust/gate-panel";
import { pageNow } from "~/lib/page-now.server";
import { redirectWithToast } from "~/lib/flash.server";
import { dataPageMeta } from "~/lib/meta";
import { failure, formFailure } from "~/lib/result";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession, requireUser } from "~/modules/auth/session.server";
import { claimableShares, claimsClosedOnChain, roundView, sweepRound } from "~/modules/airdrops/round-view.server";
import { assetParts, type Asset } from "~/modules/ledger/assets";
import { authorize } from "~/modules/projects/permissions.server";
import { rewardActionRefused } from "~/modules/rewards/reward-limits.server";
import { airdropPage, airdropShow } from "~/modules/airdrops/airdrop-pages.server";
import { airdropOpen } from "~/modules/airdrops/airdrop-phase";
import { can } from "~/modules/projects/permissions.server";
import { gatePanelOf } from "~/modules/trust/gate-panels.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Airdrop", ({ airdrop, project }, appName) => ({
    page: airdrop.name,
    description: airdrop.description || `A ${project.name} airdrop on ${appName}.`,
  }));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const db = services.database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  const now = pageNow();
  const { project, role, airdrop, phase, claimDeadline } = await airdropPage({ db, projectSlug: params.project, airdropSlug: params.airdrop, userId, now });
  const { escrowed: _escrowed, escrowMoves: _moves, ...shown } = airdrop;
  const round = await roundView({ db, airdropId: airdrop.id });
  const { symbol } = assetParts(airdrop.asset as Asset);
  const [claim] = userId && phase === "claimable" ? await claimableShares({ db, userId, airdrops: [airdrop] }) : [];
  const managesRound = can(role, "rewards.manage") && round !== null;
  return {
    claim: claim ?? null,
    // The team sees the round's progress; Sweep once the chain's clock (which the contract goes by) has passed the deadline.
    round: managesRound ? { ...round, sweepable: round.step === "open" && (await claimsClosedOnChain({ chains: services.chains, round })) === true } : null,
    symbol,
    project: { slug: project.slug, name: project.name },
    airdrop: { ...shown, phase, claimDeadline },
    now,
    // Who may take part: its rules, with the member's state ("what you still need").
    gate: await gatePanelOf({ db, chains: services.chains, gate: airdrop.gate, userId, projectId: project.id, now }),
    ...(await airdropShow({ db, airdrop, role, userId, socialProviders: services.env.social.connectable, now })),
    onTeam: role !== null,
    // Edited and given tasks while it takes them: not frozen, not ended (saveAirdrop and the task form refuse then).
    canManage: can(role, "quests.manage") && airdropOpen(airdrop, now),
  };
}

/** Sweep: an owner or admin brings the round's unclaimed rest back to the treasury, once claims closed on chain. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireUser(context, request);
  const services = context.get(servicesContext);
  const db = services.database.db;
  const { project, airdrop } = await airdropPage({ db, projectSlug: params.project, airdropSlug: params.airdrop, userId: user.id });
  await authorize({ db, projectId: project.id, userId: user.id, action: "rewards.manage" });
  const form = await request.formData();
  if (form.get("intent") !== "sweep") return formFailure(failure("conflict", "This page does not know that action."));
  const flooded = await rewardActionRefused({ db, userId: user.id });
  if (flooded) return formFailure(flooded);
  const swept = await sweepRound({ db, chains: services.chains, airdropId: airdrop.id, actorId: user.id });
  if (!swept.ok) return formFailure(swept);
  const message = "The sweep is on its way: what was not claimed comes back to the treasury once it is confirmed";
  throw redirectWithToast(route("airdrops.show", { project: project.slug, airdrop: airdrop.slug }), message, { appUrl: services.env.APP_URL });
}

export default function AirdropShow({ loaderData, actionData }: Route.ComponentProps) {
  const { project, airdrop, now, tasks, standing, frozen, onTeam, canManage, claim, round, symbol, gate } = loaderData;
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
          {gate && <GatePanel gate={gate} what="airdrop" />}
          <AirdropStandingCard
            phase={airdrop.phase}
            standing={standing}
            asset={airdrop.asset}
            minPoints={airdrop.minPoints}
            onTeam={onTeam}
            claimDeadline={airdrop.claimDeadline}
            leaderboardTo={route("airdrops.leaderboard", ids)}
            signInTo={route("login", { redirectTo: location.pathname })}
            claim={claim && <AirdropClaim share={claim} />}
          />
          <AirdropPaysCard airdrop={airdrop} claimDeadline={airdrop.claimDeadline} />
          {frozen && (
            <AllocationCard
              frozen={frozen}
              asset={airdrop.asset}
              treeTo={route("airdrops.tree", ids)}
              csvTo={route("airdrops.allocation", ids)}
              sweep={round && <RoundPanel round={round} symbol={symbol} sweepable={round.sweepable} error={actionData?.errors.form} />}
            />
          )}
        </aside>
      </div>
    </>
  );
}
