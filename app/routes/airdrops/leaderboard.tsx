import type { Route } from "./+types/leaderboard";
import { BoardScreen } from "~/components/leaderboards/board-screen";
import { pageParam } from "~/components/pagination";
import { dataPageMeta } from "~/lib/meta";
import { route } from "~/lib/routes";
import { servicesContext } from "~/services/services.server";
import { getSession } from "~/modules/auth/session.server";
import { airdropPage } from "~/modules/airdrops/airdrop-pages.server";
import { isFrozenPhase } from "~/modules/airdrops/airdrop-phase";
import { loadBoard, redirectPastLastPage } from "~/modules/leaderboards/board-screen.server";
import type { VisitorPage } from "~/lib/visitor-page";

/** The same for every signed-out visitor: shared caches may keep it a few seconds. */
export const handle: VisitorPage = { visitorPage: true };

export function meta(args: Route.MetaArgs) {
  return dataPageMeta(args, "Leaderboard", ({ airdrop }) => ({
    page: `${airdrop.name} leaderboard`,
    description: `Members ranked for the ${airdrop.name} airdrop.`,
  }));
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).database.db;
  const userId = (await getSession(context))?.user.id ?? null;
  // 404 as the airdrop's page: a draft's board is the team's.
  const { project, airdrop, phase } = await airdropPage({ db, projectSlug: params.project, airdropSlug: params.airdrop, userId });
  const url = new URL(request.url);
  // An airdrop's points are kept for all time only: its allocation is frozen from this board.
  const board = await loadBoard({ db, scope: { kind: "airdrop", airdropId: airdrop.id }, window: "all", page: pageParam(url), userId });
  redirectPastLastPage(url, board.board.page, board.board.rows.length);
  return { ...board, userId, phase, project: { slug: project.slug, name: project.name }, airdrop: { slug: airdrop.slug, name: airdrop.name } };
}

export default function AirdropLeaderboard({ loaderData }: Route.ComponentProps) {
  const { project, airdrop, phase } = loaderData;
  const frozen = isFrozenPhase(phase);
  return (
    <BoardScreen
      title={`${airdrop.name} leaderboard`}
      description={
        frozen
          ? `Members ranked by the points they earned in this ${project.name} airdrop; its allocation was frozen from this board.`
          : `Members ranked by the points they earn in this ${project.name} airdrop; when it ends, its total is shared by this board.`
      }
      back={{ to: route("airdrops.show", { project: project.slug, airdrop: airdrop.slug }), label: airdrop.name }}
      window={loaderData.window}
      windows={false}
      unit="points"
      unranked="You have no points on this board yet. Complete one of the airdrop's tasks to join it."
      board={loaderData.board}
      userId={loaderData.userId}
      hidden={loaderData.hidden}
    />
  );
}
