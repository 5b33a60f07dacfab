import { KeyRound } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/show";
import { ProjectHeader, ProjectRewardsLink, ProjectTasksLink, ToReviewLink } from "~/components/projects/project-header";
import { AirdropList } from "~/components/airdrops/airdrop-list";
import { CampaignList, CrusadeList, Section, TopMembers } from "~/components/projects/project-sections";
import { TeamPanel } from "~/components/projects/team-panel";
import { Button } from "~/components/ui/button";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { listAirdrops } from "~/modules/airdrops/airdrop-pages.server";
import { boardKey, boardPage } from "~/modules/leaderboards/leaderboards.server";
import { can, roleIn } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { listCampaigns, listCrusades } from "~/modules/tasks/campaigns.server";
import { pendingReviewCount } from "~/modules/tasks/review-queue.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Project", ({ project }, appName) => ({
    page: project.name,
    description: project.description || `${project.name}'s campaigns, tasks and leaderboard on ${appName}.`,
    image: project.logoUrl,
  }));
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const { database } = context.get(servicesContext);
  const db = database.db;
  const project = await projectBySlug({ db, slug: params.project });
  if (!project) throw data("Not found", { status: 404 });
  const userId = (await getSession(context))?.user.id ?? null;
  const role = await roleIn({ db, projectId: project.id, userId });
  const team = can(role, "drafts.view");
  const reviewer = can(role, "submissions.review");
  const [live, crusades, airdrops, top, teamCampaigns, toReview] = await Promise.all([
    listCampaigns({ db, projectId: project.id, status: "live", limit: 6 }),
    listCrusades({ db, projectId: project.id, withDrafts: team, userId }),
    listAirdrops({ db, projectId: project.id, withDrafts: team, limit: 6 }),
    boardPage({ db, board: boardKey({ kind: "project", projectId: project.id }, "all"), limit: 5 }),
    team ? listCampaigns({ db, projectId: project.id, withDrafts: true, limit: 20 }) : Promise.resolve([]),
    reviewer ? pendingReviewCount({ db, projectId: project.id }) : Promise.resolve(null),
  ]);
  const { createdBy: _createdBy, ...shown } = project;
  return {
    project: shown,
    userId,
    role,
    can: {
      edit: can(role, "project.edit"),
      team: can(role, "team.view"),
      quests: can(role, "quests.manage"),
      review: reviewer,
      trust: can(role, "trust.view"),
      api: can(role, "api.manage"),
    },
    toReview,
    live,
    drafts: teamCampaigns.filter((c) => c.status === "draft"),
    reviewCampaigns: reviewer ? teamCampaigns.filter((c) => c.status !== "draft") : [],
    crusades,
    airdrops,
    top,
  };
}

export default function ProjectShow({ loaderData }: Route.ComponentProps) {
  const { project, userId, role, live, drafts, reviewCampaigns, crusades, airdrops, top, toReview } = loaderData;
  const slug = project.slug;
  return (
    <>
      <ProjectHeader
        project={project}
        rewardAsset={project.rewardAsset}
        actions={
          <div className="flex flex-wrap gap-2">
            <ProjectTasksLink projectSlug={project.slug} />
            <ProjectRewardsLink projectSlug={project.slug} />
            {toReview !== null && <ToReviewLink projectSlug={project.slug} count={toReview} />}
            {loaderData.can.api && (
              <Button asChild variant="outline" size="sm">
                <Link to={`/projects/${slug}/api`} aria-label="API keys of this project">
                  <KeyRound aria-hidden /> API
                </Link>
              </Button>
            )}
          </div>
        }
      />
      {/* On phones the team's panel comes first; on wide screens it heads the side column. */}
      <div className="grid gap-8 lg:grid-cols-3 lg:grid-rows-[auto_auto_1fr]">
        <div className="grid content-start gap-8 lg:col-span-2 lg:col-start-1 lg:row-span-3 lg:row-start-1">
          <Section title="Live campaigns" more={{ to: route("projects.campaigns", { project: slug }), label: "All campaigns" }}>
            <CampaignList projectSlug={slug} campaigns={live} empty="No live campaigns right now" />
          </Section>
          {role && drafts.length > 0 && (
            <Section title="Draft campaigns">
              <CampaignList projectSlug={slug} campaigns={drafts} empty="No drafts" />
            </Section>
          )}
          <Section title="Crusades" more={{ to: route("projects.crusades", { project: slug }), label: "All crusades" }}>
            <CrusadeList projectSlug={slug} crusades={crusades.slice(0, 6)} signedIn={userId !== null} />
          </Section>
          <Section title="Airdrops" more={{ to: route("projects.airdrops", { project: slug }), label: "All airdrops" }}>
            <AirdropList airdrops={airdrops} />
          </Section>
        </div>
        {role && (
          <div className="order-first lg:order-none lg:col-start-3 lg:row-start-1">
            <TeamPanel projectSlug={slug} role={role} can={loaderData.can} reviewCampaigns={reviewCampaigns} />
          </div>
        )}
        <div className={role ? "lg:col-start-3 lg:row-start-2" : "lg:col-start-3 lg:row-start-1"}>
          <Section title="Top members" more={{ to: route("projects.leaderboard", { project: slug }), label: "Leaderboard" }}>
            <TopMembers rows={top} userId={userId} />
          </Section>
        </div>
      </div>
    </>
  );
}
