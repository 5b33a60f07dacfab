import { KeyRound, MessagesSquare, Send, Webhook } from "lucide-react";
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
import { takeRateLimit } from "~/lib/rate-limit.server";
import { FollowButton } from "~/components/notifications/follow-button";
import { redirectWithToast } from "~/lib/flash.server";
import { requireUser } from "~/modules/auth/session.server";
import { followSchema } from "~/modules/notifications/follow.schema";
import { followProject, followState, unfollowProject } from "~/modules/notifications/follows.server";

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
  const [live, crusades, airdrops, top, teamCampaigns, toReview, follow] = await Promise.all([
    listCampaigns({ db, projectId: project.id, status: "live", limit: 6 }),
    listCrusades({ db, projectId: project.id, withDrafts: team, userId }),
    listAirdrops({ db, projectId: project.id, withDrafts: team, limit: 6 }),
    boardPage({ db, board: boardKey({ kind: "project", projectId: project.id }, "all"), limit: 5 }),
    team ? listCampaigns({ db, projectId: project.id, withDrafts: true, limit: 20 }) : Promise.resolve([]),
    reviewer ? pendingReviewCount({ db, projectId: project.id }) : Promise.resolve(null),
    followState({ db, userId, projectId: project.id }),
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
      webhooks: can(role, "webhooks.manage"),
      community: can(role, "community.manage"),
    },
    toReview,
    follow,
    live,
    drafts: teamCampaigns.filter((c) => c.status === "draft"),
    reviewCampaigns: reviewer ? teamCampaigns.filter((c) => c.status !== "draft") : [],
    crusades,
    airdrops,
    top,
  };
}

/** Follow / Unfollow (a visitor is sent to sign in first, then back here). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = await requireUser(context, request);
  const db = services.database.db;
  const project = await projectBySlug({ db, slug: params.project });
  if (!project) throw data("Not found", { status: 404 });
  const form = followSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) throw data("That action is not known.", { status: 400 });
  // Following is idempotent, but a flood of toggles is still work: 30 an hour per member.
  const claim = await takeRateLimit({ db, key: `follow:${user.id}`, max: 30, windowSeconds: 3600 });
  if (!claim.ok)
    return redirectWithToast(
      route("projects.show", { project: project.slug }),
      `Too many follow changes: try again in ${Math.ceil(claim.retryAfterSeconds / 60)} min`,
      {
        appUrl: services.env.APP_URL,
      },
    );
  if (form.data.intent === "follow") await followProject({ db, userId: user.id, projectId: project.id });
  else await unfollowProject({ db, userId: user.id, projectId: project.id });
  const said = form.data.intent === "follow" ? `You follow ${project.name}: its new campaigns reach your inbox` : `You no longer follow ${project.name}`;
  return redirectWithToast(route("projects.show", { project: project.slug }), said, { appUrl: services.env.APP_URL });
}

export default function ProjectShow({ loaderData }: Route.ComponentProps) {
  const { project, userId, role, live, drafts, reviewCampaigns, crusades, airdrops, top, toReview, follow } = loaderData;
  const slug = project.slug;
  return (
    <>
      <ProjectHeader
        project={project}
        rewardAsset={project.rewardAsset}
        actions={
          <div className="flex flex-wrap gap-2">
            <FollowButton name={project.name} following={follow.following} followers={follow.followers} />
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
            {loaderData.can.webhooks && (
              <Button asChild variant="outline" size="sm">
                <Link to={`/projects/${encodeURIComponent(slug)}/webhooks`}>
                  <Webhook aria-hidden /> Webhooks
                </Link>
              </Button>
            )}
            {loaderData.can.community && (
              <Button asChild variant="outline" size="sm">
                <Link to={route("projects.discord", { project: slug })} aria-label="Discord bot and roles of this project">
                  <MessagesSquare aria-hidden /> Discord
                </Link>
              </Button>
            )}
            {loaderData.can.community && (
              <Button asChild variant="outline" size="sm">
                <Link to={route("projects.telegram", { project: slug })} aria-label="Telegram bot of this project">
                  <Send aria-hidden /> Telegram
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
