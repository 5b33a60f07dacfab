import { data } from "react-router";
import type { Route } from "./+types/leaderboard";
import { BoardScreen } from "~/components/leaderboards/board-screen";
import { pageParam } from "~/components/pagination";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { boardWindowParam, loadBoard, redirectPastLastPage } from "~/modules/leaderboards/board-screen.server";
import { authorize } from "~/modules/projects/permissions.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import { campaignBySlug } from "~/modules/tasks/campaigns.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Leaderboard", ({ campaign }) => ({
    page: `${campaign.name} leaderboard`,
    description: `Who leads ${campaign.name}: members ranked by the XP its tasks gave them.`,
  }));
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const project = await projectBySlug({ db, slug: params.project });
  const campaign = project && (await campaignBySlug({ db, projectId: project.id, slug: params.campaign }));
  if (!project || !campaign) throw data("This campaign does not exist.", { status: 404 });
  const userId = (await getSession(context))?.user.id ?? null;
  // A draft is for the project's team only.
  if (!campaign.publishedAt) await authorize({ db, projectId: project.id, userId, action: "drafts.view" });
  const url = new URL(request.url);
  const board = await loadBoard({ db, scope: { kind: "campaign", campaignId: campaign.id }, window: boardWindowParam(url), page: pageParam(url), userId });
  redirectPastLastPage(url, board.board.page, board.board.rows.length);
  return { ...board, userId, project: { slug: project.slug, name: project.name }, campaign: { slug: campaign.slug, name: campaign.name } };
}

export default function CampaignLeaderboard({ loaderData }: Route.ComponentProps) {
  const { project, campaign } = loaderData;
  return (
    <BoardScreen
      title={`${campaign.name} leaderboard`}
      description={`Members ranked by the XP they earned in this ${project.name} campaign.`}
      back={{ to: route("campaigns.show", { project: project.slug, campaign: campaign.slug }), label: campaign.name }}
      window={loaderData.window}
      board={loaderData.board}
      userId={loaderData.userId}
      hidden={loaderData.hidden}
    />
  );
}
