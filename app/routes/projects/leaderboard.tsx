import { data } from "react-router";
import type { Route } from "./+types/leaderboard";
import { BoardScreen } from "~/components/leaderboards/board-screen";
import { pageParam } from "~/components/pagination";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { boardWindowParam, loadBoard, redirectPastLastPage } from "~/modules/leaderboards/board-screen.server";
import { projectBySlug } from "~/modules/projects/projects.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Leaderboard", ({ project }) => ({
    page: `${project.name} leaderboard`,
    description: `The members with the most XP from ${project.name}'s tasks.`,
  }));
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const found = await projectBySlug({ db, slug: params.project });
  if (!found) throw data("This project does not exist.", { status: 404 });
  const url = new URL(request.url);
  const userId = (await getSession(context))?.user.id ?? null;
  const board = await loadBoard({ db, scope: { kind: "project", projectId: found.id }, window: boardWindowParam(url), page: pageParam(url), userId });
  redirectPastLastPage(url, board.board.page, board.board.rows.length);
  return { ...board, userId, project: { slug: found.slug, name: found.name } };
}

export default function ProjectLeaderboard({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  return (
    <BoardScreen
      title={`${project.name} leaderboard`}
      description={`Members ranked by the XP they earned in ${project.name}.`}
      back={{ to: route("projects.show", { project: project.slug }), label: project.name }}
      window={loaderData.window}
      board={loaderData.board}
      userId={loaderData.userId}
      hidden={loaderData.hidden}
    />
  );
}
